/* SPDX-License-Identifier: GPL-2.0 */
/*
 * merge.h: reports of `capaudit report --json` (schema capaudit-report,
 * version 1) from many hosts, added up into one report.
 */
#ifndef CAPAUDIT_MERGE_H
#define CAPAUDIT_MERGE_H

#include <stddef.h>
#include <json-c/json.h>

struct merge;

/* NULL on ENOMEM */
struct merge *merge__new(void);
void merge__free(struct merge *m);

/*
 * Checks one report (the text of the file @name, @len bytes) and adds it.
 * 0, or -EINVAL with a message naming @name in @err: not JSON, not a
 * capaudit report version 1, or a row without its key fields.  A report
 * refused adds nothing.
 */
int merge__add(struct merge *m, const char *name, const char *text, size_t len, char *err,
	       size_t errlen);

/* The merged report, a new object (json_object_put() it), or NULL on ENOMEM */
json_object *merge__report(const struct merge *m);

#endif
