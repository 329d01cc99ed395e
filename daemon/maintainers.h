/* SPDX-License-Identifier: GPL-2.0 */
/*
 * maintainers.h: who to ask about a file of a kernel tree: the MAINTAINERS
 * sections whose F:/N:/K: entries match it and no X: entry excludes, most
 * specific first, as scripts/get_maintainer.pl --no-git orders them.
 */
#ifndef CAPAUDIT_MAINTAINERS_H
#define CAPAUDIT_MAINTAINERS_H

#include <stddef.h>

struct maint_section {
	const char *name;		/* "CAPABILITIES" */
	const char **maintainers;	/* M: "Name <address>" */
	size_t n_maintainers;
	const char **reviewers;		/* R: */
	size_t n_reviewers;
	const char **lists;		/* L: addresses, subscribers-only lists left out */
	size_t n_lists;
	const char *status;		/* S: or NULL */
};

struct maintainers;

/* Reads TREE/MAINTAINERS.  Returns 0, or a negative errno with a message in @err. */
int maintainers__load(const char *tree, struct maintainers **ret_m, char *err, size_t errlen);
void maintainers__free(struct maintainers *m);

/*
 * The sections for @file (relative to the tree), most specific first; K:
 * keywords are matched against the file's text, read from the tree.
 * *ret_sections is malloc()ed: free() it.  Returns 0 or -ENOMEM.
 */
int maintainers__for_file(struct maintainers *m, const char *file,
			  const struct maint_section ***ret_sections, size_t *ret_n);

/* The section called @name ("CAPABILITIES"), or NULL. */
const struct maint_section *maintainers__section(const struct maintainers *m, const char *name);

/* The address in "Name <address>" (or the whole string), in @buf. */
const char *maintainers__address(const char *person, char *buf, size_t size);

#endif
