/* SPDX-License-Identifier: GPL-2.0 */
/*
 * srcdiff.h: capability uses added, removed and changed between two source
 * trees, or by a unified diff (an -rc patch, our kernel/patches series).
 */
#ifndef CAPAUDIT_SRCDIFF_H
#define CAPAUDIT_SRCDIFF_H

#include <stdio.h>

#include "capdefs.h"
#include "srcscan.h"

enum srcdiff_kind {
	SRCDIFF_ADDED,
	SRCDIFF_REMOVED,
	SRCDIFF_CHANGED,	/* same file and function, another capability */
};

struct srcdiff_change {
	enum srcdiff_kind kind;
	const char *file;
	const char *function;
	const char *helper;	/* the new side's (the old one's when removed), or NULL */
	const char *old_cap;	/* NULL when added */
	const char *new_cap;	/* NULL when removed */
	unsigned int old_line;	/* 0 when added */
	unsigned int new_line;	/* 0 when removed */
};

/* Per capability name: what the changes do to its count. */
struct srcdiff_sum {
	const char *cap;
	unsigned long added, removed;
	unsigned long changed_from;	/* uses of this name changed to another */
	unsigned long changed_to;	/* uses of another name changed to this one */
};

struct srcdiff;

/* The difference between two scans (each with its own tree's names). */
int srcdiff__scans(struct srcscan *old_scan, struct srcscan *new_scan, struct srcdiff **ret_diff);

/*
 * The difference a unified diff makes, each hunk's old and new text scanned
 * with @defs (names a hunk adds to a capability header count on the new
 * side).  @headers: .h files too.  Returns 0, or a negative errno with a
 * message in @err.
 */
int srcdiff__patch(const char *path, const struct capdefs *defs, int headers,
		   struct srcdiff **ret_diff, char *err, size_t errlen);

void srcdiff__free(struct srcdiff *d);

/* Changes sorted by file, line. */
const struct srcdiff_change *srcdiff__changes(const struct srcdiff *d, size_t *ret_n);
/* Sums sorted by the size of the change, largest first. */
const struct srcdiff_sum *srcdiff__sums(const struct srcdiff *d, size_t *ret_n);

int srcdiff__text(const struct srcdiff *d, const char *title, FILE *out);
int srcdiff__json(const struct srcdiff *d, const char *old_name, const char *new_name, FILE *out);
int srcdiff__csv(const struct srcdiff *d, FILE *out);

#endif
