/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kcounts.h: the checks the BPF program counts in the kernel (the counting
 * modes, bpf/capaudit.h).  A KEY record names a key, its index and how its
 * checks are attributed; a LEARN record's chain of return addresses goes
 * into the "hops" map (sitechain.h); at each flush the keys' totals are read from
 * the mapped "counts" and what they grew by since the last read is added to
 * the agg.
 */
#ifndef CAPAUDIT_KCOUNTS_H
#define CAPAUDIT_KCOUNTS_H

#include <linux/types.h>

#include "capaudit.h"
#include "check.h"

struct agg;
struct loader;
struct stack_info;

struct kcounts;

/* What the LEARN records came to, for the summary and tests */
struct kcounts_stats {
	__u64 keys;		/* keys known from KEY records */
	__u64 learned;		/* LEARN records whose walk now ends at their call site */
	__u64 hops;		/* return addresses written into "hops" */
	__u64 unwound;		/* LEARN records left to unwinding: no walk found */
	__u64 conflicts;	/* a key or sample whose unwound call site was not its site */
	__u64 samples;		/* SAMPLE records checked */
};

/* The BPF program's maps, as kcounts reads and writes them (loader.c) */
struct kcounts_maps {
	const volatile __u64 *counts;	/* ncpus rows of CAPAUDIT_COUNT_KEYS counts */
	int ncpus;
	int hops_fd;			/* "hops", or -1 (nothing to write) */
	volatile __u32 *sites_gen;	/* bumped after each write to "hops", or NULL */
	volatile __u32 *site_start;	/* the walk's first slot, or NULL */
};

struct kcounts *kcounts__new(const struct kcounts_maps *maps);
void kcounts__free(struct kcounts *kc);

/*
 * The KEY record e, attributed as c (strings are copied), becomes known:
 * its later checks are counted at kcounts__collect().  A key whose site is
 * not the unwound call site (si) has that site's checks keyed by stack.
 * 0, -EEXIST (its index is known already; ignored), -ERANGE (an index
 * beyond a row: the record is not trusted) or -ENOMEM.
 */
int kcounts__add_key(struct kcounts *kc, const struct capaudit_event *e, const struct check *c,
		     const struct stack_info *si);

/*
 * A LEARN record: the chain from its window to its unwound call site (si)
 * into "hops", and site_start if not known; the unknown address it was sent
 * for is marked CAPAUDIT_HOP_UNWIND when the walk over its window does not
 * end at the call site then.  0, or -ENOENT when nothing was learned.
 */
int kcounts__learn(struct kcounts *kc, const struct capaudit_event *e, const __u64 *window,
		   const struct stack_info *si);

/* A SAMPLE record: its key's site against its unwound call site. */
void kcounts__check_sample(struct kcounts *kc, const struct capaudit_event *e,
			   const struct stack_info *si);

/*
 * Reads every key's total and adds what it grew by to agg, at ts_ns.  Keys
 * whose KEY record was not handled yet wait for the next call.  Returns the
 * number of checks added (the totals stay in the kernel: nothing is lost).
 */
long long kcounts__collect(struct kcounts *kc, struct agg *agg, __u64 ts_ns);

void kcounts__stats(const struct kcounts *kc, struct kcounts_stats *ret_stats);

#endif
