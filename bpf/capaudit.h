/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capaudit.h: the contract between bpf/capaudit.bpf.c and the daemon.
 *
 * Ring-buffer records hold only __u32, __u64 and fixed arrays (no bool, enum
 * or pointer), so that the layout is the same on both sides of the ring
 * buffer; the daemon checks the size with a _Static_assert.
 */
#ifndef CAPAUDIT_H
#define CAPAUDIT_H

#define CAPAUDIT_COMM_LEN	16
#define CAPAUDIT_MAX_STACK	64	/* frames kept per stack in the stack map */
#define CAPAUDIT_STACK_ENTRIES	16384	/* distinct stacks in the stack map */
#define CAPAUDIT_NO_STACK	0xffffffffu	/* stack id when none was taken */
#define CAPAUDIT_NO_SYSCALL	0xffffffffffffffffull	/* kernel thread, no syscall */

/* capaudit_event.opts: cap_capable()'s fourth argument, decoded */
#define CAPAUDIT_OPT_NOAUDIT	(1u << 0)	/* the check is not audited */
#define CAPAUDIT_OPT_INSETID	(1u << 1)	/* set[ug]id context (CAP_OPT_INSETID) */

/* capaudit_event.flags */
#define CAPAUDIT_F_CRED_OTHER	(1u << 0)	/* cred is not the task's real_cred */
#define CAPAUDIT_F_USERNS_INIT	(1u << 1)	/* target user namespace is init_user_ns */
#define CAPAUDIT_F_KPROBE	(1u << 2)	/* came from the kprobe fallback */

/* Indexes of the per-CPU counters map "counters" */
#define CAPAUDIT_CNT_SEEN	0	/* checks that passed the filters */
#define CAPAUDIT_CNT_LOST_RINGBUF 1	/* ring buffer full: event not delivered */
#define CAPAUDIT_CNT_LOST_STACK	2	/* bpf_get_stackid() failed: no stack */
#define CAPAUDIT_CNT_MISMATCH	3	/* kretprobe without kprobe entry (or the reverse) */
#define CAPAUDIT_CNT_NR		4

/* Meaning of cap_capable()'s fourth argument, set by the loader from BTF */
#define CAPAUDIT_ARG4_OPTS	0	/* unsigned int opts: CAP_OPT_* bits (5.1+) */
#define CAPAUDIT_ARG4_AUDIT	1	/* int audit: SECURITY_CAP_AUDIT = 1 (< 5.1) */

struct capaudit_event {
	__u64 ts_ns;		/* bpf_ktime_get_ns() at the check's return */
	__u64 cgroup_id;	/* cgroup v2 id of the task */
	__u64 userns_ino;	/* inode number of the target user namespace */
	__u64 syscall_nr;	/* orig_ax from the task's saved registers */
	__u32 pid;		/* tgid */
	__u32 tid;
	__u32 uid;
	__u32 gid;
	__u32 cap;
	__u32 ret;		/* cap_capable()'s return: 0 granted, else -errno */
	__u32 opts;		/* CAPAUDIT_OPT_* */
	__u32 flags;		/* CAPAUDIT_F_* */
	__u32 kstack_id;	/* id in the "stacks" map or CAPAUDIT_NO_STACK */
	__u32 ustack_id;	/* id in the "stacks" map or CAPAUDIT_NO_STACK */
	char comm[CAPAUDIT_COMM_LEN];
};

#endif /* CAPAUDIT_H */
