// SPDX-License-Identifier: GPL-2.0
/* rowset.c: stored rows copied into memory for the report subcommands. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rowset.h"

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static void row_free(struct agg_row *r)
{
	free((char *)r->call_site);
	free((char *)r->syscall);
	free((char *)r->workload);
	free((char *)r->comm);
}

static int add_row(const struct agg_row *row, void *ctx)
{
	struct rowset *rs = ctx;
	struct agg_row *r, *grown;

	if (rs->nr == rs->cap) {
		rs->cap = rs->cap ? rs->cap * 2 : 256;
		grown = realloc(rs->rows, rs->cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		rs->rows = grown;
	}
	r = &rs->rows[rs->nr];
	*r = *row;
	r->call_site = dup_or_null(row->call_site);
	r->syscall = dup_or_null(row->syscall);
	r->workload = dup_or_null(row->workload);
	r->comm = dup_or_null(row->comm);
	if ((row->call_site && !r->call_site) || (row->syscall && !r->syscall) ||
	    (row->workload && !r->workload) || (row->comm && !r->comm)) {
		row_free(r);
		return -ENOMEM;
	}
	rs->nr++;
	return 0;
}

int rowset__load(struct rowset *rs, struct store *store, const struct store_filter *f)
{
	memset(rs, 0, sizeof(*rs));
	return store__for_each_row(store, f, add_row, rs);
}

void rowset__free(struct rowset *rs)
{
	size_t i;

	for (i = 0; i < rs->nr; i++)
		row_free(&rs->rows[i]);
	free(rs->rows);
	memset(rs, 0, sizeof(*rs));
}

static int by_count(const void *a, const void *b)
{
	const struct agg_row *x = a, *y = b;

	return x->count < y->count ? 1 : x->count > y->count ? -1 : 0;
}

void rowset__sort_by_count(struct rowset *rs)
{
	if (rs->nr)
		qsort(rs->rows, rs->nr, sizeof(*rs->rows), by_count);
}

const char *rowset__audit_name(__u32 audit)
{
	static const char *const names[CHECK_AUDIT_NR] = {
		[CHECK_AUDITED] = "audited",
		[CHECK_NOAUDIT] = "noaudit",
		[CHECK_INSETID] = "insetid",
		[CHECK_CRED_OTHER] = "cred-other",
		[CHECK_SETUP_MANAGER] = "setup-manager",
		[CHECK_SETUP_RUNTIME] = "setup-runtime",
	};

	return audit < CHECK_AUDIT_NR ? names[audit] : "?";
}
