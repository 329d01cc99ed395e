// SPDX-License-Identifier: GPL-2.0
/*
 * report.c: `capaudit report`: the stored counts as a text table, JSON
 * (schema "capaudit-report", version 1, docs/schema.md), CSV, or folded
 * stacks for flamegraph.pl and speedscope.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "capnames.h"
#include "commands.h"
#include "outfmt.h"
#include "report.h"
#include "reportopts.h"
#include "rowset.h"

#define REPORT_SCHEMA "capaudit-report"
#define REPORT_VERSION 1

static const char *str_or(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

/* NULL sorts first; NULL and "" are both shown as "-", so they are equal here */
static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* The columns the text report shows, in its order; the stack is not one */
static int cmp_shown(const struct agg_row *x, const struct agg_row *y)
{
	int c;

	if (x->cap != y->cap)
		return x->cap < y->cap ? -1 : 1;
	if (x->granted != y->granted)
		return x->granted < y->granted ? -1 : 1;
	if (x->audit != y->audit)
		return x->audit < y->audit ? -1 : 1;
	c = cmp_str(x->workload, y->workload);
	if (!c)
		c = cmp_str(x->comm, y->comm);
	if (!c)
		c = cmp_str(x->syscall, y->syscall);
	if (!c)
		c = cmp_str(x->call_site, y->call_site);
	return c;
}

static int cmp_shown_ptr(const void *a, const void *b)
{
	return cmp_shown(*(const struct agg_row *const *)a, *(const struct agg_row *const *)b);
}

/* A row of the text report: the rows of one key but the stack, summed */
struct text_row {
	const struct agg_row *r;	/* the first of them: its shown columns */
	__u64 count;
	__u32 stacks;			/* how many rows (distinct stacks) it sums */
};

static int by_count_desc(const void *a, const void *b)
{
	const struct text_row *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return cmp_shown(x->r, y->r);
}

/*
 * Rows equal in every shown column are one line (they differ by their
 * stack only), with the number of stacks; by_stack: a line per stack
 */
static int group_rows(const struct rowset *rs, bool by_stack, struct text_row **ret, size_t *ret_nr)
{
	const struct agg_row **p = malloc((rs->nr ? rs->nr : 1) * sizeof(*p));
	struct text_row *t = malloc((rs->nr ? rs->nr : 1) * sizeof(*t));
	size_t i, n = 0;

	if (!p || !t) {
		free(p);
		free(t);
		return -ENOMEM;
	}
	for (i = 0; i < rs->nr; i++)
		p[i] = &rs->rows[i];
	if (!by_stack)
		qsort(p, rs->nr, sizeof(*p), cmp_shown_ptr);
	for (i = 0; i < rs->nr; i++) {
		if (!by_stack && n && !cmp_shown(t[n - 1].r, p[i])) {
			t[n - 1].count += p[i]->count;
			t[n - 1].stacks++;
			continue;
		}
		t[n++] = (struct text_row){ p[i], p[i]->count, 1 };
	}
	free(p);
	if (!by_stack)
		qsort(t, n, sizeof(*t), by_count_desc);
	*ret = t;
	*ret_nr = n;
	return 0;
}

static int print_text(const struct rowset *rs, const __u64 *losses,
		      const struct agg_overflow *ov, bool by_stack)
{
	char capbuf[CAPNAMES_BUF_LEN];
	const struct agg_row *r;
	struct text_row *t;
	size_t i, n;
	int err;

	err = group_rows(rs, by_stack, &t, &n);
	if (err)
		return err;
	printf("%10s %-16s  %-22s %-7s %-13s %-28s %-16s %-16s %s\n", "CHECKS",
	       by_stack ? "STACK" : "STACKS", "CAPABILITY", "VERDICT", "AUDIT", "WORKLOAD", "COMM",
	       "SYSCALL", "CALL SITE");
	for (i = 0; i < n; i++) {
		r = t[i].r;
		printf("%10llu ", (unsigned long long)t[i].count);
		if (by_stack)
			printf("%016llx", (unsigned long long)r->stack_hash);
		else
			printf("%-16u", t[i].stacks);
		printf("  %-22s %-7s %-13s ", capnames__name(r->cap, capbuf, sizeof(capbuf)),
		       r->granted ? "granted" : "denied", rowset__audit_name(r->audit));
		outfmt__text(stdout, r->workload, 28, "-");
		putchar(' ');
		outfmt__text(stdout, r->comm, 16, "-");
		putchar(' ');
		outfmt__text(stdout, r->syscall, 16, "-");
		putchar(' ');
		outfmt__text(stdout, r->call_site, 0, "-");
		putchar('\n');
	}
	free(t);
	printf("\nlost in the kernel: %llu (ring buffer full); %llu missed (recursion); %llu "
	       "checks without a stack; %llu in overflow rows\n",
	       (unsigned long long)losses[CAPAUDIT_CNT_LOST_RINGBUF],
	       (unsigned long long)losses[CAPAUDIT_CNT_MISSED],
	       (unsigned long long)losses[CAPAUDIT_CNT_LOST_STACK],
	       (unsigned long long)ov->checks);
	return 0;
}

