// SPDX-License-Identifier: GPL-2.0
/*
 * capaudit.bpf.c: every capability check, counted in the kernel by key or
 * sent as one ring-buffer record (targ_mode, bpf/capaudit.h says which).
 *
 * The check is cap_capable(cred, targ_ns, cap, opts); its return value is the
 * verdict.  fexit sees both the arguments and the return value, so one
 * program does the job where fentry + fexit would need per-task state between
 * them.  Kernels without BTF trampolines get kprobe + kretprobe instead, which
 * do need that state (the "starts" map) and count what does not pair up.
 * The loader picks one pair before load with a probe, never by version.
 *
 * Nothing is lost silently: every check that passes the filters is counted
 * in cpus[] (CAPAUDIT_CNT_SEEN), and every record not delivered, or
 * delivered without its stack, is counted under its cause.
 *
 * Counting (record's default): the ring buffer carries one record per new
 * key, and the stack is unwound only then, for an unknown return address,
 * every targ_sample_every-th check of a key, and for walks that found no
 * call site.  A check like the one before it on its CPU costs three helper
 * calls (the task, its registers, one read of the stack above its frame)
 * and no hash look-up; bpf/capaudit.h explains the walk and the caches.
 *
 * A record is built in this CPU's rec_room and copied into the ring buffer
 * as long as its stack (bpf_get_stack() into the record): no stack map, so
 * no stack lost because another took its bucket.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "capaudit.h"

/* The program reads x86_64's saved registers (orig_ax) and system call numbers */
#ifndef __TARGET_ARCH_x86
#error "capaudit supports x86_64 only"
#endif

#define PF_KTHREAD 0x00200000	/* include/linux/sched.h */

/*
 * task_struct before 5.16, where the CPU is task->cpu: commit bcf9033e5449
 * ("sched: move CPU field back into thread_info if THREAD_INFO_IN_TASK=y")
 * moved it into thread_info.
 */
struct task_struct___pre516 {
	unsigned int cpu;
} __attribute__((preserve_access_index));

/* cap_capable()'s opts bits, include/linux/security.h (5.1+) */
#define CAP_OPT_NOAUDIT (1u << 1)
#define CAP_OPT_INSETID (1u << 2)

const volatile __u32 targ_tgid = 0;		/* 0: every process */
const volatile __u64 targ_caps_mask = 0;	/* 0: every capability */
const volatile __u32 targ_filter_cgroup = 0;	/* 1: only tasks under cgroup_map[0] */
const volatile __u32 targ_denied_only = 0;
const volatile __u32 targ_audit_only = 0;
const volatile __u32 targ_kernel_stack = 1;
const volatile __u32 targ_user_stack = 0;
const volatile __u32 targ_mode = CAPAUDIT_MODE_EACH;
const volatile __u32 targ_sample_every = CAPAUDIT_SAMPLE_EVERY;	/* power of two */
const volatile __u64 targ_thread_size = 16384;	/* THREAD_SIZE, set by the loader */
const volatile struct capaudit_setup_exe targ_setup[CAPAUDIT_SETUP_EXES] = {};
const volatile __u32 targ_nr_setup = 0;

/*
 * kprobe fallback: the loader sets this (CLOCK_MONOTONIC ns) once both the
 * kprobe and the kretprobe are attached.  Before it, an entry could miss its
 * return (kretprobe not attached yet); for a second after it, a return may
 * belong to a call that entered before it.  Neither is a real mismatch.
 */
__u64 armed_ns = 0;
#define ARMING_GRACE_NS 1000000000ull

/* Per-CPU loss counters and caches, by task->thread_info.cpu (capaudit.h) */
struct capaudit_cpu cpus[CAPAUDIT_MAX_CPUS] = {};

/* The next free index in a row of "counts" */
__u32 next_key_idx = 0;

/* Bumped by the daemon after each write to "hops": older cached walks are stale */
__u32 sites_gen = 0;

/* The slot of the first return address of a walk, written by the daemon (0: not known) */
__u32 site_start = 0;

/* Per CPU, the stack above the BPF frame that a walk reads */
__u64 wins[CAPAUDIT_MAX_CPUS][CAPAUDIT_WINDOW_SLOTS] = {};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 22);	/* resized by the loader */
} events SEC(".maps");

