/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fallback.h: the fallback-pattern detector.  Fed the recorder's checks in
 * arrival order, it learns which call sites already accept a narrower
 * capability than CAP_SYS_ADMIN, from behaviour alone: within one task and
 * one syscall, a denied check of a narrow capability directly followed, from
 * the same call site, by a CAP_SYS_ADMIN check.  That is the shape of
 * perfmon_capable(), bpf_capable(), checkpoint_restore_ns_capable(),
 * check_syslog_permissions() and of the capaudit kernel patches' helper
 * ("narrow || CAP_SYS_ADMIN": CAP_SYS_ADMIN is only asked when the narrow
 * check said no).  A narrow check that is granted ends the evaluation, so a
 * CAP_SYS_ADMIN check after a granted one is a conjunction ("narrow &&
 * CAP_SYS_ADMIN"), not a fallback, and is not learned.
 */
#ifndef CAPAUDIT_FALLBACK_H
#define CAPAUDIT_FALLBACK_H

#include <stdbool.h>
#include <linux/types.h>

#include "check.h"

/* Tasks whose last check is remembered; the least recently seen is evicted */
#define FALLBACK_TASKS_DEFAULT	4096
/*
 * Longest gap between the two checks of one fallback: they are a few
 * instructions apart, so a larger gap is another invocation of the same
 * syscall (or, outside a syscall, another piece of work).
 */
#define FALLBACK_MAX_GAP_NS	1000000000ULL

struct fallback;

/* A detector remembering FALLBACK_TASKS_DEFAULT tasks, or NULL (no memory) */
struct fallback *fallback__new(void);
/* The same remembering nr_tasks (>= 1) tasks; NULL on 0 or no memory */
struct fallback *fallback__new_sized(unsigned int nr_tasks);
void fallback__free(struct fallback *fb);

/*
 * Feeds the next check.  A call site that is NULL, empty or "[unknown]" (any
 * name starting with '[') is never part of a pattern, but a check from it
 * still sits between its neighbours.  0, or -ENOMEM when a newly seen pair
 * could not be stored (the detector stays consistent; the pair is missed).
 */
int fallback__feed(struct fallback *fb, const struct check *c);

/*
 * Adds times observations of the pair (call_site, narrow_cap), as stored by
 * an earlier run, so that a learned site stays learned across restarts.
 * -EINVAL for an unknown call site or narrow_cap == CAP_SYS_ADMIN, -ENOMEM.
 */
int fallback__learn(struct fallback *fb, const char *call_site, unsigned int narrow_cap,
		    __u64 times);

/*
 * Calls fn for every learned (call site, narrow capability) pair, in the
 * order they were first learned, with the number of times the pattern was
 * seen.  Stops at, and returns, the first non-zero value fn returns; else 0.
 */
int fallback__for_each(const struct fallback *fb,
		       int (*fn)(const char *call_site, unsigned int narrow_cap, __u64 times,
				 void *ctx),
		       void *ctx);

/*
 * True when call_site was learned to accept a narrower capability; that
 * capability in *ret_narrow_cap (when not NULL).  A site learned with more
 * than one (a function calling both bpf_capable() and perfmon_capable())
 * gives the one seen most often, the lowest number on a tie.
 */
bool fallback__accepts(const struct fallback *fb, const char *call_site,
		       unsigned int *ret_narrow_cap);

/* Times the pair (call_site, narrow_cap) was seen or learned; 0 if never */
__u64 fallback__times(const struct fallback *fb, const char *call_site, unsigned int narrow_cap);

#endif /* CAPAUDIT_FALLBACK_H */
