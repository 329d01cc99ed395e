// SPDX-License-Identifier: GPL-2.0
/*
 * promfile.c: counters per capability, verdict and call site, and the loss
 * counters, in the Prometheus text format.  Label cardinality is bounded:
 * the PROMFILE_MAX_SERIES busiest (capability, verdict, call site) series
 * are written, the others add up into call_site="other".  The file is
 * written to a temporary name and renamed, so a scrape never sees half.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capnames.h"
#include "promfile.h"
#include "rowset.h"

struct series {
	__u32 cap, granted;
	const char *call_site;
	__u64 count;
};

static int series_cmp(const void *a, const void *b)
{
	const struct series *x = a, *y = b;

	return x->count < y->count ? 1 : x->count > y->count ? -1 : 0;
}

/* rows (sorted by key in the store) → one series per cap, verdict, site */
static size_t fold(const struct rowset *rs, struct series *out)
{
	const struct agg_row *r;
	size_t i, j, n = 0;

	for (i = 0; i < rs->nr; i++) {
		r = &rs->rows[i];
		for (j = n; j > 0; j--) {
			if (out[j - 1].cap == r->cap && out[j - 1].granted == r->granted &&
			    !strcmp(out[j - 1].call_site, r->call_site))
				break;
		}
		if (j) {
			out[j - 1].count += r->count;
			continue;
		}
		out[n++] = (struct series){ r->cap, r->granted, r->call_site, r->count };
	}
	return n;
}

/* label values: escape backslash, quote and newline */
static void label(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', f);
		if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

static void write_series(FILE *f, const struct series *s, size_t n)
{
	__u64 other[64][2] = {};
	char buf[CAPNAMES_BUF_LEN];
	size_t i;
	int cap, g;

	fprintf(f, "# HELP capaudit_checks_total Capability checks recorded.\n"
		   "# TYPE capaudit_checks_total counter\n");
	for (i = 0; i < n; i++) {
		if (i >= PROMFILE_MAX_SERIES) {
			if (s[i].cap < 64)
				other[s[i].cap][!!s[i].granted] += s[i].count;
			continue;
		}
		fprintf(f, "capaudit_checks_total{cap=\"%s\",verdict=\"%s\",call_site=\"",
			capnames__name(s[i].cap, buf, sizeof(buf)),
			s[i].granted ? "granted" : "denied");
		label(f, s[i].call_site);
		fprintf(f, "\"} %llu\n", (unsigned long long)s[i].count);
	}
	for (cap = 0; cap < 64; cap++)
		for (g = 0; g < 2; g++)
			if (other[cap][g])
				fprintf(f, "capaudit_checks_total{cap=\"%s\",verdict=\"%s\","
					   "call_site=\"other\"} %llu\n",
					capnames__name(cap, buf, sizeof(buf)), g ? "granted" : "denied",
					(unsigned long long)other[cap][g]);
}

static void write_losses(FILE *f, const __u64 *losses)
{
	fprintf(f, "# HELP capaudit_kernel_checks_total Checks seen by the BPF program.\n"
		   "# TYPE capaudit_kernel_checks_total counter\n"
		   "capaudit_kernel_checks_total %llu\n"
		   "# HELP capaudit_lost_total Events not delivered, or delivered without a stack.\n"
		   "# TYPE capaudit_lost_total counter\n"
		   "capaudit_lost_total{cause=\"ringbuf_full\"} %llu\n"
		   "capaudit_lost_total{cause=\"no_stack\"} %llu\n"
		   "capaudit_lost_total{cause=\"entry_exit_mismatch\"} %llu\n"
		   "capaudit_lost_total{cause=\"recursion\"} %llu\n",
		(unsigned long long)losses[CAPAUDIT_CNT_SEEN],
		(unsigned long long)losses[CAPAUDIT_CNT_LOST_RINGBUF],
		(unsigned long long)losses[CAPAUDIT_CNT_LOST_STACK],
		(unsigned long long)losses[CAPAUDIT_CNT_MISMATCH],
		(unsigned long long)losses[CAPAUDIT_CNT_MISSED]);
}

static int write_file(const char *tmp, const struct series *s, size_t n, const __u64 *losses)
{
	FILE *f = fopen(tmp, "we");
	int err = 0;

	if (!f)
		return -errno;
	write_series(f, s, n);
	write_losses(f, losses);
	if (ferror(f) || fflush(f) || fsync(fileno(f)))
		err = -errno ? -errno : -EIO;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

int promfile__write(const char *dir, struct store *store)
{
	struct store_filter all = { .cap = -1, .granted = -1 };
	__u64 losses[CAPAUDIT_CNT_NR] = {};
	char tmp[4096], path[4096];
	struct series *s = NULL;
	struct rowset rs;
	size_t n = 0;
	int err;

	snprintf(tmp, sizeof(tmp), "%s/.capaudit.prom.tmp", dir);
	snprintf(path, sizeof(path), "%s/capaudit.prom", dir);
	err = rowset__load(&rs, store, &all);
	if (!err)
		err = store__losses(store, losses);
	if (!err && rs.nr) {
		s = calloc(rs.nr, sizeof(*s));
		err = s ? 0 : -ENOMEM;
	}
	if (!err && rs.nr) {
		n = fold(&rs, s);
		qsort(s, n, sizeof(*s), series_cmp);
	}
	if (!err)
		err = write_file(tmp, s, n, losses);
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	free(s);
	rowset__free(&rs);
	return err;
}