/* User stacks only (trace --user-stack): kernel stacks travel in records */
struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, CAPAUDIT_MAX_STACK * sizeof(__u64));
	__uint(max_entries, CAPAUDIT_STACK_ENTRIES);
} stacks SEC(".maps");

/* Where a record is built before it goes into "events" (as long as its stack) */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct capaudit_record);
} rec_room SEC(".maps");

/* Room for a kernel stack that is part of a key, before any record has it */
struct kstack {
	__u64 ips[CAPAUDIT_MAX_STACK];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kstack);
} kstack_room SEC(".maps");

/* The key's index in a row of "counts" */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CAPAUDIT_COUNT_KEYS);
	__type(key, struct capaudit_key);
	__type(value, __u32);
} keys SEC(".maps");

/* [cpu * CAPAUDIT_COUNT_KEYS + index]: a key's count on a CPU, read by mmap */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, CAPAUDIT_COUNT_KEYS);	/* times the possible CPUs, by the loader */
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CAPAUDIT_HOP_ENTRIES);
	__type(key, __u64);
	__type(value, struct capaudit_hop);
} hops SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_CGROUP_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} cgroup_map SEC(".maps");

/* kprobe fallback only: the arguments and the stack seen at entry, by thread id */
struct start {
	const struct cred *cred;
	struct user_namespace *ns;
	__u64 arg4;
	__u32 cap;
	__u32 nr_kips;
	__u64 kips[CAPAUDIT_MAX_STACK];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);	/* checks in flight at once */
	__type(key, __u32);
	__type(value, struct start);
} starts SEC(".maps");

/* Where an entry of "starts" is made: too big for the BPF stack */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct start);
} start_room SEC(".maps");

/* What the functions of one check share */
struct chk {
	void *ctx;
	struct capaudit_cpu *pc;	/* this CPU's counters and caches */
	struct user_namespace *ns;
	const __u64 *kips;		/* the kernel stack already taken, or NULL */
	__u64 cpu;			/* 64 bits: a spill keeps its bound */
	__u32 nr_kips;
};

#define READ_ONCE_U32(x) (*(volatile __u32 *)&(x))

/* This CPU's entry: a load from the task, where a per-CPU map is a helper call */
static __always_inline int this_cpu(struct task_struct *task, struct chk *c)
{
	__u32 cpu;

	if (bpf_core_field_exists(task->thread_info.cpu))
		cpu = task->thread_info.cpu;
	else
		cpu = ((struct task_struct___pre516 *)task)->cpu;

	/* cpu < nr_cpu_ids, and the loader refuses more possible CPUs than this */
	if (cpu >= CAPAUDIT_MAX_CPUS)
		return -1;
	/*
	 * The same number, masked after a barrier so that clang keeps the mask:
	 * it may spill cpu before the test above, and a 6.1 verifier does not
	 * carry the test's bound to the spilled copy.
	 */
	barrier_var(cpu);
	c->cpu = cpu & (CAPAUDIT_MAX_CPUS - 1);
	c->pc = &cpus[c->cpu];
	return 0;
}

static __always_inline void count(struct capaudit_cpu *pc, __u32 idx)
{
	if (idx < CAPAUDIT_CNT_NR)
		pc->cnt[idx] += 1;	/* this CPU's: no other writer */
}

static __always_inline __u32 decode_opts(__u64 arg4)
{
	__u32 opts = 0;

	if (arg4 & CAP_OPT_NOAUDIT)
		opts |= CAPAUDIT_OPT_NOAUDIT;
	if (arg4 & CAP_OPT_INSETID)
		opts |= CAPAUDIT_OPT_INSETID;
	return opts;
}

static __always_inline int wanted(__u32 tgid, int cap, int ret, __u32 opts)
{
	if (targ_tgid && tgid != targ_tgid)
		return 0;
	if (targ_caps_mask && (cap < 0 || cap > 63 || !(targ_caps_mask & (1ull << cap))))
		return 0;
	if (targ_denied_only && !ret)
		return 0;
	if (targ_audit_only && (opts & CAPAUDIT_OPT_NOAUDIT))
		return 0;
	if (targ_filter_cgroup && bpf_current_task_under_cgroup(&cgroup_map, 0) != 1)
		return 0;
	return 1;
}

/* The user stack's id in "stacks" */
static __always_inline __u32 take_ustack(const struct chk *c)
{
	long id = bpf_get_stackid(c->ctx, &stacks, BPF_F_USER_STACK);

	if (id < 0) {
		count(c->pc, CAPAUDIT_CNT_LOST_STACK);
		return CAPAUDIT_NO_STACK;
	}
	return id;
}

