// SPDX-License-Identifier: GPL-2.0
/*
 * srcdiff.c: what changes in the capability uses between two scans (two
 * trees), or in a unified diff: each file's old and new sites are paired by
 * (function, capability, helper), so that moved lines are no change; an
 * unpaired new site and an unpaired old one in the same function are one
 * changed use (CAP_SYS_ADMIN -> CAP_NEW), the rest are added or removed.
 * A diff's hunks are scanned as text: their old side (context and '-' lines)
 * and new side (context and '+' lines), each starting in the function the
 * "@@ ... @@ context" line names.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "outfmt.h"
#include "scanreport.h"
#include "srcdiff.h"

struct srcdiff {
	struct srcdiff_change *changes;
	size_t n, cap;
	struct srcdiff_sum *sums;
	size_t n_sums;
	char **strings;		/* owned copies the changes point to */
	size_t n_strings, cap_strings;
};

/* One side of a file: its sites and the names their cap indexes refer to. */
struct side {
	const struct srcscan_site *sites;
	size_t n;
	const struct capdefs *defs;
	const unsigned int *blocks;	/* diffs: the run of changed lines of each site */
};

static const char *const kind_names[] = {
	[SRCDIFF_ADDED] = "added",
	[SRCDIFF_REMOVED] = "removed",
	[SRCDIFF_CHANGED] = "changed",
};

static const char *srcdiff__keep(struct srcdiff *d, const char *s)
{
	char *copy;

	if (!s)
		return NULL;
	if (d->n_strings == d->cap_strings) {
		size_t n = d->cap_strings ? 2 * d->cap_strings : 64;
		char **v = realloc(d->strings, n * sizeof(*v));

		if (!v)
			return NULL;
		d->strings = v;
		d->cap_strings = n;
	}
	copy = strdup(s);
	if (copy)
		d->strings[d->n_strings++] = copy;
	return copy;
}

static int srcdiff__add(struct srcdiff *d, enum srcdiff_kind kind, const struct srcscan_site *o,
			const struct capdefs *od, const struct srcscan_site *n,
			const struct capdefs *nd)
{
	const struct srcscan_site *any = n ? n : o;
	struct srcdiff_change *c;

	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 64;

		c = realloc(d->changes, cap * sizeof(*c));
		if (!c)
			return -ENOMEM;
		d->changes = c;
		d->cap = cap;
	}
	c = &d->changes[d->n];
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->file = srcdiff__keep(d, any->file);
	c->function = srcdiff__keep(d, any->function);
	c->helper = any->helper ? srcdiff__keep(d, any->helper) : NULL;
	if (!c->file || !c->function || (any->helper && !c->helper))
		return -ENOMEM;
	if (o) {
		c->old_cap = capdefs__name(od, o->cap);
		c->old_line = o->line;
	}
	if (n) {
		c->new_cap = capdefs__name(nd, n->cap);
		c->new_line = n->line;
	}
	/* the names live in the scans' capdefs: keep copies */
	c->old_cap = srcdiff__keep(d, c->old_cap);
	c->new_cap = srcdiff__keep(d, c->new_cap);
	if ((o && !c->old_cap) || (n && !c->new_cap))
		return -ENOMEM;
	d->n++;
	return 0;
}

