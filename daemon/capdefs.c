// SPDX-License-Identifier: GPL-2.0
/*
 * capdefs.c: read the capability names of a kernel tree from its own header:
 * every "#define CAP_<NAME> <number>" (a number, possibly parenthesized),
 * except CAP_LAST_CAP and the masks.  Lookups go through a small hash table,
 * since the scanner asks for every identifier that starts with "CAP_".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array_size.h"
#include "capdefs.h"
#include "ctok.h"

#define CAPDEFS_MAX	1024	/* more names than any kernel will ever have */
#define HASH_SLOTS	2048	/* a power of two, at least twice CAPDEFS_MAX */

struct capdef {
	char *name;
	size_t len;
	long value;
};

struct capdefs {
	struct capdef *defs;
	int n;
	short slots[HASH_SLOTS];	/* index + 1, 0 when free */
	char header[64];
};

static const char *const header_paths[] = {
	"include/uapi/linux/capability.h",	/* since 3.7 */
	"include/linux/capability.h",
};

static void errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static unsigned int hash(const char *s, size_t len)
{
	unsigned int h = 2166136261u;

	while (len--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

int capdefs__lookup(const struct capdefs *defs, const char *s, size_t len)
{
	unsigned int i = hash(s, len) & (HASH_SLOTS - 1);
	int slot;

	while ((slot = defs->slots[i])) {
		const struct capdef *d = &defs->defs[slot - 1];

		if (d->len == len && !memcmp(d->name, s, len))
			return slot - 1;
		i = (i + 1) & (HASH_SLOTS - 1);
	}
	return -1;
}

static int cmp_value(const void *a, const void *b)
{
	const struct capdef *x = a, *y = b;

	return (x->value > y->value) - (x->value < y->value);
}

static void capdefs__index(struct capdefs *defs)
{
	int i;

	qsort(defs->defs, defs->n, sizeof(*defs->defs), cmp_value);
	memset(defs->slots, 0, sizeof(defs->slots));
	for (i = 0; i < defs->n; i++) {
		unsigned int h = hash(defs->defs[i].name, defs->defs[i].len) & (HASH_SLOTS - 1);

		while (defs->slots[h])
			h = (h + 1) & (HASH_SLOTS - 1);
		defs->slots[h] = i + 1;
	}
}

static int is_excluded(const char *name, size_t len)
{
	return (len == 12 && !memcmp(name, "CAP_LAST_CAP", 12)) || memmem(name, len, "MASK", 4);
}

/* Parses the value tokens of one definition: a number, or one in parentheses. */
static int parse_value(const struct ctok_token *v, int nv, long *ret_value)
{
	char buf[32];
	char *end;
	long val;

	if (nv == 3 && v[0].kind == CTOK_PUNCT && v[0].ch == '(' && v[2].kind == CTOK_PUNCT &&
	    v[2].ch == ')')
		v++;
	else if (nv != 1)
		return -ENOENT;		/* not a plain number: not a capability */
	if (v->kind != CTOK_NUMBER)
		return -ENOENT;
	if (v->len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, v->text, v->len);
	buf[v->len] = '\0';
	errno = 0;
	val = strtol(buf, &end, 0);
	while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
		end++;
	if (errno || *end || val < 0 || val >= CAPDEFS_MAX)
		return -EINVAL;
	*ret_value = val;
	return 0;
}

static int capdefs__add(struct capdefs *defs, const struct ctok_token *name, long value,
			const char *path, char *err, size_t errlen)
{
	int i;

	for (i = 0; i < defs->n; i++) {
		struct capdef *d = &defs->defs[i];
		int same_name = d->len == name->len && !memcmp(d->name, name->text, name->len);

		if (same_name && d->value == value)
			return 0;	/* defined again the same way, e.g. in #if branches */
		if (same_name || d->value == value) {
			errf(err, errlen, "%s:%u: %.*s = %ld conflicts with %s = %ld (is this a kernel capability header?)",
			     path, name->line, (int)name->len, name->text, value, d->name, d->value);
			return -EBADMSG;
		}
	}
	if (defs->n == CAPDEFS_MAX) {
		errf(err, errlen, "%s: more than %d capability names", path, CAPDEFS_MAX);
		return -EBADMSG;
	}
	defs->defs[defs->n].name = strndup(name->text, name->len);
	if (!defs->defs[defs->n].name)
		return -ENOMEM;
	defs->defs[defs->n].len = name->len;
	defs->defs[defs->n].value = value;
	defs->n++;
	return 0;
}

/* One "#define CAP_..." line: tokens after the name up to the end of the line. */
static int capdefs__define(struct capdefs *defs, struct ctok *t, const struct ctok_token *name,
			   const char *path, char *err, size_t errlen)
{
	struct ctok_token v[4];
	int nv = 0, ret;
	long value;

	while (ctok__next(t, &v[nv < 3 ? nv : 3]) != CTOK_DIRECTIVE_END) {
		if (v[nv < 3 ? nv : 3].kind == CTOK_EOF)
			break;
		nv++;
	}
	if (nv > 0 && v[0].text == name->text + name->len && v[0].kind == CTOK_PUNCT && v[0].ch == '(')
		return 0;	/* function-like macro: CAP_TO_MASK(x) */
	if (is_excluded(name->text, name->len))
		return 0;
	ret = parse_value(v, nv, &value);
	if (ret == -ENOENT && nv > 0)
		return 0;	/* an expression (CAP_FS_SET, ...): not a name */
	if (ret) {
		errf(err, errlen, "%s:%u: %.*s has no valid numeric value (a malformed capability header?)",
		     path, name->line, (int)name->len, name->text);
		return -EBADMSG;
	}
	return capdefs__add(defs, name, value, path, err, errlen);
}

int capdefs__parse(const char *buf, size_t len, const char *path, struct capdefs **ret_defs,
		   char *err, size_t errlen)
{
	struct ctok_token tok, name;
	struct capdefs *defs;
	struct ctok t;
	int ret = 0;

	defs = calloc(1, sizeof(*defs));
	if (!defs)
		return -ENOMEM;
	defs->defs = calloc(CAPDEFS_MAX, sizeof(*defs->defs));
	if (!defs->defs) {
		ret = -ENOMEM;
		goto out_free_defs;
	}
	ctok__init(&t, buf, len);
	while (ctok__next(&t, &tok) != CTOK_EOF) {
		if (tok.kind != CTOK_DIRECTIVE)
			continue;
		if (ctok__next(&t, &tok) != CTOK_IDENT || tok.len != 6 || memcmp(tok.text, "define", 6))
			continue;
		if (ctok__next(&t, &name) != CTOK_IDENT || name.len < 5 || memcmp(name.text, "CAP_", 4))
			continue;
		ret = capdefs__define(defs, &t, &name, path, err, errlen);
		if (ret)
			goto out_free_defs;
	}
	if (!defs->n) {
		errf(err, errlen, "%s: no capability defined as '#define CAP_<NAME> <number>' (a malformed capability header?)",
		     path);
		ret = -EBADMSG;
		goto out_free_defs;
	}
	capdefs__index(defs);
	*ret_defs = defs;
	return 0;

out_free_defs:
	capdefs__free(defs);
	return ret;
}

int capdefs__load(const char *tree, struct capdefs **ret_defs, char *err, size_t errlen)
{
	char path[4096];
	struct stat st;
	size_t i;
	void *buf;
	int fd, ret;

	if (stat(tree, &st)) {
		ret = -errno;
		errf(err, errlen, "%s: %s (give the path of a kernel source tree)", tree, strerror(-ret));
		return ret;
	}
	if (!S_ISDIR(st.st_mode)) {
		errf(err, errlen, "%s: not a directory (give the path of a kernel source tree)", tree);
		return -ENOTDIR;
	}
	for (i = 0; i < ARRAY_SIZE(header_paths); i++) {
		snprintf(path, sizeof(path), "%s/%s", tree, header_paths[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			break;
	}
	if (fd < 0) {
		errf(err, errlen, "%s: no include/uapi/linux/capability.h nor include/linux/capability.h (is this a kernel source tree?)",
		     tree);
		return -ENOENT;
	}
	if (fstat(fd, &st)) {
		ret = -errno;
		errf(err, errlen, "%s: %s", path, strerror(-ret));
		goto out_close_fd;
	}
	buf = st.st_size ? mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
	if (buf == MAP_FAILED) {
		ret = -errno;
		errf(err, errlen, "%s: %s", path, strerror(-ret));
		goto out_close_fd;
	}
	ret = capdefs__parse(buf ? buf : "", st.st_size, path, ret_defs, err, errlen);
	if (!ret)
		snprintf((*ret_defs)->header, sizeof((*ret_defs)->header), "%s", header_paths[i]);
	if (buf)
		munmap(buf, st.st_size);
out_close_fd:
	close(fd);
	return ret;
}

struct capdefs *capdefs__union(const struct capdefs *a, const struct capdefs *b)
{
	struct capdefs *u = calloc(1, sizeof(*u));
	const struct capdefs *from;
	int i, which;

	if (!u)
		return NULL;
	u->defs = calloc(CAPDEFS_MAX, sizeof(*u->defs));
	if (!u->defs)
		goto out_free_union;
	snprintf(u->header, sizeof(u->header), "%s", a->header);
	for (which = 0; which < 2; which++) {
		from = which ? b : a;
		for (i = 0; from && i < from->n && u->n < CAPDEFS_MAX; i++) {
			const struct capdef *d = &from->defs[i];

			if (which && capdefs__lookup(a, d->name, d->len) >= 0)
				continue;
			u->defs[u->n].name = strdup(d->name);
			if (!u->defs[u->n].name)
				goto out_free_union;
			u->defs[u->n].len = d->len;
			u->defs[u->n].value = d->value;
			u->n++;
		}
	}
	capdefs__index(u);
	return u;

out_free_union:
	capdefs__free(u);
	return NULL;
}

void capdefs__free(struct capdefs *defs)
{
	int i;

	if (!defs)
		return;
	for (i = 0; defs->defs && i < defs->n; i++)
		free(defs->defs[i].name);
	free(defs->defs);
	free(defs);
}

int capdefs__count(const struct capdefs *defs)
{
	return defs->n;
}

const char *capdefs__name(const struct capdefs *defs, int idx)
{
	return defs->defs[idx].name;
}

long capdefs__value(const struct capdefs *defs, int idx)
{
	return defs->defs[idx].value;
}

const char *capdefs__header(const struct capdefs *defs)
{
	return defs->header;
}