/* The kernel stack into ips[CAPAUDIT_MAX_STACK]: its frames, 0 (counted) when none */
static __always_inline __u32 unwind(const struct chk *c, __u64 *ips)
{
	long n = bpf_get_stack(c->ctx, ips, CAPAUDIT_MAX_STACK * sizeof(__u64), 0);

	if (n <= 0) {
		count(c->pc, CAPAUDIT_CNT_LOST_STACK);
		return 0;
	}
	return n / sizeof(__u64);
}

/* FNV-1a over the frames: a stack's part of a key (never 0) */
static __always_inline __u64 kstack_hash(const __u64 *ips, __u32 nr)
{
	__u64 h = 0xcbf29ce484222325ull;
	__u32 i;

	for (i = 0; i < CAPAUDIT_MAX_STACK && i < nr; i++)
		h = (h ^ ips[i]) * 0x100000001b3ull;
	return h ? h : 1;
}

/* The check's kernel stack for its key, in this CPU's kstack_room */
static __always_inline void key_stack(struct chk *c, struct capaudit_key *k)
{
	__u32 zero = 0;
	struct kstack *ks;

	if (!c->kips) {
		ks = bpf_map_lookup_elem(&kstack_room, &zero);
		if (!ks) {
			count(c->pc, CAPAUDIT_CNT_LOST_STACK);
			return;
		}
		c->nr_kips = unwind(c, ks->ips);
		c->kips = ks->ips;
	}
	if (c->nr_kips)
		k->kstack_hash = kstack_hash(c->kips, c->nr_kips);
}

/*
 * The record's kernel stack, at ips (its place after the event or the
 * window): the one the key has, or unwound now.
 */
static __always_inline void record_kstack(const struct chk *c, struct capaudit_record *r,
					  __u64 *ips)
{
	if (c->kips) {
		__builtin_memcpy(ips, c->kips, CAPAUDIT_MAX_STACK * sizeof(__u64));
		r->e.nr_kframes = c->nr_kips;
	} else if (targ_kernel_stack) {
		r->e.nr_kframes = unwind(c, ips);
	}
}

/* This CPU's room for a record (a ring-buffer record's size is its stack's) */
static __always_inline struct capaudit_record *record_room(const struct chk *c)
{
	__u32 zero = 0;
	struct capaudit_record *r = bpf_map_lookup_elem(&rec_room, &zero);

	if (!r)
		count(c->pc, CAPAUDIT_CNT_LOST_RINGBUF);
	return r;
}

/* The record of head bytes and its frames into the ring buffer; -1 (counted) when full */
static __always_inline int submit(const struct chk *c, struct capaudit_record *r, __u64 head)
{
	__u32 nr = r->e.nr_kframes;

	if (nr > CAPAUDIT_MAX_STACK)
		nr = CAPAUDIT_MAX_STACK;
	if (bpf_ringbuf_output(&events, r, head + nr * sizeof(__u64), 0)) {
		if (r->e.kind != CAPAUDIT_REC_SAMPLE)
			count(c->pc, CAPAUDIT_CNT_LOST_RINGBUF);
		return -1;
	}
	return 0;
}

static __always_inline __u64 syscall_nr(struct task_struct *task)
{
	struct pt_regs *regs;

	__u64 nr = CAPAUDIT_NO_SYSCALL;

	if (task->flags & PF_KTHREAD)
		return CAPAUDIT_NO_SYSCALL;
	/* bpf_task_pt_regs() came in 5.15: before it, task_pt_regs() by hand */
	if (!bpf_core_enum_value_exists(enum bpf_func_id, BPF_FUNC_task_pt_regs)) {
		regs = (struct pt_regs *)((__u64)task->stack + targ_thread_size) - 1;
		bpf_probe_read_kernel(&nr, sizeof(nr), &regs->orig_ax);
		return nr;
	}
	regs = (struct pt_regs *)bpf_task_pt_regs(task);
	if (!regs)
		return CAPAUDIT_NO_SYSCALL;
	return regs->orig_ax;
}

/* bpf_get_current_cgroup_id() without the helper call: the same pointers */
static __always_inline __u64 cgroup_id(struct task_struct *task)
{
	return task->cgroups->dfl_cgrp->kn->id;
}