static void print_csv(const struct rowset *rs)
{
	char capbuf[CAPNAMES_BUF_LEN];
	const struct agg_row *r;
	size_t i;

	puts("count,cap,cap_nr,verdict,audit,workload,comm,syscall,call_site,stack,first_seen,"
	     "last_seen");
	for (i = 0; i < rs->nr; i++) {
		r = &rs->rows[i];
		printf("%llu,%s,%u,%s,%s,", (unsigned long long)r->count,
		       capnames__name(r->cap, capbuf, sizeof(capbuf)), r->cap,
		       r->granted ? "granted" : "denied", rowset__audit_name(r->audit));
		outfmt__csv(stdout, r->workload, ',');
		outfmt__csv(stdout, r->comm, ',');
		outfmt__csv(stdout, r->syscall, ',');
		outfmt__csv(stdout, r->call_site, ',');
		printf("%016llx,%llu,%llu\n", (unsigned long long)r->stack_hash,
		       (unsigned long long)(r->first_ns / 1000000000ull),
		       (unsigned long long)(r->last_ns / 1000000000ull));
	}
}

/*
 * Folded stacks: "workload;comm;outermost;...;innermost;CAP_X;VERDICT count",
 * one line per row, frames without offsets so that a flame graph merges
 * calls from different places in the same function; the verdict is a frame
 * of its own, so that granted and denied checks never fold together.  Names
 * and frames are escaped (outfmt__folded()): none holds ';', ' ' or a line
 * break.
 */
static void print_folded(struct store *store, const struct rowset *rs)
{
	char capbuf[CAPNAMES_BUF_LEN], **frames, *plus;
	const struct agg_row *r;
	size_t i;
	int nr, j;

	for (i = 0; i < rs->nr; i++) {
		r = &rs->rows[i];
		outfmt__folded(stdout, r->workload, "-");
		putchar(';');
		outfmt__folded(stdout, r->comm, "-");
		if (r->stack_hash && !store__stack_frames(store, r->stack_hash, &frames, &nr)) {
			for (j = nr - 1; j >= 0; j--) {
				plus = strchr(frames[j], '+');
				if (plus)
					*plus = '\0';
				putchar(';');
				outfmt__folded(stdout, frames[j], "[unknown]");
			}
			free(frames);
		} else {
			putchar(';');
			outfmt__folded(stdout, r->call_site, "[unknown]");
		}
		printf(";%s;%s %llu\n", capnames__name(r->cap, capbuf, sizeof(capbuf)),
		       r->granted ? "granted" : "denied", (unsigned long long)r->count);
	}
}

struct json_object *report__row_json(const struct agg_row *r)
{
	json_object *o = json_object_new_object();
	char capbuf[CAPNAMES_BUF_LEN], hash[24];

	if (!o)
		return NULL;
	snprintf(hash, sizeof(hash), "%016llx", (unsigned long long)r->stack_hash);
	json_object_object_add(o, "cap", json_object_new_string(capnames__name(r->cap, capbuf,
									   sizeof(capbuf))));
	json_object_object_add(o, "cap_nr", json_object_new_int(r->cap));
	json_object_object_add(o, "verdict",
			       json_object_new_string(r->granted ? "granted" : "denied"));
	json_object_object_add(o, "audit", json_object_new_string(rowset__audit_name(r->audit)));
	json_object_object_add(o, "workload", outfmt__json_string(str_or(r->workload, "")));
	json_object_object_add(o, "comm", outfmt__json_string(str_or(r->comm, "")));
	json_object_object_add(o, "syscall", outfmt__json_string(r->syscall));
	json_object_object_add(o, "call_site", outfmt__json_string(str_or(r->call_site, "")));
	json_object_object_add(o, "stack", json_object_new_string(hash));
	json_object_object_add(o, "count", json_object_new_uint64(r->count));
	json_object_object_add(o, "first_seen", json_object_new_uint64(r->first_ns / 1000000000ull));
	json_object_object_add(o, "last_seen", json_object_new_uint64(r->last_ns / 1000000000ull));
	return o;
}

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

/* One JSON value on f, then freed */
static void put_json(FILE *f, json_object *o)
{
	outfmt__json_put(f, o);
	json_object_put(o);
}

