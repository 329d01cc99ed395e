// SPDX-License-Identifier: GPL-2.0
/*
 * ksyms.c: load /proc/kallsyms (or a copy) into an address-sorted table and
 * map stack addresses to symbols.  All names live in one string arena.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksyms.h"

struct ksyms {
	struct ksym *syms;	/* sorted by address, then alias order */
	size_t nr;
	size_t *by_name;	/* indexes into syms, sorted by name */
	char *strs;		/* arena: every name and module, NUL-separated */
	bool hidden;		/* every address was 0 */
};

/* Symbols as parsed, before the arena stops moving */
struct ksyms_builder {
	struct ksym *syms;
	size_t *name_offs;
	size_t *module_offs;	/* SIZE_MAX: no module */
	size_t nr, cap;
	char *strs;
	size_t strs_len, strs_cap;
	size_t last_module_off;
	size_t nonzero;		/* symbols with an address other than 0 */
};

/* One parsed kallsyms line; name and module point into the line. */
struct ksyms_line {
	unsigned long addr;
	char type;
	const char *name;
	size_t name_len;
	const char *module;	/* NULL: none */
	size_t module_len;
};

static const char *skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static unsigned long hex_digit(char c)
{
	return isdigit((unsigned char)c) ? (unsigned long)(c - '0') :
					   (unsigned long)(tolower((unsigned char)c) - 'a' + 10);
}

/* At most 16 hex digits, no prefix or sign */
static const char *parse_hex(const char *p, unsigned long *ret_val)
{
	unsigned long val = 0;
	int digits = 0;

	for (; isxdigit((unsigned char)*p); p++) {
		if (++digits > (int)(2 * sizeof(val)))
			return NULL;
		val = val << 4 | hex_digit(*p);
	}
	if (!digits)
		return NULL;
	*ret_val = val;
	return p;
}

/* "[module]" at p: sets the module, returns the end, NULL if malformed */
static const char *parse_module(const char *p, struct ksyms_line *l)
{
	const char *end;

	if (*p != '[')
		return NULL;
	end = strchr(p, ']');
	if (!end || end == p + 1 || memchr(p + 1, ' ', end - p - 1) ||
	    memchr(p + 1, '\t', end - p - 1))
		return NULL;
	l->module = p + 1;
	l->module_len = end - p - 1;
	return end + 1;
}

/* "addr type name[\t[module]]"; 0 or -EINVAL when malformed */
static int parse_line(const char *line, struct ksyms_line *l)
{
	const char *p;

	memset(l, 0, sizeof(*l));
	p = parse_hex(line, &l->addr);
	if (!p || *p != ' ')
		return -EINVAL;
	p++;
	if (!isgraph((unsigned char)*p) || (p[1] != ' ' && p[1] != '\t'))
		return -EINVAL;
	l->type = *p;
	p = skip_blanks(p + 1);
	l->name = p;
	l->name_len = strcspn(p, " \t\r\n");
	if (!l->name_len)
		return -EINVAL;
	p = skip_blanks(p + l->name_len);
	if (*p == '[') {
		p = parse_module(p, l);
		if (!p)
			return -EINVAL;
		p = skip_blanks(p);
	}
	p += strspn(p, "\r\n");
	return *p ? -EINVAL : 0;
}

/* Room for one more symbol in the three parallel arrays */
static int builder__reserve(struct ksyms_builder *b)
{
	size_t new_cap;
	void *tmp;

	if (b->nr < b->cap)
		return 0;
	new_cap = b->cap ? b->cap * 2 : 1024;
	tmp = reallocarray(b->syms, new_cap, sizeof(*b->syms));
	if (!tmp)
		return -ENOMEM;
	b->syms = tmp;
	tmp = reallocarray(b->name_offs, new_cap, sizeof(*b->name_offs));
	if (!tmp)
		return -ENOMEM;
	b->name_offs = tmp;
	tmp = reallocarray(b->module_offs, new_cap, sizeof(*b->module_offs));
	if (!tmp)
		return -ENOMEM;
	b->module_offs = tmp;
	b->cap = new_cap;
	return 0;
}

