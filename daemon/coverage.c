// SPDX-License-Identifier: GPL-2.0
/*
 * coverage.c: match the observed call-site frames (mapped to file:line and
 * their inline chain by dwarfmap) to the static CAP_SYS_ADMIN call sites of
 * the scan, and count per static site the checks and workloads that reached
 * it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array_size.h"
#include "coverage.h"

struct observed {
	struct coverage_observed pub;
	struct dwarfmap_result res; /* res.nr 0: not mapped */
	const char *tail_callee;
	struct dwarfmap_result callee_res;
};

struct coverage {
	struct coverage_site *sites;
	size_t nr_sites;
	struct observed *obs;
	size_t nr_obs;
	struct coverage_observed *obs_pub; /* built by coverage__join() */
};

struct coverage *coverage__new(void)
{
	return calloc(1, sizeof(struct coverage));
}

static void free_strv(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void coverage__free(struct coverage *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nr_sites; i++) {
		free((char *)c->sites[i].file);
		free((char *)c->sites[i].function);
		free((char *)c->sites[i].helper);
		free_strv(c->sites[i].workloads, c->sites[i].nr_workloads);
		free_strv(c->sites[i].frames, c->sites[i].nr_frames);
		free_strv(c->sites[i].via, c->sites[i].nr_via);
	}
	for (i = 0; i < c->nr_obs; i++) {
		free((char *)c->obs[i].pub.frame);
		free((char *)c->obs[i].pub.helper);
		free_strv(c->obs[i].pub.workloads, c->obs[i].pub.nr_workloads);
	}
	free(c->sites);
	free(c->obs);
	free(c->obs_pub);
	free(c);
}