/* bpf_get_current_comm() without the helper call (comm is NUL-padded) */
static __always_inline void comm_of(struct task_struct *task, char *comm)
{
	const __u64 *src = (const __u64 *)task->comm;
	__u64 *dst = (__u64 *)comm;

	dst[0] = src[0];
	dst[1] = src[1];
}

/*
 * CAPAUDIT_F_SETUP_* when the task runs a service manager's or a container
 * runtime's executable (capaudit.h), else 0: four loads and a short loop.
 */
static __always_inline __u32 setup_of(struct task_struct *task)
{
	struct mm_struct *mm = task->mm;
	struct inode *inode;
	struct file *exe;
	__u64 ino, size;
	__u32 i;

	if (!targ_nr_setup || !mm)
		return 0;
	exe = mm->exe_file;
	if (!exe)
		return 0;
	inode = exe->f_inode;
	ino = inode->i_ino;
	size = inode->i_size;
	for (i = 0; i < CAPAUDIT_SETUP_EXES && i < targ_nr_setup; i++)
		if (targ_setup[i].ino == ino && targ_setup[i].size == size)
			return targ_setup[i].flag;
	return 0;
}

/* The record's fields that do not depend on the mode */
static __always_inline void fill(struct capaudit_event *e, const struct capaudit_key *k,
				 struct user_namespace *ns, __u32 kind)
{
	__u64 ugid = bpf_get_current_uid_gid();

	e->ts_ns = bpf_ktime_get_ns();
	e->cgroup_id = k->cgroup_id;
	e->userns_ino = BPF_CORE_READ(ns, ns.inum);
	e->syscall_nr = k->syscall_nr;
	e->pid = k->pid;
	e->tid = (__u32)bpf_get_current_pid_tgid();
	e->uid = (__u32)ugid;
	e->gid = ugid >> 32;
	e->cap = k->cap;
	e->ret = k->ret;
	e->opts = k->opts;
	e->flags = k->flags;
	e->nr_kframes = 0;
	e->ustack_id = CAPAUDIT_NO_STACK;
	__builtin_memcpy(e->comm, k->comm, sizeof(e->comm));
	e->kind = kind;
	e->slot = 0;
	e->site = k->site;
	e->key_idx = 0;
	e->pad = 0;
}

/* One check, one record (trace, kprobe, a full "keys"); 0 or -1 when lost */
static __always_inline int send_check(const struct chk *c, const struct capaudit_key *k,
				      __u32 kind)
{
	struct capaudit_record *r = record_room(c);

	if (!r)
		return -1;
	fill(&r->e, k, c->ns, kind);
	record_kstack(c, r, r->data);
	if (targ_user_stack)
		r->e.ustack_id = take_ustack(c);
	return submit(c, r, sizeof(r->e));
}

static __always_inline int key_equal(const struct capaudit_key *a, const struct capaudit_key *b)
{
	const __u64 *x = (const __u64 *)a, *y = (const __u64 *)b;
	__u64 diff = 0;
	int i;

#pragma unroll
	for (i = 0; i < sizeof(*a) / sizeof(__u64); i++)
		diff |= x[i] ^ y[i];
	return !diff;
}

static __always_inline void key_cache(struct capaudit_cpu *pc, const struct capaudit_key *k,
				      __u32 idx)
{
	pc->key = *k;
	pc->key_idx = idx;
	pc->key_ok = 1;
}

/* The key's count on this CPU (an array look-up: inlined by the verifier) */
static __always_inline __u64 *key_count(const struct chk *c, __u32 idx)
{
	__u32 i = c->cpu * CAPAUDIT_COUNT_KEYS + idx;

	return bpf_map_lookup_elem(&counts, &i);
}

/*
 * A new key: its record first, so that every key in "keys" has one.  The
 * record is the check's: a key that another CPU made meanwhile keeps the
 * other's index, and this one is left unused.
 */
