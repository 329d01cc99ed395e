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
#define CAPAUDIT_MAX_STACK	64	/* frames kept per stack */
#define CAPAUDIT_STACK_ENTRIES	16384	/* distinct user stacks in the stack map */
#define CAPAUDIT_NO_STACK	0xffffffffu	/* user stack id when none was taken */
#define CAPAUDIT_NO_SYSCALL	0xffffffffffffffffull	/* kernel thread, no syscall */

/* capaudit_event.opts: cap_capable()'s fourth argument, decoded */
#define CAPAUDIT_OPT_NOAUDIT	(1u << 0)	/* the check is not audited */
#define CAPAUDIT_OPT_INSETID	(1u << 1)	/* set[ug]id context (CAP_OPT_INSETID) */

/* capaudit_event.flags */
#define CAPAUDIT_F_CRED_OTHER	(1u << 0)	/* cred is not the task's real_cred */
#define CAPAUDIT_F_USERNS_INIT	(1u << 1)	/* target user namespace is init_user_ns */
#define CAPAUDIT_F_KPROBE	(1u << 2)	/* came from the kprobe fallback */

/* Mode of the program (targ_mode), chosen by the loader */
#define CAPAUDIT_MODE_EACH	0	/* one ring record per check (trace, kprobe) */
#define CAPAUDIT_MODE_COUNT	1	/* count in the kernel by call site (record) */
#define CAPAUDIT_MODE_COUNT_STACK 2	/* count in the kernel by full stack (record
					 * --unwind-every-check)
					 */

/*
 * A kernel stack travels in the record that needs it, never as an
 * id in a stack map: a stack map's bucket taken by another stack makes
 * bpf_get_stackid() fail, and with 10^4 distinct stacks in 16384 buckets a
 * quarter of them would be lost.  Where a stack is part of a key it is
 * there as a hash of its frames (kstack_hash), and the key's first record
 * carries the frames.
 *
 * In the counting modes a check is counted under a struct capaudit_key: the
 * hash "keys" gives each key an index, and "counts" (an mmapable array, one
 * row of CAPAUDIT_COUNT_KEYS per possible CPU) holds the key's count on
 * each CPU at [cpu * CAPAUDIT_COUNT_KEYS + index].  Only the first check of
 * a key comes over the ring buffer (CAPAUDIT_REC_KEY, carrying the stack and
 * the index).  The daemon reads the rows at each flush; a key is never
 * deleted and an index never reused (a delete would race the increments),
 * so a key's delta is its total minus the total read before.
 *
 * In CAPAUDIT_MODE_COUNT the call site comes without unwinding: the stack
 * of a given call path has the same depth every time, so a fingerprint
 * (depth of the BPF frame in the task's stack, cap, syscall) names the slot
 * that holds the call site's return address.  The first check of a
 * fingerprint comes as CAPAUDIT_REC_LEARN with a window of raw stack slots;
 * the daemon finds the call site in its unwound stack (callsite.c) and that
 * address in the window, and writes the slot into "sites".  Each key is
 * checked again every targ_sample_every checks (CAPAUDIT_REC_SAMPLE); a key
 * whose unwound call site is not its slot's makes the daemon mark the
 * fingerprint CAPAUDIT_SITE_UNWIND, whose checks are then keyed by stack.
 *
 * Each CPU keeps its last key with its index, and its last fingerprint with
 * a READY slot (struct capaudit_cpu), so that a check like the one before
 * it costs no hash look-up.  A key's index never changes; a fingerprint's
 * slot can (READY to UNWIND), so the daemon bumps sites_gen after every
 * write to "sites" and a cached slot read under an older sites_gen is not
 * used.
 */
#define CAPAUDIT_REC_CHECK	0	/* one check, counted by the record */
#define CAPAUDIT_REC_KEY	1	/* first check of a new key, counted by the record */
#define CAPAUDIT_REC_LEARN	2	/* first check of a new fingerprint, counted by the
					 * record; capaudit_learn with the stack window
					 */
#define CAPAUDIT_REC_SAMPLE	3	/* a check already counted in "counts": only its
					 * stack, to check the key's call site
					 */

#define CAPAUDIT_WINDOW_SLOTS	128	/* raw stack slots in a LEARN record */
#define CAPAUDIT_COUNT_KEYS	16384	/* keys in "keys", indexes in a row of "counts" */
#define CAPAUDIT_SITE_ENTRIES	4096	/* fingerprints in "sites" */
#define CAPAUDIT_SAMPLE_EVERY	1024	/* default targ_sample_every (a power of two) */