static int same_helper(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Pairs the sites of one file; the unpaired ones become changes. */
static int srcdiff__file(struct srcdiff *d, const struct side *o, const struct side *n)
{
	char *used_o, *used_n;
	size_t i, j;
	int ret = 0;

	used_o = calloc(o->n + 1, 1);
	used_n = calloc(n->n + 1, 1);
	if (!used_o || !used_n) {
		ret = -ENOMEM;
		goto out_free_used;
	}
	/* a diff's '-' and '+' lines in one run replace each other, in order */
	for (j = 0; o->blocks && j < n->n; j++) {
		for (i = 0; i < o->n; i++) {
			if (used_o[i] || o->blocks[i] != n->blocks[j] ||
			    strcmp(o->sites[i].function, n->sites[j].function))
				continue;
			used_o[i] = used_n[j] = 1;
			if (strcmp(capdefs__name(o->defs, o->sites[i].cap),
				   capdefs__name(n->defs, n->sites[j].cap)))
				ret = srcdiff__add(d, SRCDIFF_CHANGED, &o->sites[i], o->defs,
						   &n->sites[j], n->defs);
			break;
		}
	}
	for (j = 0; !ret && j < n->n; j++) {
		const struct srcscan_site *ns = &n->sites[j];

		if (used_n[j])
			continue;
		for (i = 0; i < o->n; i++) {
			const struct srcscan_site *os = &o->sites[i];

			if (used_o[i] || strcmp(os->function, ns->function) ||
			    strcmp(capdefs__name(o->defs, os->cap), capdefs__name(n->defs, ns->cap)) ||
			    !same_helper(os->helper, ns->helper))
				continue;
			used_o[i] = used_n[j] = 1;
			break;
		}
	}
	for (j = 0; !ret && j < n->n; j++) {
		if (used_n[j])
			continue;
		for (i = 0; i < o->n; i++)
			if (!used_o[i] && !strcmp(o->sites[i].function, n->sites[j].function))
				break;
		if (i < o->n) {
			used_o[i] = 1;
			ret = srcdiff__add(d, SRCDIFF_CHANGED, &o->sites[i], o->defs, &n->sites[j], n->defs);
		} else {
			ret = srcdiff__add(d, SRCDIFF_ADDED, NULL, NULL, &n->sites[j], n->defs);
		}
	}
	for (i = 0; !ret && i < o->n; i++)
		if (!used_o[i])
			ret = srcdiff__add(d, SRCDIFF_REMOVED, &o->sites[i], o->defs, NULL, NULL);

out_free_used:
	free(used_o);
	free(used_n);
	return ret;
}

static unsigned int change_line(const struct srcdiff_change *c)
{
	return c->new_line ? c->new_line : c->old_line;
}

static int cmp_change(const void *a, const void *b)
{
	const struct srcdiff_change *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	if (c)
		return c;
	if (change_line(x) != change_line(y))
		return change_line(x) < change_line(y) ? -1 : 1;
	return (int)x->kind - (int)y->kind;
}

static struct srcdiff_sum *sum_for(struct srcdiff *d, const char *cap)
{
	size_t i;

	for (i = 0; i < d->n_sums; i++)
		if (!strcmp(d->sums[i].cap, cap))
			return &d->sums[i];
	return NULL;
}

static long sum_weight(const struct srcdiff_sum *s)
{
	return s->added + s->removed + s->changed_from + s->changed_to;
}

static int cmp_sum(const void *a, const void *b)
{
	const struct srcdiff_sum *x = a, *y = b;

	if (sum_weight(x) != sum_weight(y))
		return sum_weight(x) > sum_weight(y) ? -1 : 1;
	return strcmp(x->cap, y->cap);
}

/* Sorts the changes and sums them per capability. */
static int srcdiff__finish(struct srcdiff *d)
{
	size_t i;
	int side;

	if (d->n)
		qsort(d->changes, d->n, sizeof(*d->changes), cmp_change);
	d->sums = calloc(2 * d->n + 1, sizeof(*d->sums));
	if (!d->sums)
		return -ENOMEM;
	for (i = 0; i < d->n; i++) {
		const struct srcdiff_change *c = &d->changes[i];

		for (side = 0; side < 2; side++) {
			const char *cap = side ? c->new_cap : c->old_cap;
			struct srcdiff_sum *s;

			if (!cap)
				continue;
			s = sum_for(d, cap);
			if (!s) {
				s = &d->sums[d->n_sums++];
				s->cap = cap;
			}
			if (c->kind == SRCDIFF_ADDED)
				s->added++;
			else if (c->kind == SRCDIFF_REMOVED)
				s->removed++;
			else if (side)
				s->changed_to++;
			else
				s->changed_from++;
		}
	}
	if (d->n_sums)
		qsort(d->sums, d->n_sums, sizeof(*d->sums), cmp_sum);
	return 0;
}

int srcdiff__scans(struct srcscan *old_scan, struct srcscan *new_scan, struct srcdiff **ret_diff)
{
	struct side o = { .defs = srcscan__defs(old_scan) }, n = { .defs = srcscan__defs(new_scan) };
	const struct srcscan_site *os, *ns;
	size_t no, nn, i = 0, j = 0;
	struct srcdiff *d;
	int ret = 0;

	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	os = srcscan__sites(old_scan, &no);
	ns = srcscan__sites(new_scan, &nn);
	/* both are sorted by file: walk them as a merge, one file at a time */
	while (!ret && (i < no || j < nn)) {
		int c = i == no ? 1 : j == nn ? -1 : strcmp(os[i].file, ns[j].file);
		const char *file = c <= 0 ? os[i].file : ns[j].file;

		o.sites = &os[i];
		for (o.n = 0; c <= 0 && i < no && !strcmp(os[i].file, file); i++)
			o.n++;
		n.sites = &ns[j];
		for (n.n = 0; c >= 0 && j < nn && !strcmp(ns[j].file, file); j++)
			n.n++;
		ret = srcdiff__file(d, &o, &n);
	}
	if (!ret)
		ret = srcdiff__finish(d);
	if (ret) {
		srcdiff__free(d);
		return ret;
	}
	*ret_diff = d;
	return 0;
}

/* ---- unified diffs ---- */

struct textbuf {
	char *s;
	size_t len, cap;
};

static int textbuf__add(struct textbuf *b, const char *s, size_t len)
{
	if (b->len + len + 1 > b->cap) {
		size_t cap = (b->len + len + 1) * 2;
		char *p = realloc(b->s, cap);

		if (!p)
			return -ENOMEM;
		b->s = p;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, len);
	b->len += len;
	b->s[b->len] = '\0';
	return 0;
}

/* The changed lines of one side of a file, and the run each belongs to. */
struct changed {
	unsigned int *lines;
	unsigned int *blocks;
	size_t n, cap;
};

static int changed__add(struct changed *c, unsigned int line, unsigned int block)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 64;
		unsigned int *l = realloc(c->lines, cap * sizeof(*l));

		if (!l)
			return -ENOMEM;
		c->lines = l;
		l = realloc(c->blocks, cap * sizeof(*l));
		if (!l)
			return -ENOMEM;
		c->blocks = l;
		c->cap = cap;
	}
	c->lines[c->n] = line;
	c->blocks[c->n++] = block;
	return 0;
}

