// SPDX-License-Identifier: GPL-2.0
/*
 * advisecmd.c: `capaudit advise`: every observed CAP_SYS_ADMIN call site,
 * ranked by checks and by distinct workloads, with its class from advise.c
 * (narrower capability already accepted / split candidate / generic
 * administration), the proposal and the evidence.  --json is the data feed
 * for split proposals (schema "capaudit-advise", docs/schema.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "advise.h"
#include "advisesrc.h"
#include "commands.h"
#include "fallback.h"
#include "outfmt.h"
#include "reportopts.h"
#include "rowset.h"
#include "rules.h"

#define CAP_SYS_ADMIN_NR 21
#define SITE_WORKLOADS 16	/* distinct workloads named per site; the count is exact */

struct site {
	const char *call_site;
	__u64 checks, granted, denied;
	const char *workloads[SITE_WORKLOADS];
	int nr_named;
	const struct agg_row **rows;	/* for the exact distinct-workload count */
	size_t nr_rows;
	const char *syscall;
	__u64 example_stack;
	struct advice advice;
};

struct sites {
	struct site *v;
	size_t nr;
};

static struct site *site_get(struct sites *s, const char *call_site)
{
	struct site *grown;
	size_t i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->v[i].call_site, call_site))
			return &s->v[i];
	grown = realloc(s->v, (s->nr + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	s->v = grown;
	memset(&s->v[s->nr], 0, sizeof(s->v[0]));
	s->v[s->nr].call_site = call_site;
	return &s->v[s->nr++];
}

static bool seen_workload(const struct site *st, const char *w)
{
	size_t i;

	for (i = 0; i < st->nr_rows; i++)
		if (!strcmp(st->rows[i]->workload, w))
			return true;
	return false;
}

static int site_add(struct site *st, const struct agg_row *r)
{
	const struct agg_row **grown;

	st->checks += r->count;
	if (r->granted)
		st->granted += r->count;
	else
		st->denied += r->count;
	if (!st->syscall)
		st->syscall = r->syscall;
	if (!st->example_stack)
		st->example_stack = r->stack_hash;
	if (seen_workload(st, r->workload))
		return 0;
	if (st->nr_named < SITE_WORKLOADS)
		st->workloads[st->nr_named++] = r->workload;
	grown = realloc(st->rows, (st->nr_rows + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	st->rows = grown;
	st->rows[st->nr_rows++] = r;
	return 0;
}

static int by_rank(const void *a, const void *b)
{
	const struct site *x = a, *y = b;

	if (x->checks != y->checks)
		return x->checks < y->checks ? 1 : -1;
	if (x->nr_rows != y->nr_rows)
		return x->nr_rows < y->nr_rows ? 1 : -1;
	return strcmp(x->call_site, y->call_site);
}

static void print_text(const struct sites *s)
{
	const struct site *st;
	size_t i;
	int w;

	printf("%10s %9s %-40s %-18s %-18s %s\n", "CHECKS", "WORKLOADS", "CAP_SYS_ADMIN CALL SITE",
	       "CLASS", "PROPOSAL", "SYSCALL");
	for (i = 0; i < s->nr; i++) {
		st = &s->v[i];
		printf("%10llu %9zu ", (unsigned long long)st->checks, st->nr_rows);
		outfmt__text(stdout, st->call_site, 40, "-");
		printf(" %-18s %-18s ", advise__class_name(st->advice.cls), st->advice.cap_name);
		outfmt__text(stdout, st->syscall, 0, "-");
		printf("\n%21s ", "why:");
		outfmt__text(stdout, st->advice.rationale, 0, "-");
		printf("\n%21s", "workloads:");
		for (w = 0; w < st->nr_named; w++) {
			putchar(' ');
			outfmt__text(stdout, st->workloads[w], 0, "-");
		}
		printf("\n");
	}
	if (!s->nr)
		printf("no CAP_SYS_ADMIN check recorded\n");
}

static json_object *site_json(const struct site *st)
{
	json_object *o = json_object_new_object(), *w = json_object_new_array();
	char hash[24];
	int i;

	snprintf(hash, sizeof(hash), "%016llx", (unsigned long long)st->example_stack);
	json_object_object_add(o, "call_site", outfmt__json_string(st->call_site));
	json_object_object_add(o, "checks", json_object_new_uint64(st->checks));
	json_object_object_add(o, "granted", json_object_new_uint64(st->granted));
	json_object_object_add(o, "denied", json_object_new_uint64(st->denied));
	json_object_object_add(o, "distinct_workloads", json_object_new_uint64(st->nr_rows));
	for (i = 0; i < st->nr_named; i++)
		json_object_array_add(w, outfmt__json_string(st->workloads[i]));
	json_object_object_add(o, "workloads", w);
	json_object_object_add(o, "syscall", outfmt__json_string(st->syscall));
	json_object_object_add(o, "example_stack", json_object_new_string(hash));
	json_object_object_add(o, "class",
			       json_object_new_string(advise__class_name(st->advice.cls)));
	json_object_object_add(o, "proposed_cap", json_object_new_string(st->advice.cap_name));
	json_object_object_add(o, "rationale", outfmt__json_string(st->advice.rationale));
	json_object_object_add(o, "reference", st->advice.reference ?
				       json_object_new_string(st->advice.reference) : NULL);
	json_object_object_add(o, "fallbacks_seen", json_object_new_uint64(st->advice.times));
	return o;
}

static void print_json(const struct sites *s)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	size_t i;

	json_object_object_add(o, "schema", json_object_new_string("capaudit-advise"));
	json_object_object_add(o, "version", json_object_new_int(1));
	for (i = 0; i < s->nr; i++)
		json_object_array_add(a, site_json(&s->v[i]));
	json_object_object_add(o, "call_sites", a);
	outfmt__json_print(stdout, o);
	json_object_put(o);
}

static int collect(struct sites *s, const struct rowset *rs, const struct fallback *fb,
		   const struct rules *rules)
{
	struct site *st;
	size_t i;

	for (i = 0; i < rs->nr; i++) {
		if (rs->rows[i].cap != CAP_SYS_ADMIN_NR || !rs->rows[i].call_site)
			continue;
		st = site_get(s, rs->rows[i].call_site);
		if (!st || site_add(st, &rs->rows[i]))
			return -ENOMEM;
	}
	for (i = 0; i < s->nr; i++)
		advise__classify(fb, rules, s->v[i].call_site, &s->v[i].advice);
	if (s->nr)
		qsort(s->v, s->nr, sizeof(*s->v), by_rank);
	return 0;
}

static int run(const struct report_opts *o)
{
	struct sites s = {};
	struct fallback *fb = NULL;
	struct rules *rules = NULL;
	struct store *store;
	struct rowset rs = {};
	size_t i;
	int err;

	err = report_opts__open_store(o, &store);
	if (err)
		return err;
	err = report_opts__load_advice(o, store, &fb, &rules);
	if (!err)
		err = rowset__load(&rs, store, &o->filter);
	if (!err)
		err = collect(&s, &rs, fb, rules);
	if (!err && o->format == FORMAT_JSON)
		print_json(&s);
	else if (!err)
		print_text(&s);
	if (!err)
		err = outfmt__finish("advise");
	for (i = 0; i < s.nr; i++)
		free(s.v[i].rows);
	free(s.v);
	rowset__free(&rs);
	rules__free(rules);
	fallback__free(fb);
	store__close(store);
	return err;
}

int cmd_advise(int argc, char **argv)
{
	const char *tree, *vmlinux;
	struct report_opts o;
	int err;

	if (advise_source__take_args(&argc, argv, &tree, &vmlinux))
		return 2;
	err = report_opts__parse(&o, "advise", 1u << FORMAT_TEXT | 1u << FORMAT_JSON, NULL, argc,
				 argv);
	if (err == 1)
		advise_source__usage();
	if (err)
		return err > 0 ? 0 : 2;
	if (vmlinux && !tree) {
		fprintf(stderr, "capaudit advise: --vmlinux needs --source TREE\n");
		return 2;
	}
	if (tree)
		return advise_source__run(&o, tree, vmlinux) ? 1 : 0;
	return run(&o) ? 1 : 0;
}
