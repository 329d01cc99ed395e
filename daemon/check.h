/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check.h: one capability check as the recorder sees it: decoded (events.c),
 * symbolized (stacks.c) and attributed to a workload (workload.c).  This is
 * what agg.c counts and advise.c's fallback detector reads, in order.
 */
#ifndef CAPAUDIT_CHECK_H
#define CAPAUDIT_CHECK_H

#include <linux/types.h>

/* audit classes: why a check counts (or not) as a need */
enum check_audit {
	CHECK_AUDITED = 0,	/* an ordinary, audited check: a need when granted */
	CHECK_NOAUDIT = 1,	/* an opportunistic probe (ns_capable_noaudit, ...) */
	CHECK_INSETID = 2,	/* audited, in a set[ug]id context */
	CHECK_CRED_OTHER = 3,	/* the cred checked is not the task's own */
	CHECK_SETUP_MANAGER = 4, /* made by the service manager setting the unit up */
	CHECK_SETUP_RUNTIME = 5, /* made by the container runtime setting it up */
	CHECK_AUDIT_NR
};

struct check {
	__u64 ts_ns;
	__u32 tid;
	__u32 cap;
	__u32 granted;		/* 1 granted, 0 denied */
	__u32 audit;		/* enum check_audit */
	__u32 uid;		/* the task's real uid */
	__u64 stack_hash;	/* hash of the symbolized frames, 0: no stack */
	const char *call_site;	/* function name, "[unknown]" without a stack */
	const char *syscall;	/* name, NULL outside a syscall */
	const char *workload;	/* unit, container, cgroup path or executable */
	const char *comm;
};

#endif