/* Appends a copy of s to v unless it holds it: 0 or -ENOMEM */
static int strv_add_once(char ***v, size_t *n, const char *s)
{
	char **grown;
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return 0;
	grown = realloc(*v, (*n + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	*v = grown;
	grown[*n] = strdup(s);
	if (!grown[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

int coverage__add_static(struct coverage *c, const char *file,
			 unsigned int line, const char *function,
			 const char *helper)
{
	struct coverage_site *grown, *s;

	grown = realloc(c->sites, (c->nr_sites + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	c->sites = grown;
	s = &c->sites[c->nr_sites];
	memset(s, 0, sizeof(*s));
	s->line = line;
	s->file = strdup(file);
	s->function = strdup(function ? function : "-");
	s->helper = helper ? strdup(helper) : NULL;
	c->nr_sites++;
	if (!s->file || !s->function || (helper && !s->helper))
		return -ENOMEM;
	return 0;
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static struct observed *observed_get(struct coverage *c,
				     const struct coverage_frame *f)
{
	struct observed *grown, *o;
	size_t i;

	for (i = 0; i < c->nr_obs; i++)
		if (!strcmp(c->obs[i].pub.frame, f->frame) &&
		    same_str(c->obs[i].pub.helper, f->helper))
			return &c->obs[i];
	grown = realloc(c->obs, (c->nr_obs + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	c->obs = grown;
	o = &c->obs[c->nr_obs];
	memset(o, 0, sizeof(*o));
	o->pub.frame = strdup(f->frame);
	o->pub.helper = f->helper ? strdup(f->helper) : NULL;
	if (!o->pub.frame || (f->helper && !o->pub.helper)) {
		free((char *)o->pub.frame);
		free((char *)o->pub.helper);
		return NULL;
	}
	o->pub.site = -1;
	if (f->res && f->res->nr > 0) {
		o->res = *f->res;
		o->pub.loc = f->res->locs[0];
		o->pub.depth = f->res->nr;
	}
	if (f->tail_callee && f->callee_res && f->callee_res->nr > 0) {
		o->tail_callee = f->tail_callee;
		o->callee_res = *f->callee_res;
	}
	c->nr_obs++;
	return o;
}

int coverage__add_observed(struct coverage *c, const struct coverage_frame *f,
			   const char *workload, __u64 checks)
{
	struct observed *o = observed_get(c, f);

	if (!o)
		return -ENOMEM;
	o->pub.checks += checks;
	return strv_add_once(&o->pub.workloads, &o->pub.nr_workloads, workload);
}

/* Does the DWARF path end with the tree-relative path rel, at a '/'? */
static bool same_file(const char *dwarf_path, const char *rel)
{
	size_t p = strlen(dwarf_path), r = strlen(rel);

	if (p == r)
		return !strcmp(dwarf_path, rel);
	return p > r && dwarf_path[p - r - 1] == '/' &&
	       !strcmp(dwarf_path + p - r, rel);
}

/*
 * The scan names SYSCALL_DEFINEn(name) "sys_name"; the DWARF names the
 * functions that macro makes __do_sys_name, __se_sys_name, __x64_sys_name.
 * Into buf.
 */
static const char *scan_function_name(const char *dwarf_name, char *buf,
				      size_t size)
{
	static const char *const prefixes[] = { "__do_", "__se_", "__x64_",
						"__ia32_" };
	const char *name = dwarf_name, *rest;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(prefixes); i++) {
		rest = dwarf_name + strlen(prefixes[i]);
		if (!strncmp(dwarf_name, prefixes[i], strlen(prefixes[i])) &&
		    (!strncmp(rest, "sys_", 4) ||
		     !strncmp(rest, "compat_sys_", 11))) {
			name = rest;
			break;
		}
	}
	/* without a symbol's compiler suffix (.isra.0, .constprop.0) */
	snprintf(buf, size, "%.*s", (int)strcspn(name, "."), name);
	return buf;
}

/*
 * Rank of site s for loc: 0 the same line, then by distance (a site after
 * the line first); -1 when it cannot match
 */
static long match_rank(const struct coverage_site *s,
		       const struct dwarfmap_loc *loc)
{
	char buf[256];

	if (!loc->file || !same_file(loc->file, s->file))
		return -1;
	if (s->line == loc->line)
		return 0;
	if (!loc->function ||
	    strcmp(scan_function_name(loc->function, buf, sizeof(buf)),
		   s->function))
		return -1;
	if (s->line > loc->line)
		return 2 * (long)(s->line - loc->line) - 1;
	return 2 * (long)(loc->line - s->line);
}

static long best_site(const struct coverage *c, const struct dwarfmap_loc *loc)
{
	long best = -1, best_rank = -1, rank;
	size_t i;

	for (i = 0; i < c->nr_sites; i++) {
		rank = match_rank(&c->sites[i], loc);
		if (rank < 0 || (best >= 0 && rank >= best_rank))
			continue;
		best = i;
		best_rank = rank;
	}
	return best;
}

/*
 * The site of helper in the function that tail-called it (its first site
 * when none names the helper)
 */
static long tail_call_site(const struct coverage *c, const struct observed *o)
{
	const struct dwarfmap_loc *start = &o->callee_res.locs[0];
	char buf[256];
	const char *fn;
	long first = -1;
	size_t i;

	if (!o->tail_callee || !start->file)
		return -1;
	fn = scan_function_name(o->tail_callee, buf, sizeof(buf));
	for (i = 0; i < c->nr_sites; i++) {
		if (!same_file(start->file, c->sites[i].file) ||
		    strcmp(c->sites[i].function, fn))
			continue;
		if (o->pub.helper &&
		    same_str(c->sites[i].helper, o->pub.helper))
			return i;
		if (first < 0)
			first = i;
	}
	return first;
}

static int credit(struct coverage_site *s, const struct coverage_observed *o)
{
	size_t i;
	int err;

	s->checks += o->checks;
	for (i = 0; i < o->nr_workloads; i++) {
		err = strv_add_once(&s->workloads, &s->nr_workloads,
				    o->workloads[i]);
		if (err)
			return err;
	}
	if (o->via) {
		err = strv_add_once(&s->via, &s->nr_via, o->via);
		if (err)
			return err;
	}
	return strv_add_once(&s->frames, &s->nr_frames, o->frame);
}

static int by_file_line(const void *a, const void *b)
{
	const struct coverage_site *x = a, *y = b;
	int d = strcmp(x->file, y->file);

	if (d)
		return d;
	return x->line < y->line ? -1 : x->line > y->line;
}

int coverage__join(struct coverage *c)
{
	struct observed *o;
	size_t i;
	int k, err;

	if (c->nr_sites)
		qsort(c->sites, c->nr_sites, sizeof(*c->sites), by_file_line);
	free(c->obs_pub);
	c->obs_pub = calloc(c->nr_obs ? c->nr_obs : 1, sizeof(*c->obs_pub));
	if (!c->obs_pub)
		return -ENOMEM;
	for (i = 0; i < c->nr_obs; i++) {
		o = &c->obs[i];
		o->pub.site = -1;
		for (k = 0; k < o->res.nr && o->pub.site < 0; k++)
			o->pub.site = best_site(c, &o->res.locs[k]);
		if (o->pub.site < 0) {
			o->pub.site = tail_call_site(c, o);
			o->pub.via = o->pub.site >= 0 ? o->tail_callee : NULL;
		}
		if (o->pub.site >= 0) {
			err = credit(&c->sites[o->pub.site], &o->pub);
			if (err)
				return err;
		}
		c->obs_pub[i] = o->pub;
	}
	return 0;
}

const struct coverage_site *coverage__sites(const struct coverage *c,
					    size_t *ret_n)
{
	*ret_n = c->nr_sites;
	return c->sites;
}

const struct coverage_observed *coverage__observed(const struct coverage *c,
						   size_t *ret_n)
{
	*ret_n = c->obs_pub ? c->nr_obs : 0;
	return c->obs_pub;
}

size_t coverage__nr_covered(const struct coverage *c)
{
	size_t i, n = 0;

	for (i = 0; i < c->nr_sites; i++)
		n += c->sites[i].checks > 0;
	return n;
}
