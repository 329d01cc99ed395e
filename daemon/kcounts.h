/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kcounts.h: the checks the BPF program counts in the kernel (the counting
 * modes, bpf/capaudit.h).  A KEY record names a key, its index and how its
 * checks are attributed; a LEARN record resolves a fingerprint's call-site
 * slot into the "sites" map; at each flush the keys' totals are read from
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

/* What the fingerprints came to, for the summary and tests */
struct kcounts_stats {
	__u64 keys;		/* keys known from KEY records */
	__u64 learned;		/* fingerprints given a slot */
	__u64 unwound;		/* fingerprints left to unwinding: no slot found */
	__u64 conflicts;	/* a key or sample whose unwound call site was not its slot's */
	__u64 samples;		/* SAMPLE records checked */
};

/* The BPF program's maps, as kcounts reads and writes them (loader.c) */
struct kcounts_maps {
	const volatile __u64 *counts;	/* ncpus rows of CAPAUDIT_COUNT_KEYS counts */
	int ncpus;
	int sites_fd;			/* "sites", or -1 (nothing to write) */
	volatile __u32 *sites_gen;	/* bumped after each write to "sites", or NULL */
};

struct kcounts *kcounts__new(const struct kcounts_maps *maps);
void kcounts__free(struct kcounts *kc);

/*
 * The KEY record e, attributed as c (strings are copied), becomes known:
 * its later checks are counted at kcounts__collect().  A key whose site is
 * not the unwound call site (si) sends its fingerprint to unwinding.
 * 0, -EEXIST (its index is known already; ignored), -ERANGE (an index
 * beyond a row: the record is not trusted) or -ENOMEM.
 */
int kcounts__add_key(struct kcounts *kc, const struct capaudit_event *e, const struct check *c,
		     const struct stack_info *si);

/* A LEARN record: the slot of its call site in window, into "sites". */
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

/*
 * The slot of window (nr slots) that holds site_ip: the outermost, as a
 * stale copy in a wrapper's frame is below it.  -ENOENT when none (or
 * site_ip is 0).
 */
int kcounts__find_slot(const __u64 *window, int nr, __u64 site_ip);

#endif
