/* SPDX-License-Identifier: GPL-2.0 */
/*
 * merge.h: reports of `capaudit report --json` (schema capaudit-report,
 * version 1) from many hosts, added up into one report.  Inputs are read one
 * row at a time: memory holds the merged rows and one input's rows, never an
 * input's text.  The limits and types are in docs/schema.md.
 */
#ifndef CAPAUDIT_MERGE_H
#define CAPAUDIT_MERGE_H

#include <stddef.h>
#include <json-c/json.h>

/* An input file at most this large */
#define MERGE_MAX_INPUT		(4ull << 30)
/* A name (cap, workload, comm, call site, frame, ...) at most this long, in bytes */
#define MERGE_MAX_STRING	65536
/* A row, a stack or any other value at most this much JSON text */
#define MERGE_MAX_VALUE		(4u << 20)

struct merge;

/* NULL on ENOMEM */
struct merge *merge__new(void);
void merge__free(struct merge *m);

/*
 * Checks one report (the text of the file @name, @len bytes) and adds it.
 * 0, or a negative errno with a message naming @name (and the row and the
 * field where one is at fault) in @err: not JSON, empty, not a capaudit
 * report version 1, a field of the wrong type or too long, a sum past 2^64 - 1.
 * A report refused adds nothing.
 */
int merge__add(struct merge *m, const char *name, const char *text, size_t len, char *err,
	       size_t errlen);
/* The same, read from @fd (a regular file) in chunks */
int merge__add_fd(struct merge *m, const char *name, int fd, char *err, size_t errlen);

/*
 * The merged report, a new object (json_object_put() it), or NULL on ENOMEM.
 * Rows, stacks and counters in a fixed order: the same whatever the order
 * the reports were added in.
 */
json_object *merge__report(const struct merge *m);

#endif