static void changed__free(struct changed *c)
{
	free(c->lines);
	free(c->blocks);
	memset(c, 0, sizeof(*c));
}

struct patch {
	const char *p, *end;	/* the diff's text, and how far it is read */
	struct changed old_changed, new_changed;
	unsigned int block;	/* runs of changed lines, numbered across the diff */
	const struct capdefs *old_defs, *new_defs;
	int headers;
	struct srcdiff *d;
	char path[4096];	/* the file of the current section, '\0' when skipped */
	struct srcscan *old_side, *new_side;
	unsigned int lineno;	/* of the diff, for messages */
};

static const char *next_line(struct patch *pt, size_t *ret_len)
{
	const char *line = pt->p, *nl;

	if (pt->p >= pt->end)
		return NULL;
	nl = memchr(pt->p, '\n', pt->end - pt->p);
	*ret_len = (nl ? nl : pt->end) - line;
	pt->p = nl ? nl + 1 : pt->end;
	pt->lineno++;
	return line;
}

static int is_cap_header(const char *path)
{
	size_t len = strlen(path);

	return (len >= 26 && !strcmp(path + len - 26, "include/linux/capability.h")) ||
	       (len >= 31 && !strcmp(path + len - 31, "include/uapi/linux/capability.h"));
}

/* "--- a/fs/x.c\t2012-..." -> "fs/x.c"; "/dev/null" stays. */
static void diff_path(const char *line, size_t len, char *buf, size_t size)
{
	const char *s = line + 4, *end = line + len, *slash;

	while (end > s && (end[-1] == '\r' || end[-1] == ' '))
		end--;
	if (memchr(s, '\t', end - s))
		end = memchr(s, '\t', end - s);
	if (end - s != 9 || memcmp(s, "/dev/null", 9)) {
		slash = memchr(s, '/', end - s);
		if (slash)
			s = slash + 1;	/* -p1 */
	}
	snprintf(buf, size, "%.*s", (int)(end - s), s);
}

static int wanted(const struct patch *pt, const char *path)
{
	size_t len = strlen(path);

	return len > 2 && path[len - 2] == '.' &&
	       (path[len - 1] == 'c' || (pt->headers && path[len - 1] == 'h'));
}

