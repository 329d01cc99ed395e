/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rules.h: the split-candidate table (rules/capaudit.rules, format in
 * docs/rules.md): for a CAP_SYS_ADMIN call site, the narrower capability,
 * existing or new, it could move to, why, and where that is argued.
 */
#ifndef CAPAUDIT_RULES_H
#define CAPAUDIT_RULES_H

#include <stddef.h>

/* The rules file shipped in the repo, relative to its root */
#define RULES_DEFAULT_PATH	"rules/capaudit.rules"
/* A rules file is a regular file of at most this many bytes */
#define RULES_MAX_SIZE		(64 << 20)

struct rule {
	const char *pattern;		/* fnmatch(3) glob on a function name */
	int cap;			/* existing capability, -1 for a new one */
	const char *new_cap_name;	/* "CAP_SYS_HOSTNAME" when cap is -1, else NULL */
	const char *rationale;
	const char *reference;		/* URL, commit, man page, ... */
	int line;			/* in the file it was read from */
};

struct rules;

/*
 * Reads a rules file, all or nothing.  0 and the table in *ret_rules, or a
 * negative errno with a message in errbuf (when errlen > 0):
 *   -EINVAL  a malformed line: "capaudit: rules FILE:LINE: what is wrong"
 *   -EISDIR, -ESPIPE, -EFBIG  a directory, not a regular file (a FIFO or a
 *            device: refused before reading), larger than RULES_MAX_SIZE
 *   -ENOENT, -EACCES, ...  the file cannot be read
 *   -ENOMEM
 */
int rules__load(const char *path, struct rules **ret_rules, char *errbuf, size_t errlen);
void rules__free(struct rules *rules);

/*
 * The first rule, in file order, whose pattern matches call_site, either as
 * it is or without its compiler suffix (".isra.0", ".constprop.0", ".cold":
 * everything from the first '.'); NULL when none does, or when call_site is
 * NULL, empty or "[unknown]".
 */
const struct rule *rules__match(const struct rules *rules, const char *call_site);

int rules__count(const struct rules *rules);
/* Rule idx (0 .. rules__count() - 1) in file order, or NULL */
const struct rule *rules__get(const struct rules *rules, int idx);

#endif /* CAPAUDIT_RULES_H */
