// SPDX-License-Identifier: GPL-2.0
/*
 * maintainers.c: read a tree's MAINTAINERS and find the sections of a file
 * the way scripts/get_maintainer.pl --no-git does: an F: or X: pattern
 * matches a prefix of the path ('*' any run of bytes, '?' one byte, [...] a
 * class), and a pattern not ending in '/' (nor naming a directory) also
 * needs as many slashes as the path; N: is a regex on the path, K: a regex
 * on the file's text; any matching X: excludes the section.  Sections sort
 * by the depth of the pattern that matched, deepest first.  Addresses go
 * through the tree's .mailmap, and Linus Torvalds (THE REST) is left out, as
 * get_maintainer.pl does unless asked for its "chief penguins".
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "maintainers.h"

enum entry_kind { ENTRY_F, ENTRY_X, ENTRY_N };

struct entry {
	enum entry_kind kind;
	char *glob;		/* F, X */
	int is_dir;		/* ends in '/': a prefix of any depth */
	int slashes;
	int depth;		/* get_maintainer's "pattern depth" */
	regex_t re;		/* N */
};

struct section {
	struct maint_section pub;
	struct entry *entries;
	size_t n_entries;
	int has_exclude;
};

struct keyword {
	regex_t re;
	size_t section;
};

/* A .mailmap line: who @key (an address, or "Name <address>") really is. */
struct mailmap_entry {
	char *key;
	char *name;		/* NULL: keep the name */
	char *address;		/* NULL: keep the address */
};

struct maintainers {
	char *tree;
	struct mailmap_entry *mailmap;
	size_t n_mailmap, cap_mailmap;
	struct section *sections;
	size_t n_sections, cap_sections;
	struct keyword *keywords;
	size_t n_keywords, cap_keywords;
};

static int grow(void **v, size_t *cap, size_t n, size_t size)
{
	void *p;
	size_t c;

	if (n < *cap)
		return 0;
	c = *cap ? 2 * *cap : 16;
	p = realloc(*v, c * size);
	if (!p)
		return -ENOMEM;
	*v = p;
	*cap = c;
	return 0;
}

static int push_string(const char ***v, size_t *n, const char *s, size_t len)
{
	const char **p = realloc(*v, (*n + 1) * sizeof(*p));
	char *copy;

	if (!p)
		return -ENOMEM;
	*v = p;
	copy = strndup(s, len);
	if (!copy)
		return -ENOMEM;
	p[(*n)++] = copy;
	return 0;
}

/* A bracket class at p ('[' ... ']'): does it hold c?  *ret_end is past the ']'. */
static int class_match(const char *p, char c, const char **ret_end)
{
	int neg = 0, hit = 0;

	p++;
	if (*p == '^' || *p == '!') {
		neg = 1;
		p++;
	}
	/* "F: dir/[" at the end of the line: a class with nothing in it */
	if (!*p) {
		*ret_end = p;
		return 0;
	}
	do {
		if (p[1] == '-' && p[2] && p[2] != ']') {
			hit |= c >= p[0] && c <= p[2];
			p += 3;
		} else {
			hit |= c == *p++;
		}
	} while (*p && *p != ']');
	*ret_end = *p ? p + 1 : p;
	return hit != neg;
}

/* Does the glob match a prefix of s (get_maintainer's m@^pattern@)? */
static int prefix_match(const char *p, const char *s)
{
	const char *end;

	for (;;) {
		switch (*p) {
		case '\0':
			return 1;
		case '*':
			while (*p == '*')
				p++;
			if (!*p)
				return 1;
			for (; *s; s++)
				if (prefix_match(p, s))
					return 1;
			return 0;
		case '?':
			if (!*s)
				return 0;
			p++;
			s++;
			break;
		case '[':
			if (!*s || !class_match(p, *s, &end))
				return 0;
			p = end;
			s++;
			break;
		default:
			if (*p != *s)
				return 0;
			p++;
			s++;
		}
	}
}

static int count_slashes(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '/';
	return n;
}