/* The function a hunk header names: "@@ -1,2 +1,3 @@ static int foo(void)" -> "foo". */
static void hunk_function(const char *line, size_t len, char *buf, size_t size)
{
	const char *end = line + len, *ctx, *paren, *s;

	buf[0] = '\0';
	ctx = memmem(line + 2, len - 2, "@@", 2);
	if (!ctx)
		return;
	ctx += 2;
	paren = memchr(ctx, '(', end - ctx);
	if (!paren)
		return;
	while (paren > ctx && paren[-1] == ' ')
		paren--;
	for (s = paren; s > ctx && (s[-1] == '_' || (unsigned int)((s[-1] | 0x20) - 'a') < 26u ||
				    (unsigned int)(s[-1] - '0') < 10u); s--)
		;
	if (paren > s)
		snprintf(buf, size, "%.*s", (int)(paren - s), s);
}

/* Scans one side of a hunk; a hunk that starts inside a comment is opened with one. */
static int scan_side(struct srcscan *s, const char *path, struct textbuf *b, const char *function,
		     unsigned int first_line)
{
	const char *close, *open;

	if (!b->len)
		return 0;
	close = memmem(b->s, b->len, "*/", 2);
	open = memmem(b->s, b->len, "/*", 2);
	if (close && (!open || close < open)) {
		struct textbuf c = { 0 };
		int ret = textbuf__add(&c, "/*", 2) ?: textbuf__add(&c, b->s, b->len);

		if (!ret)
			ret = srcscan__hunk(s, path, c.s, c.len, function[0] ? function : NULL,
					    first_line);
		free(c.s);
		return ret;
	}
	return srcscan__hunk(s, path, b->s, b->len, function[0] ? function : NULL, first_line);
}

/*
 * "@@ -OLD[,N] +NEW[,N] @@": all of it, up to the closing "@@" (sscanf
 * alone counts a header cut after its last number as good).  A start of 0
 * is a side with no line (a new or a deleted file): its count must be 0.
 */
static int hunk_header(const char *spec, unsigned int *old_start, unsigned int *old_count,
		       unsigned int *new_start, unsigned int *new_count)
{
	unsigned int os, oc = 1, ns, nc = 1;
	int end = 0;	/* set by %n only when the whole form matched */

	if (sscanf(spec, "@@ -%u,%u +%u,%u @@%n", &os, &oc, &ns, &nc, &end) == 4 && end)
		goto check_counts;
	oc = nc = 1;
	if (sscanf(spec, "@@ -%u +%u,%u @@%n", &os, &ns, &nc, &end) == 3 && end)
		goto check_counts;
	oc = nc = 1;
	if (sscanf(spec, "@@ -%u,%u +%u @@%n", &os, &oc, &ns, &end) == 3 && end)
		goto check_counts;
	oc = nc = 1;
	if (sscanf(spec, "@@ -%u +%u @@%n", &os, &ns, &end) == 2 && end)
		goto check_counts;
	return -EBADMSG;
check_counts:
	if ((!os && oc) || (!ns && nc))
		return -EBADMSG;
	*old_start = os;
	*old_count = oc;
	*new_start = ns;
	*new_count = nc;
	return 0;
}

static int patch__hunk(struct patch *pt, const char *line, size_t len)
{
	unsigned int old_start, old_count = 1, new_start, new_count = 1, old_line, new_line;
	int in_run = 0;
	struct textbuf ob = { 0 }, nb = { 0 };
	char function[128], spec[64];
	int ret = 0;

	snprintf(spec, sizeof(spec), "%.*s", (int)(len < 63 ? len : 63), line);
	if (hunk_header(spec, &old_start, &old_count, &new_start, &new_count))
		return -EBADMSG;
	hunk_function(line, len, function, sizeof(function));
	old_line = old_start;
	new_line = new_start;
	pt->block++;
	while (!ret && (old_count || new_count)) {
		const char *l = next_line(pt, &len);

		if (!l) {
			ret = -EBADMSG;
			break;
		}
		if (len && l[0] == '\\')
			continue;	/* "\ No newline at end of file" */
		if (!len || l[0] == ' ') {
			if (!old_count || !new_count) {
				ret = -EBADMSG;
				break;
			}
			old_count--;
			new_count--;
			old_line++;
			new_line++;
			if (in_run)
				pt->block++;
			in_run = 0;
			ret = textbuf__add(&ob, len ? l + 1 : l, len ? len - 1 : 0) ?:
			      textbuf__add(&ob, "\n", 1) ?:
			      textbuf__add(&nb, len ? l + 1 : l, len ? len - 1 : 0) ?:
			      textbuf__add(&nb, "\n", 1);
		} else if (l[0] == '-' && old_count) {
			old_count--;
			in_run = 1;
			ret = changed__add(&pt->old_changed, old_line++, pt->block) ?:
			      textbuf__add(&ob, l + 1, len - 1) ?: textbuf__add(&ob, "\n", 1);
		} else if (l[0] == '+' && new_count) {
			new_count--;
			in_run = 1;
			ret = changed__add(&pt->new_changed, new_line++, pt->block) ?:
			      textbuf__add(&nb, l + 1, len - 1) ?: textbuf__add(&nb, "\n", 1);
		} else {
			ret = -EBADMSG;
		}
	}
	if (!ret && pt->path[0]) {
		ret = scan_side(pt->old_side, pt->path, &ob, function, old_start) ?:
		      scan_side(pt->new_side, pt->path, &nb, function, new_start);
	}
	free(ob.s);
	free(nb.s);
	return ret;
}

