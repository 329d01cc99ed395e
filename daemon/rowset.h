/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rowset.h: the stored rows a report works on, copied out of the store so
 * that report, profile and advise can sort and group them freely.
 */
#ifndef CAPAUDIT_ROWSET_H
#define CAPAUDIT_ROWSET_H

#include <stddef.h>
#include "agg.h"
#include "store.h"

struct rowset {
	struct agg_row *rows;
	size_t nr;
	size_t cap;
};

/* 0 or -errno; the strings of each row belong to the rowset */
int rowset__load(struct rowset *rs, struct store *store, const struct store_filter *f);
void rowset__free(struct rowset *rs);
/* sorts by count, largest first (ties in no fixed order) */
void rowset__sort_by_count(struct rowset *rs);
const char *rowset__audit_name(__u32 audit);	/* "audited", "noaudit", ... */

#endif
