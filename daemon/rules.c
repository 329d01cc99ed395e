// SPDX-License-Identifier: GPL-2.0
/*
 * rules.c: reads the split-candidate table, one rule a line (format in
 * docs/rules.md and at the top of rules/capaudit.rules), all or nothing, and
 * matches CAP_SYS_ADMIN call sites against it.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>

#include "capnames.h"
#include "infile.h"
#include "rules.h"

#define RULE_FIELDS	4	/* pattern, capability, rationale, reference */
#define RULE_NAME_MAX	512	/* KSYM_NAME_LEN in 6.1 */
#define RULE_SHAPE	"a rule is: PATTERN CAPABILITY \"RATIONALE\" REFERENCE"

struct rules {
	struct rule *v;
	int nr, alloc;
	int *slots;		/* the patterns' hash table: rule index + 1, 0 free */
	size_t nslots;		/* a power of two, more than twice nr */
};

/* Where the parser is, for its messages */
struct parse {
	const char *path;
	int line;
	char *errbuf;
	size_t errlen;
};

static const char *const field_names[RULE_FIELDS] = {
	"pattern", "capability", "rationale", "reference",
};

/* "capaudit: rules FILE:LINE: <message>"; always -EINVAL */
static int line_error(const struct parse *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!p->errbuf || !p->errlen)
		return -EINVAL;
	n = snprintf(p->errbuf, p->errlen, "capaudit: rules %s:%d: ", p->path, p->line);
	if (n >= 0 && (size_t)n < p->errlen) {
		va_start(ap, fmt);
		vsnprintf(p->errbuf + n, p->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * A double-quoted field at *s, unescaped in place (\" and \\ only); *s moves
 * past it.  The closing quote must end the line or be followed by a blank.
 */
static int take_quoted(const struct parse *p, char **s, char **ret_field)
{
	char *src = *s + 1, *dst = src;

	*ret_field = dst;
	for (;;) {
		if (!*src)
			return line_error(p, "unterminated quoted text: add the closing '\"'");
		if (*src == '"')
			break;
		if (*src == '\\') {
			if (!src[1])
				return line_error(p, "unterminated quoted text: add the closing '\"'");
			if (src[1] != '"' && src[1] != '\\')
				return line_error(p, "unknown escape '\\%c' in quoted text (only \\\" and \\\\ are escapes)",
						  src[1]);
			src++;
		}
		*dst++ = *src++;
	}
	src++;
	if (*src && !is_blank(*src))
		return line_error(p, "text right after a closing quote: put a blank between fields");
	*dst = '\0';
	*s = src;
	return 0;
}

/* A field of non-blank characters at *s, with no quote in it */
static int take_bare(const struct parse *p, char **s, char **ret_field)
{
	size_t len = strcspn(*s, " \t");

	if (memchr(*s, '"', len))
		return line_error(p, "stray '\"' in '%.*s': quote the whole field", (int)len, *s);
	*ret_field = *s;
	*s += len;
	if (**s)
		*(*s)++ = '\0';
	return 0;
}

/*
 * Splits a line into its fields, in place.  Fields are separated by blanks; a
 * '#' where a field would start comments out the rest of the line.  0 fields
 * is a blank or comment line.
 */
static int split_fields(const struct parse *p, char *s, char *fields[RULE_FIELDS],
			int *ret_nr)
{
	int nr = 0, err;

	for (;;) {
		s += strspn(s, " \t");
		if (!*s || *s == '#')
			break;
		if (nr == RULE_FIELDS)
			return line_error(p, "unexpected text '%.40s' after the reference (quote a reference that has blanks)",
					  s);
		err = *s == '"' ? take_quoted(p, &s, &fields[nr]) : take_bare(p, &s, &fields[nr]);
		if (err)
			return err;
		nr++;
	}
	*ret_nr = nr;
	return 0;
}

static bool is_pattern_char(char c)
{
	return isalnum((unsigned char)c) || strchr("_.$*?[]!^-", c);
}

static int check_pattern(const struct parse *p, const char *pat)
{
	const char *c, *close;
	bool literal = false;

	if (!*pat)
		return line_error(p, "empty pattern: name a function, e.g. keyctl_chown_key or *sys_sethostname");
	for (c = pat; *c; c++) {
		if (!is_pattern_char(*c))
			return line_error(p, "invalid character '%c' in pattern '%s' (a glob on a kernel function name)",
					  *c, pat);
		if (isalnum((unsigned char)*c) || *c == '_')
			literal = true;
		if (*c == '[') {
			close = strchr(c + 1, ']');
			if (!close)
				return line_error(p, "unterminated '[' in pattern '%s'", pat);
			c = close;
		}
	}
	if (!literal)
		return line_error(p, "pattern '%s' would match every call site: name a function", pat);
	return 0;
}

/* "CAP_" then an upper-case letter, then upper-case letters, digits or '_' */
static bool is_cap_name(const char *s)
{
	if (strncmp(s, "CAP_", 4) || !isupper((unsigned char)s[4]))
		return false;
	for (s += 4; *s; s++)
		if (!isupper((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

/* CAP_NAME (known to libcap) or new:CAP_NAME (not known) into r */
static int parse_cap(const struct parse *p, const char *text, struct rule *r)
{
	bool is_new = !strncmp(text, "new:", 4);
	const char *name = is_new ? text + 4 : text;
	unsigned int cap;

	if (!*text)
		return line_error(p, "empty capability: write CAP_NAME or new:CAP_NAME");
	if (!is_cap_name(name))
		return line_error(p, "capability '%s' is not written CAP_NAME or new:CAP_NAME (upper case)",
				  text);
	if (capnames__parse(name, &cap)) {
		if (!is_new)
			return line_error(p, "unknown capability '%s' (write new:%s to propose a new one)",
					  text, text);
		r->cap = -1;
		r->new_cap_name = strdup(name);
		return r->new_cap_name ? 0 : -ENOMEM;
	}
	if (is_new)
		return line_error(p, "'%s' names an existing capability: write %s", text, name);
	if (cap == CAP_SYS_ADMIN)
		return line_error(p, "proposed capability is CAP_SYS_ADMIN itself: propose a narrower one");
	r->cap = (int)cap;
	return 0;
}

/* Non-empty once leading and trailing blanks are ignored */
static bool has_text(const char *s)
{
	return s[strspn(s, " \t")] != '\0';
}

static void rule_free(struct rule *r)
{
	free((char *)r->pattern);
	free((char *)r->new_cap_name);
	free((char *)r->rationale);
	free((char *)r->reference);
}

static int fill_rule(const struct parse *p, char *fields[RULE_FIELDS], struct rule *r)
{
	int err;

	memset(r, 0, sizeof(*r));
	r->line = p->line;
	err = check_pattern(p, fields[0]);
	if (!err)
		err = parse_cap(p, fields[1], r);
	if (!err && !has_text(fields[2]))
		err = line_error(p, "empty rationale: say why the capability fits, from capabilities(7)");
	if (!err && !has_text(fields[3]))
		err = line_error(p, "empty reference: give a URL, commit or man page");
	if (err)
		return err;
	r->pattern = strdup(fields[0]);
	r->rationale = strdup(fields[2]);
	r->reference = strdup(fields[3]);
	if (!r->pattern || !r->rationale || !r->reference)
		return -ENOMEM;
	return 0;
}

static int rules_append(struct rules *rules, const struct rule *r)
{
	struct rule *v;
	int alloc;

	if (rules->nr == rules->alloc) {
		alloc = rules->alloc ? 2 * rules->alloc : 32;
		v = realloc(rules->v, (size_t)alloc * sizeof(*v));
		if (!v)
			return -ENOMEM;
		rules->v = v;
		rules->alloc = alloc;
	}
	rules->v[rules->nr++] = *r;
	return 0;
}

/* FNV-1a */
static size_t hash_pattern(const char *s)
{
	size_t h = 14695981039346656037ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

/* The index of the rule of this pattern, or -1: duplicates found in linear time */
static int find_pattern(const struct rules *rules, const char *pat)
{
	size_t mask = rules->nslots - 1, i;

	if (!rules->nslots)
		return -1;
	for (i = hash_pattern(pat) & mask; rules->slots[i]; i = (i + 1) & mask)
		if (!strcmp(rules->v[rules->slots[i] - 1].pattern, pat))
			return rules->slots[i] - 1;
	return -1;
}

static void slot_add(int *slots, size_t nslots, const char *pat, int idx)
{
	size_t i;

	for (i = hash_pattern(pat) & (nslots - 1); slots[i]; i = (i + 1) & (nslots - 1))
		;
	slots[i] = idx + 1;
}

/* Rule idx into the hash table, grown (and every rule put again) when half full */
static int index_pattern(struct rules *rules, int idx)
{
	size_t nslots = rules->nslots ? rules->nslots : 64;
	int *slots, i;

	if ((size_t)rules->nr * 2 < rules->nslots) {
		slot_add(rules->slots, rules->nslots, rules->v[idx].pattern, idx);
		return 0;
	}
	while ((size_t)rules->nr * 2 >= nslots)
		nslots *= 2;
	slots = calloc(nslots, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (i = 0; i < rules->nr; i++)
		slot_add(slots, nslots, rules->v[i].pattern, i);
	free(rules->slots);
	rules->slots = slots;
	rules->nslots = nslots;
	return 0;
}

/* One line, without its newline: a rule appended to rules, or nothing */
static int parse_line(const struct parse *p, char *line, struct rules *rules)
{
	char *fields[RULE_FIELDS];
	struct rule r;
	int nr = 0, i, err;

	err = split_fields(p, line, fields, &nr);
	if (err || !nr)
		return err;
	if (nr < RULE_FIELDS)
		return line_error(p, "missing %s (" RULE_SHAPE ")", field_names[nr]);
	i = find_pattern(rules, fields[0]);
	if (i >= 0)
		return line_error(p, "duplicate pattern '%s' (first at line %d): it would never match",
				  fields[0], rules->v[i].line);
	err = fill_rule(p, fields, &r);
	if (!err)
		err = rules_append(rules, &r);
	if (err) {
		rule_free(&r);
		return err;
	}
	return index_pattern(rules, rules->nr - 1);
}

static int parse_stream(const struct parse *p0, FILE *f, struct rules *rules)
{
	struct parse p = *p0;
	size_t size = 0, total = 0;
	char *line = NULL;
	ssize_t len;
	int err = 0;

	while ((len = getline(&line, &size, f)) >= 0) {
		p.line++;
		total += (size_t)len;
		if (total > RULES_MAX_SIZE) {
			err = line_error(&p, "the file passes %d bytes, the limit of a rules file",
					 RULES_MAX_SIZE);
			break;
		}
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (len && line[len - 1] == '\r')
			line[--len] = '\0';
		if (strlen(line) != (size_t)len)
			err = line_error(&p, "NUL byte in the line: the rules file is text");
		else
			err = parse_line(&p, line, rules);
		if (err)
			break;
	}
	if (!err && ferror(f)) {
		err = -EIO;
		snprintf(p.errbuf, p.errlen, "capaudit: rules %s: read error after line %d",
			 p.path, p.line);
	}
	free(line);
	return err;
}

int rules__load(const char *path, struct rules **ret_rules, char *errbuf, size_t errlen)
{
	struct parse p = { .path = path, .errbuf = errbuf, .errlen = errlen };
	struct rules *rules;
	int fd, err;
	FILE *f;

	if (errbuf && errlen) {
		errbuf[0] = '\0';
	} else {
		p.errbuf = NULL;
		p.errlen = 0;
	}
	err = infile__open(path, RULES_MAX_SIZE, &fd);
	f = err ? NULL : fdopen(fd, "r");
	if (!f) {
		if (!err) {
			err = -errno;
			close(fd);
		}
		if (p.errbuf && err == -EFBIG)
			snprintf(errbuf, errlen, "capaudit: rules %s: larger than %d bytes, the limit of a rules file",
				 path, RULES_MAX_SIZE);
		else if (p.errbuf)
			snprintf(errbuf, errlen, "capaudit: rules %s: %s (give the rules file with --rules)",
				 path, infile__strerror(err));
		return err;
	}
	rules = calloc(1, sizeof(*rules));
	if (!rules) {
		err = -ENOMEM;
		goto out_close;
	}
	err = parse_stream(&p, f, rules);
	if (err == -ENOMEM && p.errbuf)
		snprintf(errbuf, errlen, "capaudit: rules %s: out of memory", path);
	if (err) {
		rules__free(rules);
		goto out_close;
	}
	*ret_rules = rules;
out_close:
	fclose(f);
	return err;
}

void rules__free(struct rules *rules)
{
	int i;

	if (!rules)
		return;
	for (i = 0; i < rules->nr; i++)
		rule_free(&rules->v[i]);
	free(rules->v);
	free(rules->slots);
	free(rules);
}

const struct rule *rules__match(const struct rules *rules, const char *call_site)
{
	char base[RULE_NAME_MAX];
	const char *dot;
	bool has_base = false;
	int i;

	if (!rules || !call_site || !call_site[0] || call_site[0] == '[')
		return NULL;
	dot = strchr(call_site, '.');
	if (dot && dot > call_site && (size_t)(dot - call_site) < sizeof(base)) {
		memcpy(base, call_site, (size_t)(dot - call_site));
		base[dot - call_site] = '\0';
		has_base = true;
	}
	for (i = 0; i < rules->nr; i++) {
		if (!fnmatch(rules->v[i].pattern, call_site, 0))
			return &rules->v[i];
		if (has_base && !fnmatch(rules->v[i].pattern, base, 0))
			return &rules->v[i];
	}
	return NULL;
}

int rules__count(const struct rules *rules)
{
	return rules ? rules->nr : 0;
}

const struct rule *rules__get(const struct rules *rules, int idx)
{
	if (!rules || idx < 0 || idx >= rules->nr)
		return NULL;
	return &rules->v[idx];
}
