/* SPDX-License-Identifier: GPL-2.0 */
/*
 * srcscan.h: find the capability uses of a kernel source tree (or of one
 * buffer): the call sites, and the calls of the capable() family of helpers.
 */
#ifndef CAPAUDIT_SRCSCAN_H
#define CAPAUDIT_SRCSCAN_H

#include <stddef.h>

#include "capdefs.h"

/* One use of a capability name. */
struct srcscan_site {
	const char *file;	/* relative to the tree */
	const char *function;	/* enclosing function, "#define NAME", or "-" */
	const char *helper;	/* innermost capable()-family call around it, or NULL */
	unsigned int line;
	int cap;		/* capdefs index */
};

/* Calls of one capable()-family helper (definitions and prototypes excluded). */
struct srcscan_helper {
	const char *name;
	unsigned long calls;
};

/* How files are read: benchmarks compare these (docs/benchmarks.md). */
enum srcscan_io {
	SRCSCAN_IO_READ,		/* read() everything into one growing buffer */
	SRCSCAN_IO_AUTO,		/* read() small files, mmap() large ones */
	SRCSCAN_IO_MMAP,		/* mmap() everything */
	SRCSCAN_IO_MMAP_POPULATE,	/* mmap(MAP_POPULATE) everything */
};

struct srcscan_opts {
	int headers;		/* .h files too */
	int article_filter;	/* no drivers/; of arch/ only x86 (i386, x86_64) */
	int threads;		/* 0: one per online CPU */
	/* called every 200 ms with the counts so far, then once with @done set */
	void (*progress)(void *ctx, unsigned long files, unsigned long long bytes, int done);
	void *progress_ctx;
	enum srcscan_io io;
};

/* A growing set of results: the sites and helper calls of some files. */
struct srcscan;

struct srcscan *srcscan__new(const struct capdefs *defs);
void srcscan__free(struct srcscan *s);

/*
 * Scans one file's text (its path as given is recorded in the sites).  The
 * tree scanner calls this for each file; --patch calls it on hunks.
 * @function, when not NULL, names the enclosing function of code that starts
 * outside any function (a diff hunk's context).  Returns 0 or -ENOMEM.
 */
int srcscan__buffer(struct srcscan *s, const char *path, const char *buf, size_t len,
		    const char *function);
/* The same for text that starts at line @first_line of its file (a diff hunk). */
int srcscan__hunk(struct srcscan *s, const char *path, const char *buf, size_t len,
		  const char *function, unsigned int first_line);

/*
 * Scans the tree at @tree.  Returns 0, or a negative errno with a message for
 * the user in @err.
 */
int srcscan__tree(const char *tree, const struct capdefs *defs, const struct srcscan_opts *opts,
		  struct srcscan **ret_scan, char *err, size_t errlen);

/* Sites sorted by file, then line, then capability. */
const struct srcscan_site *srcscan__sites(struct srcscan *s, size_t *ret_n);
const struct srcscan_helper *srcscan__helpers(struct srcscan *s, size_t *ret_n);
unsigned long srcscan__files(const struct srcscan *s);
unsigned long long srcscan__bytes(const struct srcscan *s);
const struct capdefs *srcscan__defs(const struct srcscan *s);

/* Is this identifier a capable()-family helper? */
int srcscan__is_helper(const char *name, size_t len);

#endif