static __always_inline void new_key(const struct chk *c, struct capaudit_key *k)
{
	struct capaudit_record *r = record_room(c);
	__u32 idx = CAPAUDIT_COUNT_KEYS;

	if (!r)
		return;
	fill(&r->e, k, c->ns, CAPAUDIT_REC_KEY);
	record_kstack(c, r, r->data);	/* a key by site has no stack in it, but its record has */
	if (targ_user_stack)
		r->e.ustack_id = take_ustack(c);
	/* read first, so that a full row stops the index from growing */
	if (READ_ONCE_U32(next_key_idx) < CAPAUDIT_COUNT_KEYS)
		idx = __sync_fetch_and_add(&next_key_idx, 1);
	if (idx >= CAPAUDIT_COUNT_KEYS) {
		count(c->pc, CAPAUDIT_CNT_KEYS_FULL);
		r->e.kind = CAPAUDIT_REC_CHECK;
		submit(c, r, sizeof(r->e));
		return;
	}
	r->e.key_idx = idx;
	if (submit(c, r, sizeof(r->e)))
		return;
	if (!bpf_map_update_elem(&keys, k, &idx, BPF_NOEXIST))
		key_cache(c->pc, k, idx);
}

static __always_inline void count_key(const struct chk *c, struct capaudit_key *k)
{
	struct capaudit_cpu *pc = c->pc;
	__u32 idx, *found;
	__u64 *n;

	if (pc->key_ok && key_equal(&pc->key, k)) {
		idx = pc->key_idx;
	} else {
		found = bpf_map_lookup_elem(&keys, k);
		if (!found) {
			new_key(c, k);
			return;
		}
		idx = *found;
		key_cache(pc, k, idx);
	}
	n = key_count(c, idx);
	if (!n) {
		/* not reached: every index in "keys" is below CAPAUDIT_COUNT_KEYS */
		count(pc, CAPAUDIT_CNT_KEYS_FULL);
		send_check(c, k, CAPAUDIT_REC_CHECK);
		return;
	}
	*n += 1;	/* this CPU's: no other writer */
	count(pc, CAPAUDIT_CNT_COUNTED);
	if (k->site && !(*n & (targ_sample_every - 1)))
		send_check(c, k, CAPAUDIT_REC_SAMPLE);
}

/* This frame's address as a number, and the bytes of stack above it */
static __always_inline int frame_sp(struct capaudit_cpu *pc, struct task_struct *task,
				    __u64 *ret_sp, __u64 *ret_room)
{
	__u64 base = (__u64)task->stack;
	volatile __u64 here = 0;

	pc->sp = (__u64)&here;	/* a pointer leak: the verifier allows it with CAP_PERFMON */
	*ret_sp = *(volatile __u64 *)&pc->sp;
	if (*ret_sp < base || *ret_sp - base >= targ_thread_size)
		return -1;	/* not on the task's stack (an interrupt's) */
	*ret_room = targ_thread_size - (*ret_sp - base);
	return 0;
}

/* Up to nr slots of the stack above sp (room bytes of it) into win: the slots read */
static __always_inline __u32 read_stack(__u64 *win, __u64 sp, __u64 room, __u32 nr)
{
	__u64 size = (__u64)nr * sizeof(__u64);

	if (size > room)
		size = room;
	if (size > CAPAUDIT_WINDOW_SLOTS * sizeof(__u64))
		size = CAPAUDIT_WINDOW_SLOTS * sizeof(__u64);
	size &= ~7ull;
	if (!size)
		return 0;
	/* apart, so that clang does not fold the tests into one the verifier cannot use */
	barrier_var(size);
	if (size > CAPAUDIT_WINDOW_SLOTS * sizeof(__u64))
		return 0;
	if (bpf_probe_read_kernel(win, size, (void *)sp))
		return 0;
	return size / sizeof(__u64);
}

/*
 * A check whose walk met the unknown return address addr at slot: the raw
 * stack above the BPF frame (at sp, room bytes to the stack's top) and the
 * unwound one, for the daemon to learn from.
 */
static __always_inline void learn(const struct chk *c, struct capaudit_key *k, __u64 addr,
				  __u32 slot, __u64 sp, __u64 room)
{
	struct capaudit_record *r = record_room(c);

	if (!r)
		return;
	fill(&r->e, k, c->ns, CAPAUDIT_REC_LEARN);
	r->e.site = addr;
	r->e.slot = slot;
	record_kstack(c, r, r->data + CAPAUDIT_WINDOW_SLOTS);
	if (targ_user_stack)
		r->e.ustack_id = take_ustack(c);
	__builtin_memset(r->data, 0, CAPAUDIT_WINDOW_SLOTS * sizeof(__u64));
	read_stack(r->data, sp, room, CAPAUDIT_WINDOW_SLOTS);
	submit(c, r, sizeof(struct capaudit_learn));
}