/* Appends s[0..len) and a NUL to the arena; returns its offset in ret_off */
static int builder__add_str(struct ksyms_builder *b, const char *s, size_t len, size_t *ret_off)
{
	size_t new_cap = b->strs_cap ? b->strs_cap : 65536;
	char *tmp;

	while (new_cap < b->strs_len + len + 1) {
		if (new_cap > SIZE_MAX / 2)
			return -ENOMEM;
		new_cap *= 2;
	}
	if (new_cap != b->strs_cap) {
		tmp = realloc(b->strs, new_cap);
		if (!tmp)
			return -ENOMEM;
		b->strs = tmp;
		b->strs_cap = new_cap;
	}
	memcpy(b->strs + b->strs_len, s, len);
	b->strs[b->strs_len + len] = '\0';
	*ret_off = b->strs_len;
	b->strs_len += len + 1;
	return 0;
}

/* Module names repeat on consecutive lines: store each run once */
static int builder__add_module(struct ksyms_builder *b, const struct ksyms_line *l,
			       size_t *ret_off)
{
	size_t last = b->last_module_off;

	if (!l->module) {
		*ret_off = SIZE_MAX;
		return 0;
	}
	if (last != SIZE_MAX && !strncmp(b->strs + last, l->module, l->module_len) &&
	    b->strs[last + l->module_len] == '\0') {
		*ret_off = last;
		return 0;
	}
	if (builder__add_str(b, l->module, l->module_len, ret_off))
		return -ENOMEM;
	b->last_module_off = *ret_off;
	return 0;
}

static int builder__add(struct ksyms_builder *b, const struct ksyms_line *l)
{
	int err;

	err = builder__reserve(b);
	if (!err)
		err = builder__add_str(b, l->name, l->name_len, &b->name_offs[b->nr]);
	if (!err)
		err = builder__add_module(b, l, &b->module_offs[b->nr]);
	if (err)
		return err;
	b->syms[b->nr].addr = l->addr;
	b->syms[b->nr].type = l->type;
	if (l->addr)
		b->nonzero++;
	b->nr++;
	return 0;
}

/*
 * Stacks hold code addresses only: data, rodata and bss symbols (nearly half
 * of a kernel's) are not kept.  'W'/'w' can be either; they are kept.
 */
static bool is_text(char type)
{
	return strchr("TtWw", type) != NULL;
}

static int builder__read(struct ksyms_builder *b, FILE *f)
{
	struct ksyms_line l;
	size_t line_cap = 0;
	char *line = NULL;
	int err = 0;

	errno = 0;
	while (getline(&line, &line_cap, f) >= 0) {
		if (parse_line(line, &l) || !is_text(l.type))
			continue;
		err = builder__add(b, &l);
		if (err)
			break;
	}
	if (!err && ferror(f))
		err = errno ? -errno : -EIO;
	free(line);
	return err;
}

/* Alias preference: global text, local text, other global, other local */
static int type_rank(char type)
{
	switch (type) {
	case 'T':
	case 'W':
		return 0;
	case 't':
	case 'w':
		return 1;
	default:
		return isupper((unsigned char)type) ? 2 : 3;
	}
}

static int ksym_cmp_module(const struct ksym *a, const struct ksym *b)
{
	if (!a->module || !b->module)
		return (a->module != NULL) - (b->module != NULL);
	return strcmp(a->module, b->module);
}

/*
 * Among aliases of one type rank, the undecorated name: fewer leading
 * underscores, then shorter (memcpy over __memcpy and __pi_memcpy,
 * __x64_sys_vhangup over __ia32_sys_vhangup), then strcmp.
 */
static int alias_cmp_name(const char *a, const char *b)
{
	size_t ua = strspn(a, "_"), ub = strspn(b, "_");
	size_t la, lb;

	if (ua != ub)
		return ua < ub ? -1 : 1;
	la = strlen(a);
	lb = strlen(b);
	if (la != lb)
		return la < lb ? -1 : 1;
	return strcmp(a, b);
}

static int ksym_cmp_addr(const void *p1, const void *p2)
{
	const struct ksym *a = p1, *b = p2;
	int cmp;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	cmp = type_rank(a->type) - type_rank(b->type);
	if (!cmp)
		cmp = alias_cmp_name(a->name, b->name);
	return cmp ? cmp : ksym_cmp_module(a, b);
}

static int ksym_cmp_name(const void *p1, const void *p2, void *arg)
{
	const struct ksym *syms = arg;
	size_t i1 = *(const size_t *)p1, i2 = *(const size_t *)p2;
	const struct ksym *a = &syms[i1], *b = &syms[i2];
	int cmp;

	cmp = strcmp(a->name, b->name);
	if (!cmp)
		cmp = type_rank(a->type) - type_rank(b->type);
	/* syms is sorted by address: the lower index is the lower address */
	if (!cmp)
		cmp = (i1 > i2) - (i1 < i2);
	return cmp;
}

