/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rows.h: for the unit tests of agg.c and store.c: the rows a walk passes
 * (agg__for_each(), store__for_each_row()) copied, strings included, and
 * their sum.  Define ROWS_MAX before including it for more than 64 rows.
 */
#ifndef CAPAUDIT_TEST_ROWS_H
#define CAPAUDIT_TEST_ROWS_H

#include "agg.h"

#ifndef ROWS_MAX
#define ROWS_MAX 64
#endif
#define ROWS_STR_LEN 64

struct rows {
	int nr;
	struct agg_row row[ROWS_MAX];
	const char *orig_workload[ROWS_MAX];	/* the walker's own pointer */
	char strs[ROWS_MAX][4][ROWS_STR_LEN];
};

static inline const char *rows__keep(char *buf, const char *s)
{
	if (!s)
		return NULL;
	snprintf(buf, ROWS_STR_LEN, "%s", s);
	return buf;
}

/* A walk's callback: ctx is a struct rows */
static inline int rows__collect(const struct agg_row *row, void *ctx)
{
	struct rows *r = ctx;
	int i = r->nr++;

	assert_true(i < ROWS_MAX);
	r->row[i] = *row;
	r->orig_workload[i] = row->workload;
	r->row[i].call_site = rows__keep(r->strs[i][0], row->call_site);
	r->row[i].syscall = rows__keep(r->strs[i][1], row->syscall);
	r->row[i].workload = rows__keep(r->strs[i][2], row->workload);
	r->row[i].comm = rows__keep(r->strs[i][3], row->comm);
	return 0;
}

static inline __u64 rows__sum(const struct rows *r)
{
	__u64 n = 0;
	int i;

	for (i = 0; i < r->nr; i++)
		n += r->row[i].count;
	return n;
}

#endif