/* The walk cached on this CPU, if the stack read into win still has it: its call site */
static __always_inline __u64 cached_walk(const struct capaudit_cpu *pc, const __u64 *win,
					 __u32 nr, __u32 gen)
{
	__u32 i, n = pc->walk_n, s;

	if (!n || n > CAPAUDIT_MAX_HOPS || pc->walk_gen != gen || pc->walk_end > nr)
		return 0;
	for (i = 0; i < CAPAUDIT_MAX_HOPS; i++) {
		if (i >= n)
			break;
		s = pc->walk_slot[i] & (CAPAUDIT_WINDOW_SLOTS - 1);
		if (win[s] != pc->walk[i])
			return 0;
	}
	return pc->walk[(n - 1) & (CAPAUDIT_MAX_HOPS - 1)];
}

/*
 * The walk from site_start: 0 with *ret_site, 1 when it met an unknown
 * return address (*ret_addr at *ret_slot: send a LEARN), -1 when it cannot
 * place the call site (key by stack).  A walk that ends at a call site is
 * cached.
 */
static __always_inline int walk(struct capaudit_cpu *pc, const __u64 *win, __u32 nr, __u32 gen,
				__u64 *ret_site, __u64 *ret_addr, __u32 *ret_slot)
{
	struct capaudit_hop *h, pending = { CAPAUDIT_HOP_PENDING, 0 };
	__u32 s = READ_ONCE_U32(site_start), i;
	__u64 a = 0;

	pc->walk_n = 0;
	for (i = 0; i < CAPAUDIT_MAX_HOPS; i++) {
		/* with s = 0 (site_start not known yet) the address looked up is 0 */
		if (s) {
			if (s >= nr || s >= CAPAUDIT_WINDOW_SLOTS)
				return -1;
			a = win[s & (CAPAUDIT_WINDOW_SLOTS - 1)];
		}
		h = bpf_map_lookup_elem(&hops, &a);
		if (!h) {
			if (bpf_map_update_elem(&hops, &a, &pending, BPF_NOEXIST))
				return -1;
			*ret_addr = a;
			*ret_slot = s;
			return 1;
		}
		if (!s)
			return -1;	/* site_start's LEARN is pending */
		pc->walk[i & (CAPAUDIT_MAX_HOPS - 1)] = a;
		pc->walk_slot[i & (CAPAUDIT_MAX_HOPS - 1)] = s;
		if (h->state == CAPAUDIT_HOP_SITE) {
			*ret_site = a;
			pc->walk_n = i + 1;
			pc->walk_gen = gen;
			pc->walk_end = s + 1;
			return 0;
		}
		if (h->state != CAPAUDIT_HOP_NEXT || !h->delta || h->delta >= CAPAUDIT_WINDOW_SLOTS)
			return -1;
		s += h->delta;
	}
	return -1;
}

/* COUNT mode: the call site by a walk of return addresses, or by the stack */
static __always_inline void count_by_site(struct chk *c, struct task_struct *task,
					  struct capaudit_key *k)
{
	__u64 *win = wins[c->cpu & (CAPAUDIT_MAX_CPUS - 1)];
	__u32 gen = READ_ONCE_U32(sites_gen), nr, slot = 0;
	struct capaudit_cpu *pc = c->pc;
	__u64 sp, room, site = 0, addr = 0;
	int err;

	if (!targ_kernel_stack) {
		count_key(c, k);	/* by everything but the call site */
		return;
	}
	if (frame_sp(pc, task, &sp, &room))
		goto by_stack;
	if (pc->walk_n && pc->walk_gen == gen) {
		nr = read_stack(win, sp, room, pc->walk_end);
		site = cached_walk(pc, win, nr, gen);
		if (site)
			goto by_site;
	}
	nr = read_stack(win, sp, room, CAPAUDIT_WINDOW_SLOTS);
	err = walk(pc, win, nr, gen, &site, &addr, &slot);
	if (err > 0) {
		learn(c, k, addr, slot, sp, room);
		return;
	}
	if (err)
		goto by_stack;
by_site:
	k->site = site;
	count_key(c, k);
	return;
by_stack:
	count(pc, CAPAUDIT_CNT_BY_STACK);
	key_stack(c, k);
	count_key(c, k);
}

/*
 * kips, nr_kips: the kernel stack taken earlier (kprobe entry), or NULL to
 * take it here when the kernel stack is wanted.  flags: what the caller
 * knows (CAPAUDIT_F_KPROBE, CAPAUDIT_F_USERNS_INIT).
 *
 * The task and what hangs from it are BTF pointers, loaded from directly
 * (one instruction each); a helper call costs more, and this is the path
 * every check takes.  The caller reads ns the way its program type allows.
 */
