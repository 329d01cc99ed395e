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
#define CAPAUDIT_F_SETUP_MANAGER (1u << 3)	/* the task runs a service manager's
						 * executable (systemd's child before it
						 * execs the unit's program)
						 */
#define CAPAUDIT_F_SETUP_RUNTIME (1u << 4)	/* the task runs a container runtime's
						 * executable (runc, crun, conmon, a shim)
						 */

/*
 * targ_setup[]: the executables that set a workload up, by the inode the
 * task's mm->exe_file has (its number and size: an overlay's inode has the
 * real file's number, not its device).  A check made while the task runs one
 * of them is the set-up's, not the workload's: its key carries the flag.
 */
#define CAPAUDIT_SETUP_EXES	16
struct capaudit_setup_exe {
	__u64 ino;
	__u64 size;
	__u32 flag;		/* CAPAUDIT_F_SETUP_* */
	__u32 pad;
};

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
 * In CAPAUDIT_MODE_COUNT the call site comes without unwinding, by a walk
 * up the return addresses above the BPF frame.  Every frame between the
 * BPF program and the call site (the BPF trampoline, security_capable(),
 * the capable()-family wrappers) has a fixed size at a given return
 * address, so the daemon learns, per return address, either where the next
 * one is (CAPAUDIT_HOP_NEXT: delta slots higher) or that it is the call
 * site (CAPAUDIT_HOP_SITE), and writes them into "hops"; site_start is the
 * slot of the first one.  Nothing of it depends on where the frames lie in
 * the task's stack, so a stack whose offset changes at every system call
 * (randomize_kstack_offset, on by default in Debian's kernels) learns each
 * call site once.  An unknown return address comes as CAPAUDIT_REC_LEARN
 * (its address in site, its slot in slot) with a window of raw stack slots;
 * the daemon finds the unwound stack's return addresses in the window
 * (sitechain.c).  Each key is checked again every targ_sample_every checks
 * (CAPAUDIT_REC_SAMPLE); a call site whose unwound stack disagrees is
 * marked CAPAUDIT_HOP_UNWIND, and its checks are then keyed by stack
 * (counted in CAPAUDIT_CNT_BY_STACK, like every check keyed by stack
 * because the walk found no call site).
 *
 * Each CPU keeps its last key with its index, and its last walk (the return
 * addresses and their slots, struct capaudit_cpu), so that a check like the
 * one before it costs one read of the stack and no hash look-up.  The
 * daemon bumps sites_gen after every write to "hops"; a walk cached under
 * an older sites_gen is not used.
 */
#define CAPAUDIT_REC_CHECK	0	/* one check, counted by the record */
#define CAPAUDIT_REC_KEY	1	/* first check of a new key, counted by the record */
#define CAPAUDIT_REC_LEARN	2	/* a check whose walk met an unknown return address,
					 * counted by the record; capaudit_learn with the
					 * stack window
					 */
#define CAPAUDIT_REC_SAMPLE	3	/* a check already counted in "counts": only its
					 * stack, to check the key's call site
					 */

#define CAPAUDIT_WINDOW_SLOTS	128	/* raw stack slots in a LEARN record */
#define CAPAUDIT_COUNT_KEYS	16384	/* keys in "keys", indexes in a row of "counts" */
#define CAPAUDIT_HOP_ENTRIES	16384	/* return addresses in "hops" */
#define CAPAUDIT_MAX_HOPS	8	/* return addresses walked to the call site */
#define CAPAUDIT_SAMPLE_EVERY	1024	/* default targ_sample_every (a power of two) */

/* capaudit_hop.state */
#define CAPAUDIT_HOP_PENDING	0	/* LEARN sent, the daemon has not answered */
#define CAPAUDIT_HOP_NEXT	1	/* a wrapper: the next return address is delta slots up */
#define CAPAUDIT_HOP_SITE	2	/* the call site */
#define CAPAUDIT_HOP_UNWIND	3	/* no known way on: key these checks by stack */

/* "hops": a return address (__u64) to what is above it */
struct capaudit_hop {
	__u32 state;		/* CAPAUDIT_HOP_* */
	__u32 delta;		/* NEXT: slots to the next return address */
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
	__u32 pad;		/* 0 */
	char comm[CAPAUDIT_COMM_LEN];
};

/* Indexes of struct capaudit_cpu.cnt, the loss counters */
#define CAPAUDIT_CNT_SEEN	0	/* checks that passed the filters */
#define CAPAUDIT_CNT_LOST_RINGBUF 1	/* ring buffer full: event not delivered */
#define CAPAUDIT_CNT_LOST_STACK	2	/* the stack could not be unwound: no stack */
#define CAPAUDIT_CNT_MISMATCH	3	/* kretprobe without kprobe entry (or the reverse) */
#define CAPAUDIT_CNT_COUNTED	4	/* of SEEN: counted in "counts", not by a record */
#define CAPAUDIT_CNT_KEYS_FULL	5	/* "keys" full: the check came as a record */
#define CAPAUDIT_CNT_BY_STACK	6	/* of COUNTED in COUNT mode: keyed by stack, not site */
#define CAPAUDIT_CNT_MISSED	7	/* checks the program never ran for: the kernel's
					 * bpf_prog_info.recursion_misses, filled in by the
					 * loader (never written here)
					 */
#define CAPAUDIT_CNT_NR		8

#define CAPAUDIT_MAX_CPUS	1024	/* possible CPUs; the loader refuses more */

/*
 * One per CPU in the program's .bss (cpus[]), indexed by the CPU the task
 * runs on (task->thread_info.cpu: a load, where a per-CPU map costs a
 * helper call).  The daemon sums cnt over the CPUs and never reads the rest,
 * the hot path's caches.  Four cache lines, so no two CPUs share one.
 */
struct capaudit_cpu {
	__u64 cnt[CAPAUDIT_CNT_NR];	/* CAPAUDIT_CNT_* */
	__u64 sp;			/* this frame's address, stored and read back */
	struct capaudit_key key;	/* the last key counted on this CPU */
	__u32 key_idx;			/* key's index, when key_ok */
	__u32 key_ok;
	__u64 walk[CAPAUDIT_MAX_HOPS];	/* the last walk's return addresses, the call site last */
	__u8 walk_slot[CAPAUDIT_MAX_HOPS]; /* their slots above the BPF frame */
	__u32 walk_n;			/* return addresses in walk, 0: none cached */
	__u32 walk_gen;			/* sites_gen when it was walked */
	__u32 walk_end;			/* the highest slot + 1: what a check reads */
	__u32 pad[5];
};


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
	__u32 slot;		/* LEARN: the slot above the BPF frame site was read from */
	__u64 site;		/* the key's call site (KEY, SAMPLE); LEARN: the unknown
				 * return address (0: site_start is not known)
				 */
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