static int entry_matches(const struct entry *e, const char *file, int file_slashes)
{
	if (e->kind == ENTRY_N)
		return !regexec(&e->re, file, 0, NULL, 0);
	if (!prefix_match(e->glob, file))
		return 0;
	return e->is_dir || e->slashes == file_slashes;
}

/*
 * A quantifier on a quantifier ("a+++", "(a*)*{9}") or a count above 255
 * makes glibc's regcomp() copy the expression tree again and again: a
 * MAINTAINERS line of 60 bytes took a gigabyte (found by fuzz_maintainers).
 * MAINTAINERS has neither; such a regex is left out like a Perl-only one.
 */
static bool regex_too_costly(const char *p)
{
	bool after_quantifier = false;
	unsigned long n;
	char *end;

	for (; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			after_quantifier = false;
		} else if (*p == '[') {
			p += p[1] == '^' ? 2 : 1;
			p += *p == ']';
			while (*p && *p != ']')
				p++;
			if (!*p)
				return false;
			after_quantifier = false;
		} else if (strchr("*+?{", *p)) {
			if (after_quantifier)
				return true;
			if (*p == '{') {
				do {
					n = strtoul(p + 1, &end, 10);
					if (n > 255)
						return true;
					p = end;
				} while (*p == ',');
				p -= *p != '}';	/* not a count: regcomp() judges */
			}
			after_quantifier = true;
		} else {
			after_quantifier = *p == ')' && after_quantifier;
		}
	}
	return false;
}

/* Perl's /x and a few Perl-only forms, for POSIX extended regexes. */
static int compile_perl(regex_t *re, const char *value, size_t len)
{
	char buf[1024];
	size_t i, o = 0;
	int flags = REG_EXTENDED | REG_NOSUB;

	for (i = 0; i < len && o + 1 < sizeof(buf); i++) {
		if (value[i] == ' ' || value[i] == '\t')
			continue;
		if (!strncmp(value + i, "(?:", 3)) {
			buf[o++] = '(';
			i += 2;
		} else if (!strncmp(value + i, "(?i:", 4)) {
			buf[o++] = '(';
			flags |= REG_ICASE;
			i += 3;
		} else if (!strncmp(value + i, "(?i)", 4)) {
			flags |= REG_ICASE;
			i += 3;
		} else {
			if (value[i] == '\\' && i + 1 < len && o + 2 < sizeof(buf))
				buf[o++] = value[i++];
			buf[o++] = value[i];
		}
	}
	buf[o] = '\0';
	if (regex_too_costly(buf))
		return -EINVAL;
	return regcomp(re, buf, flags) ? -EINVAL : 0;
}

/* "Name <address>" -> name and address, trimmed, quotes off the name. */
static void parse_email(const char *s, size_t len, char *name, char *addr, size_t size)
{
	const char *lt = memchr(s, '<', len), *gt = lt ? memchr(lt, '>', s + len - lt) : NULL;
	const char *n = s, *ne = lt ? lt : s;

	if (!lt || !gt) {
		snprintf(name, size, "%s", "");
		snprintf(addr, size, "%.*s", (int)len, s);
		return;
	}
	while (n < ne && (*n == ' ' || *n == '\t' || *n == '"'))
		n++;
	while (ne > n && (ne[-1] == ' ' || ne[-1] == '\t' || ne[-1] == '"'))
		ne--;
	snprintf(name, size, "%.*s", (int)(ne - n), n);
	snprintf(addr, size, "%.*s", (int)(gt - lt - 1), lt + 1);
}

static const struct mailmap_entry *mailmap__find(const struct maintainers *m, const char *key)
{
	size_t i;

	for (i = 0; i < m->n_mailmap; i++)
		if (!strcmp(m->mailmap[i].key, key))
			return &m->mailmap[i];
	return NULL;
}

