/* SPDX-License-Identifier: GPL-2.0 */
/*
 * coverage.h: the join of the static CAP_SYS_ADMIN call sites of a source
 * tree (srcscan) with the call sites the recorder observed, mapped to
 * file:line (dwarfmap): which static sites real workloads reached, with
 * their counts, and which observed sites match no static one.
 */
#ifndef CAPAUDIT_COVERAGE_H
#define CAPAUDIT_COVERAGE_H

#include <stddef.h>
#include <linux/types.h>

#include "dwarfmap.h"

struct coverage;

/* A static call site and what reached it.  Strings belong to the coverage. */
struct coverage_site {
	const char *file; /* relative to the tree */
	unsigned int line;
	const char *function; /* enclosing function as the scan names it */
	const char *helper; /* capable()-family helper, or NULL */
	__u64 checks; /* 0: never observed */
	char **workloads; /* distinct, in order of first sight */
	size_t nr_workloads;
	char **frames; /* the observed frames that matched it */
	size_t nr_frames;
	char **via; /* functions that tail-called its helper for them */
	size_t nr_via;
};

/* An observed call-site frame and where it landed. */
struct coverage_observed {
	const char *frame; /* "func+0xoff" */
	const char *helper; /* the wrapper it called, or NULL */
	const char *via; /* matched through this tail-calling function, or NULL */
	struct dwarfmap_loc loc; /* innermost file:line; file NULL: not mapped */
	int depth; /* levels of the inline chain mapped */
	__u64 checks;
	char **workloads;
	size_t nr_workloads;
	long site; /* index into coverage__sites(), -1: no static match */
};

struct coverage *coverage__new(void);
void coverage__free(struct coverage *c);

/* 0 or -ENOMEM; the strings are copied. */
int coverage__add_static(struct coverage *c, const char *file,
			 unsigned int line, const char *function,
			 const char *helper);

/* Where a recorded stack made its check. */
struct coverage_frame {
	const char *frame; /* the call-site frame "func+0xoff" */
	const struct dwarfmap_result *res; /* its mapping, NULL: not mapped */
	const char *helper;	/* the outermost capability wrapper it called, or NULL */
	/*
	 * a function the call-site frame called that ended in a tail call to
	 * the helper (dwarfmap__call_target()), and where it starts; or NULL
	 */
	const char *tail_callee;
	const struct dwarfmap_result *callee_res;
};

/*
 * Counts checks of workload at f.  Frames are merged by frame and helper.
 * The results are copied but their strings are not: they must outlive the
 * coverage (the dwarfmap's do while it is open).  0 or -ENOMEM.
 */
int coverage__add_observed(struct coverage *c, const struct coverage_frame *f,
			   const char *workload, __u64 checks);

/*
 * Matches each observed frame to one static site: at the innermost level of
 * its inline chain that matches, a site in the same file (the tree-relative
 * path ends the DWARF path) on the same line, else the nearest site of the
 * same function (syscall wrappers __do_sys_NAME etc. are the scan's
 * sys_NAME), a site at or after the line preferred (the CAP_ token of a call
 * split over lines).  A frame that matches none, but called a function
 * that tail-called the helper, matches that function's site of that helper
 * (its first site when none names it).  Sorts the sites by file and line.
 * Call once, after every add.  0 or -ENOMEM.
 */
int coverage__join(struct coverage *c);

const struct coverage_site *coverage__sites(const struct coverage *c,
					    size_t *ret_n);
const struct coverage_observed *coverage__observed(const struct coverage *c,
						   size_t *ret_n);
/* Static sites with checks > 0 */
size_t coverage__nr_covered(const struct coverage *c);

#endif