static __always_inline int emit(void *ctx, const struct cred *cred, struct user_namespace *ns,
				int cap, __u64 arg4, int ret, __u32 flags, const __u64 *kips,
				__u32 nr_kips)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct chk c = { .ctx = ctx, .ns = ns, .kips = kips, .nr_kips = nr_kips };
	struct capaudit_key k = {};
	__u32 tgid = task->tgid;

	if (this_cpu(task, &c))
		return 0;
	k.opts = decode_opts(arg4);
	if (!wanted(tgid, cap, ret, k.opts))
		return 0;
	count(c.pc, CAPAUDIT_CNT_SEEN);
	k.cgroup_id = cgroup_id(task);
	k.syscall_nr = syscall_nr(task);
	k.pid = tgid;
	k.cap = cap;
	k.ret = ret;
	k.flags = flags;
	if (cred != task->real_cred)
		k.flags |= CAPAUDIT_F_CRED_OTHER;
	k.flags |= setup_of(task);
	comm_of(task, k.comm);
	if (targ_mode == CAPAUDIT_MODE_COUNT && !targ_user_stack)
		count_by_site(&c, task, &k);
	else if (targ_mode == CAPAUDIT_MODE_COUNT_STACK && !targ_user_stack) {
		if (targ_kernel_stack)
			key_stack(&c, &k);
		count_key(&c, &k);
	} else
		send_check(&c, &k, CAPAUDIT_REC_CHECK);
	return 0;
}

SEC("fexit/cap_capable")
int BPF_PROG(capaudit_fexit, const struct cred *cred, struct user_namespace *ns, int cap,
	     unsigned int arg4, int ret)
{
	__u32 flags = ns->level ? 0 : CAPAUDIT_F_USERNS_INIT;	/* a BTF argument */

	return emit(ctx, cred, ns, cap, arg4, ret, flags, NULL, 0);
}

SEC("kprobe/cap_capable")
int BPF_KPROBE(capaudit_kprobe, const struct cred *cred, struct user_namespace *ns, int cap,
	       unsigned int arg4)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid(), zero = 0;
	struct chk c = { .ctx = ctx, .ns = ns };
	struct start *s;

	if (!armed_ns || this_cpu(bpf_get_current_task_btf(), &c))
		return 0;
	s = bpf_map_lookup_elem(&start_room, &zero);
	if (!s)
		return 0;
	s->cred = cred;
	s->ns = ns;
	s->arg4 = arg4;
	s->cap = cap;
	s->nr_kips = 0;
	/* the stack is taken here: at return the frame of the check is gone */
	if (targ_kernel_stack)
		s->nr_kips = unwind(&c, s->kips);
	/* an entry left from before is a return the kretprobe missed */
	if (bpf_map_lookup_elem(&starts, &tid))
		count(c.pc, CAPAUDIT_CNT_MISMATCH);
	if (bpf_map_update_elem(&starts, &tid, s, BPF_ANY))
		count(c.pc, CAPAUDIT_CNT_MISMATCH);
	return 0;
}

SEC("kretprobe/cap_capable")
int BPF_KRETPROBE(capaudit_kretprobe, int ret)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct start *s = bpf_map_lookup_elem(&starts, &tid);
	__u32 flags = CAPAUDIT_F_KPROBE;
	struct user_namespace *ns;
	struct chk c = {};
	int err;

	if (!s) {
		if (armed_ns && bpf_ktime_get_ns() - armed_ns > ARMING_GRACE_NS &&
		    !this_cpu(bpf_get_current_task_btf(), &c))
			count(c.pc, CAPAUDIT_CNT_MISMATCH);
		return 0;
	}
	ns = s->ns;	/* our own struct: no CO-RE relocation on it */
	if (BPF_CORE_READ(ns, level) == 0)	/* a number: a probe read */
		flags |= CAPAUDIT_F_USERNS_INIT;
	err = emit(ctx, s->cred, s->ns, s->cap, s->arg4, ret, flags,
		   targ_kernel_stack ? s->kips : NULL, s->nr_kips);
	bpf_map_delete_elem(&starts, &tid);
	return err;
}

char LICENSE[] SEC("license") = "GPL";