/* get_maintainer.pl's mailmap_email(): by "Name <address>" first, else by address. */
static int mailmap__apply(const struct maintainers *m, const char *value, size_t len, char **ret)
{
	char name[256], addr[256], key[600];
	const struct mailmap_entry *e;

	parse_email(value, len, name, addr, sizeof(name));
	snprintf(key, sizeof(key), "%s <%s>", name, addr);
	e = name[0] ? mailmap__find(m, key) : NULL;
	if (!e)
		e = mailmap__find(m, addr);
	if (e && e->name)
		snprintf(name, sizeof(name), "%s", e->name);
	if (e && e->address)
		snprintf(addr, sizeof(addr), "%s", e->address);
	if (!name[0])
		*ret = strdup(addr);
	else if (asprintf(ret, name[strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ -")] ?
			  "\"%s\" <%s>" : "%s <%s>", name, addr) < 0)
		*ret = NULL;
	return *ret ? 0 : -ENOMEM;
}

static int push_person(struct maintainers *m, const char ***v, size_t *n, const char *value,
		       size_t len)
{
	char *mapped;
	int ret;

	ret = mailmap__apply(m, value, len, &mapped);
	if (ret)
		return ret;
	if (strstr(mapped, "<torvalds@linux-foundation.org>"))
		ret = 0;	/* the chief penguin */
	else
		ret = push_string(v, n, mapped, strlen(mapped));
	free(mapped);
	return ret;
}

/* One .mailmap line, in any of git-shortlog's four forms. */
static int mailmap__line(struct maintainers *m, char *line)
{
	char *lt1, *gt1, *lt2, *gt2, *end;
	struct mailmap_entry e = { 0 };
	char name[256], addr[256];

	end = strchr(line, '#');
	if (end)
		*end = '\0';
	lt1 = strchr(line, '<');
	gt1 = lt1 ? strchr(lt1, '>') : NULL;
	if (!gt1)
		return 0;
	lt2 = strchr(gt1, '<');
	gt2 = lt2 ? strchr(lt2, '>') : NULL;
	parse_email(line, gt1 + 1 - line, name, addr, sizeof(name));
	if (!gt2) {
		/* "name1 <mail1>" */
		e.key = strdup(addr);
		e.name = strdup(name);
	} else {
		char wname[256], waddr[256], key[600];

		parse_email(gt1 + 1, gt2 + 1 - (gt1 + 1), wname, waddr, sizeof(wname));
		if (wname[0])
			snprintf(key, sizeof(key), "%s <%s>", wname, waddr);
		else
			snprintf(key, sizeof(key), "%s", waddr);
		e.key = strdup(key);
		e.name = name[0] ? strdup(name) : NULL;
		e.address = strdup(addr);
	}
	if (!e.key || grow((void **)&m->mailmap, &m->cap_mailmap, m->n_mailmap, sizeof(e))) {
		free(e.key);
		free(e.name);
		free(e.address);
		return -ENOMEM;
	}
	m->mailmap[m->n_mailmap++] = e;
	return 0;
}

/* Reads TREE/.mailmap when there is one. */
static int mailmap__load(struct maintainers *m)
{
	char path[4096], *line = NULL;
	size_t cap = 0;
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/.mailmap", m->tree);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (!ret && getline(&line, &cap, f) >= 0)
		ret = mailmap__line(m, line);
	free(line);
	fclose(f);
	return ret;
}

static int section__add(struct maintainers *m, struct section *s, char type, const char *value,
			size_t len)
{
	struct entry e = { 0 };
	struct stat st;
	char path[8192];

	switch (type) {
	case 'M':
		return push_person(m, &s->pub.maintainers, &s->pub.n_maintainers, value, len);
	case 'R':
		return push_person(m, &s->pub.reviewers, &s->pub.n_reviewers, value, len);
	case 'L': {
		size_t addr = strcspn(value, " \t");

		if (addr > len)
			addr = len;
		if (memmem(value, len, "subscribers-only", 16))
			return 0;
		return push_string(&s->pub.lists, &s->pub.n_lists, value, addr);
	}
	case 'S':
		if (!s->pub.status)
			s->pub.status = strndup(value, len);
		return 0;
	case 'K':
		if (grow((void **)&m->keywords, &m->cap_keywords, m->n_keywords, sizeof(*m->keywords)))
			return -ENOMEM;
		if (compile_perl(&m->keywords[m->n_keywords].re, value, len))
			return 0;	/* a Perl-only regex: left out */
		m->keywords[m->n_keywords++].section = s - m->sections;
		return 0;
	case 'N':
		e.kind = ENTRY_N;
		if (compile_perl(&e.re, value, len))
			return 0;
		break;
	case 'F':
	case 'X':
		e.kind = type == 'F' ? ENTRY_F : ENTRY_X;
		e.glob = strndup(value, len);
		if (!e.glob)
			return -ENOMEM;
		e.is_dir = len && value[len - 1] == '/';
		/* "-d $value" on the pattern made a regex: only plain names can be directories */
		if (!e.is_dir && !strpbrk(e.glob, ".*?") &&
		    snprintf(path, sizeof(path), "%s/%s", m->tree, e.glob) < (int)sizeof(path) &&
		    !stat(path, &st) && S_ISDIR(st.st_mode))
			e.is_dir = 1;
		e.slashes = count_slashes(e.glob);
		e.depth = e.slashes + !e.is_dir;
		if (value[0] == '*')
			e.depth = -1;
		s->has_exclude |= type == 'X';
		break;
	default:
		return 0;
	}
	s->entries = realloc(s->entries, (s->n_entries + 1) * sizeof(*s->entries));
	if (!s->entries)
		return -ENOMEM;
	s->entries[s->n_entries++] = e;
	return 0;
}

static int maintainers__parse(struct maintainers *m, char *text)
{
	const char *name = "";
	struct section *cur = NULL;
	char *line, *next;
	int ret;

	for (line = text; line; line = next) {
		const char *v;
		size_t len;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		len = strlen(line);
		if (len && line[len - 1] == '\r')
			line[--len] = '\0';
		if (line[0] >= 'A' && line[0] <= 'Z' && line[1] == ':') {
			if (!cur) {
				if (grow((void **)&m->sections, &m->cap_sections, m->n_sections,
					 sizeof(*m->sections)))
					return -ENOMEM;
				cur = &m->sections[m->n_sections++];
				memset(cur, 0, sizeof(*cur));
				cur->pub.name = strdup(name);
				if (!cur->pub.name)
					return -ENOMEM;
			}
			for (v = line + 2; *v == ' ' || *v == '\t'; v++)
				;
			ret = section__add(m, cur, line[0], v, line + len - v);
			if (ret)
				return ret;
			continue;
		}
		v = line + strspn(line, " \t");
		if (!*v || *v == '#')
			continue;	/* blank lines and comments do not end a section */
		name = line;
		cur = NULL;
	}
	return 0;
}

int maintainers__load(const char *tree, struct maintainers **ret_m, char *err, size_t errlen)
{
	struct maintainers *m;
	char path[4096];
	struct stat st;
	char *text;
	int fd, ret;

	snprintf(path, sizeof(path), "%s/MAINTAINERS", tree);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s (--maintainers needs the tree's MAINTAINERS file)", path,
			 strerror(-ret));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	text = malloc(st.st_size + 1);
	if (!text || read(fd, text, st.st_size) != st.st_size) {
		ret = text ? -EIO : -ENOMEM;
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		free(text);
		close(fd);
		return ret;
	}
	close(fd);
	text[st.st_size] = '\0';
	m = calloc(1, sizeof(*m));
	if (m)
		m->tree = strdup(tree);
	if (!m || !m->tree) {
		free(m);
		free(text);
		return -ENOMEM;
	}
	ret = mailmap__load(m) ?: maintainers__parse(m, text);
	free(text);
	if (ret) {
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		maintainers__free(m);
		return ret;
	}
	*ret_m = m;
	return 0;
}

static void free_strings(const char **v, size_t n)
{
	while (n--)
		free((char *)v[n]);
	free(v);
}

void maintainers__free(struct maintainers *m)
{
	size_t i, j;

	if (!m)
		return;
	for (i = 0; i < m->n_sections; i++) {
		struct section *s = &m->sections[i];

		for (j = 0; j < s->n_entries; j++) {
			if (s->entries[j].kind == ENTRY_N)
				regfree(&s->entries[j].re);
			free(s->entries[j].glob);
		}
		free(s->entries);
		free((char *)s->pub.name);
		free((char *)s->pub.status);
		free_strings(s->pub.maintainers, s->pub.n_maintainers);
		free_strings(s->pub.reviewers, s->pub.n_reviewers);
		free_strings(s->pub.lists, s->pub.n_lists);
	}
	for (i = 0; i < m->n_keywords; i++)
		regfree(&m->keywords[i].re);
	for (i = 0; i < m->n_mailmap; i++) {
		free(m->mailmap[i].key);
		free(m->mailmap[i].name);
		free(m->mailmap[i].address);
	}
	free(m->mailmap);
	free(m->keywords);
	free(m->sections);
	free(m->tree);
	free(m);
}

/* The depth of the section's last matching F:/N: entry, or -2: no match (or excluded). */
static int section__match(const struct section *s, const char *file, int slashes)
{
	int depth = -2;
	size_t i;

	for (i = 0; s->has_exclude && i < s->n_entries; i++)
		if (s->entries[i].kind == ENTRY_X && entry_matches(&s->entries[i], file, slashes))
			return -2;
	for (i = 0; i < s->n_entries; i++) {
		const struct entry *e = &s->entries[i];

		if (e->kind != ENTRY_X && entry_matches(e, file, slashes))
			depth = e->kind == ENTRY_N ? 0 : e->depth;
	}
	return depth;
}

/* The file's text, NUL-terminated, for K: keywords; NULL when unreadable. */
static char *read_text(const struct maintainers *m, const char *file)
{
	char path[8192];
	struct stat st;
	char *text;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", m->tree, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	text = fstat(fd, &st) || !S_ISREG(st.st_mode) ? NULL : malloc(st.st_size + 1);
	if (text && read(fd, text, st.st_size) != st.st_size) {
		free(text);
		text = NULL;
	}
	if (text)
		text[st.st_size] = '\0';
	close(fd);
	return text;
}

int maintainers__for_file(struct maintainers *m, const char *file,
			  const struct maint_section ***ret_sections, size_t *ret_n)
{
	const struct maint_section **out;
	int *depth, slashes = count_slashes(file);
	size_t i, j, n = 0;
	char *text;

	out = malloc((m->n_sections + 1) * sizeof(*out));
	depth = malloc((m->n_sections + 1) * sizeof(*depth));
	if (!out || !depth) {
		free(out);
		free(depth);
		return -ENOMEM;
	}
	for (i = 0; i < m->n_sections; i++) {
		int d = section__match(&m->sections[i], file, slashes);

		if (d < -1)
			continue;
		/* insertion sort: deepest first, file order among equals */
		for (j = n; j > 0 && depth[j - 1] < d; j--) {
			out[j] = out[j - 1];
			depth[j] = depth[j - 1];
		}
		out[j] = &m->sections[i].pub;
		depth[j] = d;
		n++;
	}
	text = m->n_keywords ? read_text(m, file) : NULL;
	for (i = 0; text && i < m->n_keywords; i++) {
		const struct maint_section *s = &m->sections[m->keywords[i].section].pub;

		for (j = 0; j < n && out[j] != s; j++)
			;
		if (j == n && !regexec(&m->keywords[i].re, text, 0, NULL, 0))
			out[n++] = s;
	}
	free(text);
	free(depth);
	*ret_sections = out;
	*ret_n = n;
	return 0;
}

const struct maint_section *maintainers__section(const struct maintainers *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->n_sections; i++)
		if (!strcmp(m->sections[i].pub.name, name))
			return &m->sections[i].pub;
	return NULL;
}

const char *maintainers__address(const char *person, char *buf, size_t size)
{
	const char *lt = strrchr(person, '<');
	const char *gt = lt ? strchr(lt, '>') : NULL;

	if (gt)
		snprintf(buf, size, "%.*s", (int)(gt - lt - 1), lt + 1);
	else
		snprintf(buf, size, "%s", person);
	return buf;
}