/* Moves the builder's arrays into ksyms, resolving offsets to pointers */
static int builder__finish(struct ksyms_builder *b, struct ksyms *ksyms)
{
	char *strs;
	size_t i;

	ksyms->by_name = malloc(b->nr * sizeof(*ksyms->by_name));
	if (!ksyms->by_name)
		return -ENOMEM;
	strs = realloc(b->strs, b->strs_len);	/* give back the slack */
	if (strs)
		b->strs = strs;
	for (i = 0; i < b->nr; i++) {
		b->syms[i].name = b->strs + b->name_offs[i];
		b->syms[i].module = b->module_offs[i] == SIZE_MAX ?
				    NULL : b->strs + b->module_offs[i];
	}
	ksyms->syms = b->syms;
	ksyms->nr = b->nr;
	ksyms->strs = b->strs;
	ksyms->hidden = b->nonzero == 0;
	b->syms = NULL;
	b->strs = NULL;

	qsort(ksyms->syms, ksyms->nr, sizeof(*ksyms->syms), ksym_cmp_addr);
	for (i = 0; i < ksyms->nr; i++)
		ksyms->by_name[i] = i;
	qsort_r(ksyms->by_name, ksyms->nr, sizeof(*ksyms->by_name), ksym_cmp_name,
		ksyms->syms);
	return 0;
}

static void builder__free(struct ksyms_builder *b)
{
	free(b->syms);
	free(b->name_offs);
	free(b->module_offs);
	free(b->strs);
}

int ksyms__load(const char *path, struct ksyms **ret_ksyms)
{
	struct ksyms_builder b = { .last_module_off = SIZE_MAX };
	struct ksyms *ksyms;
	FILE *f;
	int err;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	err = builder__read(&b, f);
	if (err)
		goto out_free_builder;
	if (!b.nr) {
		err = -ENODATA;
		goto out_free_builder;
	}
	ksyms = calloc(1, sizeof(*ksyms));
	if (!ksyms) {
		err = -ENOMEM;
		goto out_free_builder;
	}
	err = builder__finish(&b, ksyms);
	if (err) {
		ksyms__free(ksyms);
		goto out_free_builder;
	}
	*ret_ksyms = ksyms;
out_free_builder:
	builder__free(&b);
	fclose(f);
	return err;
}

void ksyms__free(struct ksyms *ksyms)
{
	if (!ksyms)
		return;
	free(ksyms->syms);
	free(ksyms->by_name);
	free(ksyms->strs);
	free(ksyms);
}

size_t ksyms__count(const struct ksyms *ksyms)
{
	return ksyms ? ksyms->nr : 0;
}

bool ksyms__addrs_hidden(const struct ksyms *ksyms)
{
	return !ksyms || ksyms->hidden;
}

/* Index of the first symbol whose address is > addr (nr if none) */
static size_t upper_bound(const struct ksyms *ksyms, unsigned long addr)
{
	size_t lo = 0, hi = ksyms->nr, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (ksyms->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Index of the first symbol whose address is >= addr, searching [0, hi) */
static size_t lower_bound(const struct ksyms *ksyms, unsigned long addr, size_t hi)
{
	size_t lo = 0, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (ksyms->syms[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct ksym *ksyms__map_addr(const struct ksyms *ksyms, unsigned long addr)
{
	unsigned long start;
	size_t i;

	if (!ksyms || ksyms->hidden)
		return NULL;
	i = upper_bound(ksyms, addr);
	if (!i)
		return NULL;
	start = ksyms->syms[i - 1].addr;
	if (i == ksyms->nr && addr - start >= KSYMS_LAST_SYM_MAX_SIZE)
		return NULL;
	return &ksyms->syms[lower_bound(ksyms, start, i - 1)];
}

const struct ksym *ksyms__get_symbol(const struct ksyms *ksyms, const char *name)
{
	size_t lo = 0, hi, mid;
	const struct ksym *sym;

	if (!ksyms || !name)
		return NULL;
	hi = ksyms->nr;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strcmp(ksyms->syms[ksyms->by_name[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == ksyms->nr)
		return NULL;
	sym = &ksyms->syms[ksyms->by_name[lo]];
	return strcmp(sym->name, name) ? NULL : sym;
}

int ksyms__format(const struct ksyms *ksyms, unsigned long addr, char *buf, size_t size)
{
	const struct ksym *sym = ksyms__map_addr(ksyms, addr);

	if (!sym)
		return snprintf(buf, size, "[unknown]");
	return snprintf(buf, size, "%s+0x%lx", sym->name, addr - sym->addr);
}