/*
 * Keeps the sites of @s on changed lines (context lines change nothing), in
 * @ret_sites, with their runs in @ret_blocks.
 */
static int changed__sites(const struct changed *c, struct srcscan *s,
			  struct srcscan_site **ret_sites, unsigned int **ret_blocks, size_t *ret_n)
{
	const struct srcscan_site *sites;
	size_t i, k = 0, n, kept = 0;

	sites = srcscan__sites(s, &n);
	*ret_sites = malloc((n + 1) * sizeof(**ret_sites));
	*ret_blocks = malloc((n + 1) * sizeof(**ret_blocks));
	if (!*ret_sites || !*ret_blocks)
		return -ENOMEM;
	/* both are in line order */
	for (i = 0; i < n; i++) {
		while (k < c->n && c->lines[k] < sites[i].line)
			k++;
		if (k < c->n && c->lines[k] == sites[i].line) {
			(*ret_sites)[kept] = sites[i];
			(*ret_blocks)[kept++] = c->blocks[k];
		}
	}
	*ret_n = kept;
	return 0;
}

/* The end of one file's section: pair the sites of its changed lines. */
static int patch__flush(struct patch *pt)
{
	struct side o = { .defs = pt->old_defs }, n = { .defs = pt->new_defs };
	struct srcscan_site *os = NULL, *ns = NULL;
	unsigned int *ob = NULL, *nb = NULL;
	int ret = 0;

	if (pt->old_side) {
		ret = changed__sites(&pt->old_changed, pt->old_side, &os, &ob, &o.n) ?:
		      changed__sites(&pt->new_changed, pt->new_side, &ns, &nb, &n.n);
		o.sites = os;
		o.blocks = ob;
		n.sites = ns;
		n.blocks = nb;
		if (!ret)
			ret = srcdiff__file(pt->d, &o, &n);
	}
	free(os);
	free(ob);
	free(ns);
	free(nb);
	changed__free(&pt->old_changed);
	changed__free(&pt->new_changed);
	srcscan__free(pt->old_side);
	srcscan__free(pt->new_side);
	pt->old_side = pt->new_side = NULL;
	return ret;
}

static int patch__file(struct patch *pt, const char *minus, size_t minus_len)
{
	char old_path[4096];
	const char *plus;
	size_t len;
	int ret;

	ret = patch__flush(pt);
	if (ret)
		return ret;
	plus = next_line(pt, &len);
	if (!plus || len < 4 || memcmp(plus, "+++ ", 4))
		return -EBADMSG;
	diff_path(minus, minus_len, old_path, sizeof(old_path));
	diff_path(plus, len, pt->path, sizeof(pt->path));
	if (!strcmp(pt->path, "/dev/null"))
		memcpy(pt->path, old_path, sizeof(old_path));
	if (!wanted(pt, pt->path)) {
		pt->path[0] = '\0';
		return 0;
	}
	pt->old_side = srcscan__new(pt->old_defs);
	pt->new_side = srcscan__new(pt->new_defs);
	return pt->old_side && pt->new_side ? 0 : -ENOMEM;
}