/* capaudit_site.state */
#define CAPAUDIT_SITE_PENDING	0	/* LEARN sent, the daemon has not answered */
#define CAPAUDIT_SITE_READY	1	/* slot holds the call site */
#define CAPAUDIT_SITE_UNWIND	2	/* no usable slot: key these checks by stack */

struct capaudit_fp {
	__u32 depth;		/* BPF frame's offset in the task's stack */
	__u32 cap;
	__u64 syscall_nr;
};

struct capaudit_site {
	__u32 state;		/* CAPAUDIT_SITE_* */
	__u32 slot;		/* index of the call site's slot from the BPF frame */
};

struct capaudit_key {
	__u64 cgroup_id;
	__u64 syscall_nr;
	__u64 site;		/* call site's return address (COUNT), or 0 */
	__u64 kstack_hash;	/* hash of the stack's frames (COUNT_STACK, SITE_UNWIND), or 0 */
	__u32 pid;		/* tgid */
	__u32 cap;
	__u32 ret;
	__u32 opts;
	__u32 flags;		/* CAPAUDIT_F_* */
	__u32 depth;		/* the fingerprint's depth (COUNT with a site), else 0 */
	char comm[CAPAUDIT_COMM_LEN];
};

/* Indexes of struct capaudit_cpu.cnt, the loss counters */
#define CAPAUDIT_CNT_SEEN	0	/* checks that passed the filters */
#define CAPAUDIT_CNT_LOST_RINGBUF 1	/* ring buffer full: event not delivered */
#define CAPAUDIT_CNT_LOST_STACK	2	/* the stack could not be unwound: no stack */
#define CAPAUDIT_CNT_MISMATCH	3	/* kretprobe without kprobe entry (or the reverse) */
#define CAPAUDIT_CNT_COUNTED	4	/* of SEEN: counted in "counts", not by a record */
#define CAPAUDIT_CNT_KEYS_FULL	5	/* "keys" full: the check came as a record */
#define CAPAUDIT_CNT_NR		6

#define CAPAUDIT_MAX_CPUS	1024	/* possible CPUs; the loader refuses more */

/*
 * One per CPU in the program's .bss (cpus[]), indexed by the CPU the task
 * runs on (task->thread_info.cpu: a load, where a per-CPU map costs a
 * helper call).  The daemon sums cnt over the CPUs and never reads the rest,
 * the hot path's caches.  Three cache lines, so no two CPUs share one.
 */
struct capaudit_cpu {
	__u64 cnt[CAPAUDIT_CNT_NR];	/* CAPAUDIT_CNT_* */
	__u64 sp;			/* this frame's address, stored and read back */
	struct capaudit_key key;	/* the last key counted on this CPU */
	struct capaudit_fp fp;		/* the last fingerprint found READY */
	__u32 key_idx;			/* key's index, when key_ok */
	__u32 key_ok;
	__u32 fp_slot;			/* fp's slot, when fp_ok and fp_gen is sites_gen */
	__u32 fp_gen;
	__u32 fp_ok;
	__u32 pad[7];
};

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
	__u32 nr_kframes;	/* kernel stack frames after the record, 0 when none */
	__u32 ustack_id;	/* id in the "stacks" map or CAPAUDIT_NO_STACK */
	char comm[CAPAUDIT_COMM_LEN];
	__u32 kind;		/* CAPAUDIT_REC_* */
	__u32 depth;		/* fingerprint depth (LEARN, and KEY, SAMPLE with a site) */
	__u64 site;		/* the key's site (KEY, SAMPLE), else 0 */
	__u32 key_idx;		/* KEY: the key's index in a row of "counts" */
	__u32 pad;
};

/* A CAPAUDIT_REC_LEARN record: the check and the raw stack above its frame */
struct capaudit_learn {
	struct capaudit_event e;
	__u64 window[CAPAUDIT_WINDOW_SLOTS];
};

/*
 * A record on the ring buffer is a struct capaudit_event (a struct
 * capaudit_learn for CAPAUDIT_REC_LEARN) followed by nr_kframes return
 * addresses of its kernel stack, innermost first: as long as the stack, no
 * longer.  The BPF program builds it in a struct capaudit_record.
 */
struct capaudit_record {
	struct capaudit_event e;
	__u64 data[CAPAUDIT_WINDOW_SLOTS + CAPAUDIT_MAX_STACK];
};

#endif /* CAPAUDIT_H */
