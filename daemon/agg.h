/* SPDX-License-Identifier: GPL-2.0 */
/*
 * agg.h: the recorder's in-memory counts of capability checks, keyed by
 * (cap, granted, audit, call site, syscall, workload, comm, stack hash), and
 * the frames of the stacks they name, with a bound on both.  store.c flushes
 * the counts accumulated since the last flush (the deltas) and the stacks not
 * flushed yet; what does not fit is counted, never dropped silently.
 */
#ifndef CAPAUDIT_AGG_H
#define CAPAUDIT_AGG_H

#include <linux/types.h>

#include "check.h"

#define AGG_DEFAULT_MAX_KEYS	65536
#define AGG_DEFAULT_MAX_STACKS	16384
#define AGG_MAX_LIMIT		(1u << 24)	/* largest max_keys / max_stacks */

/*
 * The strings of an overflow row: a key that did not fit is counted under
 * its cap, verdict and audit class with these in place of the rest.
 */
#define AGG_OVERFLOW		"[overflow]"
/*
 * The cap of the overflow row of checks whose cap is >= AGG_OVERFLOW_CAPS
 * (impossible on kernels whose capability sets are 64 bits)
 */
#define AGG_OVERFLOW_CAPS	64
#define AGG_OTHER		0xffffffffu

struct agg;

/* 0 in a field: its default */
struct agg_limits {
	__u32 max_keys;		/* distinct keys held between two resets */
	__u32 max_stacks;	/* distinct stacks held */
};

/*
 * One key and its counts.  Strings belong to the agg (or the store) and stay
 * valid during the callback only.  syscall is NULL outside a syscall.
 * first_ns / last_ns are in the clock of the checks' ts_ns: the recorder
 * feeds CLOCK_REALTIME nanoseconds, which store.c keeps as seconds.
 */
struct agg_row {
	__u32 cap, granted, audit;
	__u32 uid;		/* the tasks' real uid (from agg only; 0 from a store) */
	const char *call_site, *syscall, *workload, *comm;
	__u64 stack_hash;
	__u64 count;
	__u64 first_ns, last_ns;
};

/*
 * Checks counted in the overflow rows, and agg__add_stack() calls whose
 * frames could not be kept (the table of stacks was full)
 */
struct agg_overflow {
	__u64 checks;
	__u64 stacks;
};

/*
 * NULL limits: the defaults.  NULL with errno EINVAL (a limit above
 * AGG_MAX_LIMIT) or ENOMEM.
 */
struct agg *agg__new(const struct agg_limits *limits);
void agg__free(struct agg *agg);

/*
 * Count one check.  No allocation when its key is already held.  A new key
 * beyond max_keys, or one that cannot be allocated, is counted in the
 * overflow row of its (cap, granted, audit): the return is then 0, or
 * -ENOMEM when memory ran out (the check is counted all the same).  The
 * strings are copied (interned once each).
 */
int agg__add(struct agg *agg, const struct check *c);
/*
 * The same for n checks of one key at c->ts_ns (counts read from the
 * kernel); n == 0 is a no-op that still creates the key
 */
int agg__add_n(struct agg *agg, const struct check *c, __u64 n);

/*
 * Remember a stack's frames ("func+0xoff", innermost first) under its hash
 * (agg__hash_frames()) until the next flush.  Once per distinct stack is
 * enough; a later call is a look-up.  When max_stacks stacks are held, the
 * frames are not kept and the call is counted in agg_overflow.stacks (the
 * checks keep the hash in their keys; a later call may find room).
 * 0, -EINVAL (hash 0, nr < 1, a NULL frame or a frame with a newline) or
 * -ENOMEM (counted in agg_overflow.stacks too).
 */
int agg__add_stack(struct agg *agg, __u64 stack_hash, const char *const *frames, int nr);
/*
 * The same for frames in one block that free() releases, the pointers
 * first and their text after them (as stacks.c makes them): on 0 agg owns
 * the block (kept, or freed when the stack is held already), so a stack's
 * text is not copied; on an error (-EINVAL, -ENOSPC when max_stacks are
 * held, -ENOMEM; the last two counted in agg_overflow.stacks) it stays the
 * caller's.
 */
int agg__adopt_stack(struct agg *agg, __u64 stack_hash, char **frames, int nr);

/*
 * The hash of a stack's frames: FNV-1a 64 over each frame followed by a
 * newline, so stable across runs and reboots (strings, never addresses).
 * Never 0, which means "no stack"; 0 for nr < 1.
 */
__u64 agg__hash_frames(const char *const *frames, int nr);

/*
 * Call fn for every key counted since the last agg__reset_deltas() (count
 * > 0), overflow rows included (strings AGG_OVERFLOW, stack_hash 0).  A
 * non-zero return of fn stops the walk and is returned; else 0.
 */
int agg__for_each(const struct agg *agg, int (*fn)(const struct agg_row *row, void *ctx),
		  void *ctx);

/* Call fn for every stack whose frames were not flushed yet; as above. */
int agg__for_each_new_stack(const struct agg *agg,
			    int (*fn)(__u64 stack_hash, const char *const *frames, int nr,
				      void *ctx),
			    void *ctx);

/*
 * After a successful flush: every count restarts at 0 and every stack is
 * marked flushed (its frames freed, its hash kept).  Keys and stacks that
 * were not used since the previous reset are forgotten, with the strings
 * only they used, so memory holds what recent intervals used.
 */
void agg__reset_deltas(struct agg *agg);

/* Checks counted in overflow rows since agg__new() */
__u64 agg__overflow(const struct agg *agg);
/*
 * Both overflow counts since agg__new() (total) and since the last reset
 * (delta, what the next flush stores); either pointer may be NULL
 */
void agg__overflow_counts(const struct agg *agg, struct agg_overflow *ret_total,
			  struct agg_overflow *ret_delta);
/* Keys and stacks held now (for tests and the daemon's status) */
__u32 agg__nr_keys(const struct agg *agg);
__u32 agg__nr_stacks(const struct agg *agg);

#endif