static int patch__read(struct patch *pt)
{
	const char *line;
	size_t len;
	int ret = 0;

	while (!ret && (line = next_line(pt, &len))) {
		if (len >= 4 && !memcmp(line, "--- ", 4))
			ret = patch__file(pt, line, len);
		else if (len >= 3 && !memcmp(line, "@@ ", 3))
			ret = patch__hunk(pt, line, len);
	}
	return ret ?: patch__flush(pt);
}

/* The names the patch's '+' lines add to a capability header. */
static int patch__new_names(const char *text, size_t size, struct capdefs **ret_defs)
{
	struct patch pt = { .p = text, .end = text + size };
	struct textbuf added = { 0 };
	int in_header = 0, ret = 0;
	const char *line;
	char path[4096];
	size_t len;

	*ret_defs = NULL;
	while (!ret && (line = next_line(&pt, &len))) {
		if (len >= 4 && !memcmp(line, "+++ ", 4)) {
			diff_path(line, len, path, sizeof(path));
			in_header = is_cap_header(path);
		} else if (in_header && len && line[0] == '+') {
			ret = textbuf__add(&added, line + 1, len - 1) ?: textbuf__add(&added, "\n", 1);
		}
	}
	if (!ret && added.len && capdefs__parse(added.s, added.len, "patch", ret_defs, NULL, 0))
		*ret_defs = NULL;	/* no new name: not an error */
	free(added.s);
	return ret;
}

int srcdiff__patch(const char *path, const struct capdefs *defs, int headers,
		   struct srcdiff **ret_diff, char *err, size_t errlen)
{
	struct patch pt = { .old_defs = defs, .headers = headers };
	struct capdefs *added = NULL, *union_defs = NULL;
	struct stat st;
	char *text = NULL;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	if (st.st_size) {
		text = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (text == MAP_FAILED) {
			ret = -errno;
			snprintf(err, errlen, "%s: %s", path, strerror(-ret));
			close(fd);
			return ret;
		}
	}
	close(fd);
	pt.d = calloc(1, sizeof(*pt.d));
	ret = pt.d ? patch__new_names(text ? text : "", st.st_size, &added) : -ENOMEM;
	if (!ret && added) {
		union_defs = capdefs__union(defs, added);
		if (!union_defs)
			ret = -ENOMEM;
	}
	pt.new_defs = union_defs ? union_defs : defs;
	pt.p = text ? text : "";	/* an empty diff: no change */
	pt.end = pt.p + st.st_size;
	if (!ret)
		ret = patch__read(&pt);
	if (!ret)
		ret = srcdiff__finish(pt.d);
	if (ret == -EBADMSG)
		snprintf(err, errlen, "%s:%u: not a unified diff (make one with 'diff -up' or 'git diff')",
			 path, pt.lineno);
	else if (ret)
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
	patch__flush(&pt);
	/* the changes keep copies of the names: the defs can go */
	capdefs__free(added);
	capdefs__free(union_defs);
	if (text)
		munmap(text, st.st_size);
	if (ret) {
		srcdiff__free(pt.d);
		return ret;
	}
	*ret_diff = pt.d;
	return 0;
}

void srcdiff__free(struct srcdiff *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->n_strings; i++)
		free(d->strings[i]);
	free(d->strings);
	free(d->changes);
	free(d->sums);
	free(d);
}

const struct srcdiff_change *srcdiff__changes(const struct srcdiff *d, size_t *ret_n)
{
	*ret_n = d->n;
	return d->changes;
}

const struct srcdiff_sum *srcdiff__sums(const struct srcdiff *d, size_t *ret_n)
{
	*ret_n = d->n_sums;
	return d->sums;
}

/* ---- output ---- */

static long sum_net(const struct srcdiff_sum *s)
{
	return (long)(s->added + s->changed_to) - (long)(s->removed + s->changed_from);
}