/* "stacks": the frames of each distinct stack the rows name, one at a time */
static int print_stacks_json(struct store *store, const struct rowset *rs)
{
	__u64 *hashes = malloc((rs->nr ? rs->nr : 1) * sizeof(*hashes));
	size_t i, n = 0;
	char **frames;
	json_object *a;
	int nr, j, first = 1;

	if (!hashes)
		return -ENOMEM;
	for (i = 0; i < rs->nr; i++)
		if (rs->rows[i].stack_hash)
			hashes[n++] = rs->rows[i].stack_hash;
	qsort(hashes, n, sizeof(*hashes), cmp_u64);
	printf("  \"stacks\": {");
	for (i = 0; i < n; i++) {
		if ((i && hashes[i] == hashes[i - 1]) ||
		    store__stack_frames(store, hashes[i], &frames, &nr))
			continue;
		a = json_object_new_array();
		for (j = 0; j < nr; j++)
			json_object_array_add(a, outfmt__json_string(frames[j]));
		free(frames);
		printf("%s\n    \"%016llx\": ", first ? "" : ",", (unsigned long long)hashes[i]);
		put_json(stdout, a);
		first = 0;
	}
	printf("%s},\n", first ? "" : "\n  ");
	free(hashes);
	return 0;
}

struct json_object *report__losses_json(const __u64 *losses, const struct agg_overflow *ov)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "seen", json_object_new_uint64(losses[CAPAUDIT_CNT_SEEN]));
	json_object_object_add(o, "lost_ringbuf",
			       json_object_new_uint64(losses[CAPAUDIT_CNT_LOST_RINGBUF]));
	json_object_object_add(o, "lost_stack",
			       json_object_new_uint64(losses[CAPAUDIT_CNT_LOST_STACK]));
	json_object_object_add(o, "mismatch", json_object_new_uint64(losses[CAPAUDIT_CNT_MISMATCH]));
	json_object_object_add(o, "missed_recursion",
			       json_object_new_uint64(losses[CAPAUDIT_CNT_MISSED]));
	json_object_object_add(o, "overflow_checks", json_object_new_uint64(ov->checks));
	json_object_object_add(o, "overflow_stacks", json_object_new_uint64(ov->stacks));
	return o;
}

/*
 * Written a row at a time, never built whole: a report of millions of rows
 * costs the rows' memory, not a document's
 */
static int print_json(struct store *store, const struct rowset *rs, const __u64 *losses,
		      const struct agg_overflow *ov)
{
	size_t i;
	int err;

	printf("{\n  \"schema\": \"%s\",\n  \"version\": %d,\n  \"rows\": [", REPORT_SCHEMA,
	       REPORT_VERSION);
	for (i = 0; i < rs->nr; i++) {
		printf("%s\n    ", i ? "," : "");
		put_json(stdout, report__row_json(&rs->rows[i]));
	}
	printf("%s],\n", rs->nr ? "\n  " : "");
	err = print_stacks_json(store, rs);
	if (err)
		return err;
	printf("  \"kernel\": ");
	put_json(stdout, report__losses_json(losses, ov));
	printf("\n}\n");
	return 0;
}

int cmd_report(int argc, char **argv)
{
	unsigned int formats = 1u << FORMAT_TEXT | 1u << FORMAT_JSON | 1u << FORMAT_CSV |
			       1u << FORMAT_FOLDED;
	__u64 losses[CAPAUDIT_CNT_NR] = {};
	struct agg_overflow ov = {};
	struct report_opts o;
	struct store *store;
	struct rowset rs;
	int err;

	err = report_opts__parse(&o, "report", formats, NULL, argc, argv);
	if (err)
		return err > 0 ? 0 : 2;
	if (report_opts__open_store(&o, &store))
		return 1;
	err = rowset__load(&rs, store, &o.filter);
	if (!err)
		err = store__losses(store, losses);
	if (!err)
		err = store__overflow(store, &ov);
	if (err) {
		fprintf(stderr, "capaudit report: cannot read %s: %s\n", o.store_path,
			store__strerror(err));
		goto out_free_rows;
	}
	rowset__sort_by_count(&rs);
	if (o.format == FORMAT_JSON)
		err = print_json(store, &rs, losses, &ov);
	else if (o.format == FORMAT_CSV)
		print_csv(&rs);
	else if (o.format == FORMAT_FOLDED)
		print_folded(store, &rs);
	else
		err = print_text(&rs, losses, &ov, o.by_stack);
	if (!err)
		err = outfmt__finish("report");
out_free_rows:
	rowset__free(&rs);
	store__close(store);
	return err ? 1 : 0;
}