int srcdiff__text(const struct srcdiff *d, const char *title, FILE *out)
{
	const struct srcdiff_sum *sa;
	size_t i;

	fprintf(out, "capability uses changed by %s: %zu\n", title, d->n);
	for (i = 0; i < d->n; i++) {
		const struct srcdiff_change *c = &d->changes[i];

		fprintf(out, "%-8s %s:%u %s ", kind_names[c->kind], c->file, change_line(c),
			c->function);
		if (c->kind == SRCDIFF_CHANGED)
			fprintf(out, "%s -> %s", c->old_cap, c->new_cap);
		else
			fprintf(out, "%s", c->new_cap ? c->new_cap : c->old_cap);
		fprintf(out, " %s\n", c->helper ? c->helper : "-");
	}
	if (d->n_sums)
		fprintf(out, "\n%-28s %7s %7s %8s %8s %6s\n", "capability", "added", "removed",
			"moved in", "moved out", "net");
	for (i = 0; i < d->n_sums; i++) {
		const struct srcdiff_sum *s = &d->sums[i];

		fprintf(out, "%-28s %7lu %7lu %8lu %9lu %+6ld\n", s->cap, s->added, s->removed,
			s->changed_to, s->changed_from, sum_net(s));
	}
	sa = sum_for((struct srcdiff *)d, "CAP_SYS_ADMIN");
	fprintf(out, "\nthis diff adds %lu new CAP_SYS_ADMIN use%s, removes %lu, and moves %lu to other capabilities\n",
		sa ? sa->added + sa->changed_to : 0, sa && sa->added + sa->changed_to == 1 ? "" : "s",
		sa ? sa->removed : 0, sa ? sa->changed_from : 0);
	return ferror(out) ? -EIO : 0;
}

int srcdiff__json(const struct srcdiff *d, const char *old_name, const char *new_name, FILE *out)
{
	json_object *root = json_object_new_object(), *arr;
	size_t i;

	if (!root)
		return -ENOMEM;
	json_object_object_add(root, "old", json_object_new_string(old_name));
	json_object_object_add(root, "new", new_name ? json_object_new_string(new_name) : NULL);
	arr = json_object_new_array();
	for (i = 0; i < d->n; i++) {
		const struct srcdiff_change *c = &d->changes[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "change", json_object_new_string(kind_names[c->kind]));
		json_object_object_add(o, "file", json_object_new_string(c->file));
		json_object_object_add(o, "old_line", c->old_line ? json_object_new_int64(c->old_line) : NULL);
		json_object_object_add(o, "new_line", c->new_line ? json_object_new_int64(c->new_line) : NULL);
		json_object_object_add(o, "function", json_object_new_string(c->function));
		json_object_object_add(o, "old_capability", c->old_cap ? json_object_new_string(c->old_cap) : NULL);
		json_object_object_add(o, "new_capability", c->new_cap ? json_object_new_string(c->new_cap) : NULL);
		json_object_object_add(o, "helper", c->helper ? json_object_new_string(c->helper) : NULL);
		json_object_array_add(arr, o);
	}
	json_object_object_add(root, "changes", arr);
	arr = json_object_new_array();
	for (i = 0; i < d->n_sums; i++) {
		const struct srcdiff_sum *s = &d->sums[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "capability", json_object_new_string(s->cap));
		json_object_object_add(o, "added", json_object_new_int64(s->added));
		json_object_object_add(o, "removed", json_object_new_int64(s->removed));
		json_object_object_add(o, "moved_in", json_object_new_int64(s->changed_to));
		json_object_object_add(o, "moved_out", json_object_new_int64(s->changed_from));
		json_object_object_add(o, "net", json_object_new_int64(sum_net(s)));
		json_object_array_add(arr, o);
	}
	json_object_object_add(root, "capabilities", arr);
	fprintf(out, "%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
								   JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
	return ferror(out) ? -EIO : 0;
}

int srcdiff__csv(const struct srcdiff *d, FILE *out)
{
	size_t i;

	fprintf(out, "change,file,old_line,new_line,function,old_capability,new_capability,helper\n");
	for (i = 0; i < d->n; i++) {
		const struct srcdiff_change *c = &d->changes[i];

		fprintf(out, "%s,", kind_names[c->kind]);
		outfmt__csv(out, c->file, ',');
		if (c->old_line)
			fprintf(out, "%u", c->old_line);
		fputc(',', out);
		if (c->new_line)
			fprintf(out, "%u", c->new_line);
		fputc(',', out);
		outfmt__csv(out, c->function, ',');
		outfmt__csv(out, c->old_cap ? c->old_cap : "", ',');
		outfmt__csv(out, c->new_cap ? c->new_cap : "", ',');
		outfmt__csv(out, c->helper ? c->helper : "", '\n');
	}
	return ferror(out) ? -EIO : 0;
}
