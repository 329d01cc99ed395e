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
 * in "counters" (CAPAUDIT_CNT_SEEN), and every record not delivered, or
 * delivered without its stack, is counted under its cause.
 *
 * Counting (record's default): the ring buffer carries one record per new
 * key, and the stack is unwound only then, for a new fingerprint, every
 * targ_sample_every-th check of a key, and for fingerprints the daemon could
 * not resolve; every other check costs two hash look-ups and one read of a
 * stack slot.  bpf/capaudit.h explains the fingerprint.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "capaudit.h"

#define PF_KTHREAD 0x00200000	/* include/linux/sched.h */

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
const volatile __u32 targ_arg4 = CAPAUDIT_ARG4_OPTS;
const volatile __u32 targ_mode = CAPAUDIT_MODE_EACH;
const volatile __u32 targ_sample_every = CAPAUDIT_SAMPLE_EVERY;	/* power of two */
const volatile __u64 targ_thread_size = 16384;	/* THREAD_SIZE, set by the loader */

/*
 * kprobe fallback: the loader sets this (CLOCK_MONOTONIC ns) once both the
 * kprobe and the kretprobe are attached.  Before it, an entry could miss its
 * return (kretprobe not attached yet); for a second after it, a return may
 * belong to a call that entered before it.  Neither is a real mismatch.
 */
__u64 armed_ns = 0;
#define ARMING_GRACE_NS 1000000000ull

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 22);	/* resized by the loader */
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, CAPAUDIT_MAX_STACK * sizeof(__u64));
	__uint(max_entries, CAPAUDIT_STACK_ENTRIES);
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CAPAUDIT_CNT_NR);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, CAPAUDIT_COUNT_KEYS);
	__type(key, struct capaudit_key);
	__type(value, __u64);
} counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CAPAUDIT_SITE_ENTRIES);
	__type(key, struct capaudit_fp);
	__type(value, struct capaudit_site);
} sites SEC(".maps");

/* the address of a BPF stack slot, stored and read back as a number */
struct scratch {
	__u64 sp;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct scratch);
} scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_CGROUP_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} cgroup_map SEC(".maps");

/* kprobe fallback only: the arguments seen at entry, by thread id */
struct start {
	const struct cred *cred;
	struct user_namespace *ns;
	__u64 arg4;
	__u32 cap;
	__u32 kstack_id;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, struct start);
} starts SEC(".maps");

static __always_inline void count(__u32 idx)
{
	__u64 *c = bpf_map_lookup_elem(&counters, &idx);

	if (c)
		*c += 1;	/* per-CPU: no other writer */
}

static __always_inline __u32 decode_opts(__u64 arg4)
{
	__u32 opts = 0;

	if (targ_arg4 == CAPAUDIT_ARG4_AUDIT)
		return arg4 ? 0 : CAPAUDIT_OPT_NOAUDIT;
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

static __always_inline __u32 take_stack(void *ctx, __u64 flags)
{
	long id = bpf_get_stackid(ctx, &stacks, flags);

	if (id < 0) {
		count(CAPAUDIT_CNT_LOST_STACK);
		return CAPAUDIT_NO_STACK;
	}
	return id;
}

static __always_inline __u64 syscall_nr(struct task_struct *task)
{
	struct pt_regs *regs;

	if (task->flags & PF_KTHREAD)
		return CAPAUDIT_NO_SYSCALL;
	regs = (struct pt_regs *)bpf_task_pt_regs(task);
	if (!regs)
		return CAPAUDIT_NO_SYSCALL;
	return regs->orig_ax;
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
	e->kstack_id = k->kstack_id;
	e->ustack_id = CAPAUDIT_NO_STACK;
	__builtin_memcpy(e->comm, k->comm, sizeof(e->comm));
	e->kind = kind;
	e->depth = k->depth;
	e->site = k->site;
}

/* One check, one record (trace, kprobe, a full "counts"); 0 or -1 when lost */
static __always_inline int send_check(void *ctx, const struct capaudit_key *k,
				      struct user_namespace *ns, __u32 kind)
{
	struct capaudit_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e) {
		if (kind != CAPAUDIT_REC_SAMPLE)
			count(CAPAUDIT_CNT_LOST_RINGBUF);
		return -1;
	}
	fill(e, k, ns, kind);
	if (kind != CAPAUDIT_REC_KEY && e->kstack_id == CAPAUDIT_NO_STACK && targ_kernel_stack)
		e->kstack_id = take_stack(ctx, 0);
	if (targ_user_stack)
		e->ustack_id = take_stack(ctx, BPF_F_USER_STACK);
	bpf_ringbuf_submit(e, 0);
	return 0;
}

/* A new key: its record first, so that every key in "counts" has one */
static __always_inline void new_key(void *ctx, struct capaudit_key *k, struct user_namespace *ns)
{
	struct capaudit_event *e;
	__u64 zero = 0, *c;
	__u32 stack = k->kstack_id;

	/* a key by site has no stack id in it, but its record has the stack */
	if (k->site && targ_kernel_stack)
		stack = take_stack(ctx, 0);
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		count(CAPAUDIT_CNT_LOST_RINGBUF);
		return;
	}
	fill(e, k, ns, CAPAUDIT_REC_KEY);
	e->kstack_id = stack;
	if (targ_user_stack)
		e->ustack_id = take_stack(ctx, BPF_F_USER_STACK);
	if (!bpf_map_update_elem(&counts, k, &zero, BPF_NOEXIST)) {
		bpf_ringbuf_submit(e, 0);
		return;
	}
	/* another CPU made it meanwhile, or the map is full */
	c = bpf_map_lookup_elem(&counts, k);
	if (c) {
		bpf_ringbuf_discard(e, 0);
		*c += 1;
		count(CAPAUDIT_CNT_COUNTED);
		return;
	}
	count(CAPAUDIT_CNT_KEYS_FULL);
	e->kind = CAPAUDIT_REC_CHECK;
	bpf_ringbuf_submit(e, 0);
}

static __always_inline void count_key(void *ctx, struct capaudit_key *k, struct user_namespace *ns)
{
	__u64 *c = bpf_map_lookup_elem(&counts, k);

	if (!c) {
		new_key(ctx, k, ns);
		return;
	}
	*c += 1;	/* per-CPU: no other writer */
	count(CAPAUDIT_CNT_COUNTED);
	if (k->site && !(*c & (targ_sample_every - 1)))
		send_check(ctx, k, ns, CAPAUDIT_REC_SAMPLE);
}

/* The first check of a fingerprint, with the raw stack above the BPF frame */
static __always_inline void learn(void *ctx, struct capaudit_key *k, struct user_namespace *ns,
				  __u32 depth, __u64 sp)
{
	struct capaudit_learn *l = bpf_ringbuf_reserve(&events, sizeof(*l), 0);
	__u64 room = targ_thread_size - depth;

	if (!l) {
		count(CAPAUDIT_CNT_LOST_RINGBUF);
		return;
	}
	fill(&l->e, k, ns, CAPAUDIT_REC_LEARN);
	l->e.depth = depth;
	l->e.kstack_id = take_stack(ctx, 0);
	if (targ_user_stack)
		l->e.ustack_id = take_stack(ctx, BPF_F_USER_STACK);
	__builtin_memset(l->window, 0, sizeof(l->window));
	if (room > sizeof(l->window))
		room = sizeof(l->window);
	room &= ~7ull;
	if (room)
		bpf_probe_read_kernel(l->window, room, (void *)sp);
	bpf_ringbuf_submit(l, 0);
}

/* This frame's address as a number, and its offset in the task's stack */
static __always_inline int frame_depth(struct task_struct *task, __u64 *ret_sp, __u32 *ret_depth)
{
	__u32 zero = 0;
	struct scratch *sc = bpf_map_lookup_elem(&scratch, &zero);
	__u64 base = (__u64)task->stack;
	volatile __u64 here = 0;

	if (!sc)
		return -1;
	sc->sp = (__u64)&here;	/* a pointer leak: the verifier allows it with CAP_PERFMON */
	*ret_sp = *(volatile __u64 *)&sc->sp;
	if (*ret_sp < base || *ret_sp - base >= targ_thread_size)
		return -1;	/* not on the task's stack (an interrupt's) */
	*ret_depth = *ret_sp - base;
	return 0;
}

/* COUNT mode: the call site from its stack slot, or by the stack when unknown */
static __always_inline void count_by_site(void *ctx, struct task_struct *task,
					  struct capaudit_key *k, struct user_namespace *ns)
{
	struct capaudit_fp fp = { .cap = k->cap, .syscall_nr = k->syscall_nr };
	struct capaudit_site *st, pending = { CAPAUDIT_SITE_PENDING, 0 };
	__u64 sp, site = 0;

	if (!targ_kernel_stack) {
		count_key(ctx, k, ns);	/* by everything but the call site */
		return;
	}
	if (frame_depth(task, &sp, &fp.depth))
		goto by_stack;
	st = bpf_map_lookup_elem(&sites, &fp);
	if (!st) {
		if (!bpf_map_update_elem(&sites, &fp, &pending, BPF_NOEXIST)) {
			learn(ctx, k, ns, fp.depth, sp);
			return;
		}
		goto by_stack;
	}
	if (st->state != CAPAUDIT_SITE_READY || st->slot >= CAPAUDIT_WINDOW_SLOTS)
		goto by_stack;
	if (bpf_probe_read_kernel(&site, sizeof(site), (void *)(sp + st->slot * 8ull)) || !site)
		goto by_stack;
	k->site = site;
	k->depth = fp.depth;
	count_key(ctx, k, ns);
	return;
by_stack:
	k->kstack_id = take_stack(ctx, 0);
	count_key(ctx, k, ns);
}

/*
 * kstack_id: a stack taken earlier (kprobe entry), or CAPAUDIT_NO_STACK to
 * take it here when the kernel stack is wanted.  flags: what the caller
 * knows (CAPAUDIT_F_KPROBE, CAPAUDIT_F_USERNS_INIT).
 *
 * The task and its registers are BTF pointers, loaded from directly (one
 * instruction each); a probe read is a helper call, and this is the path
 * every check takes.  The caller reads ns the way its program type allows.
 */
static __always_inline int emit(void *ctx, const struct cred *cred, struct user_namespace *ns,
				int cap, __u64 arg4, int ret, __u32 flags, __u32 kstack_id)
{
	struct task_struct *task = bpf_get_current_task_btf();
	__u64 id = bpf_get_current_pid_tgid();
	struct capaudit_key k = {};

	k.opts = decode_opts(arg4);
	if (!wanted(id >> 32, cap, ret, k.opts))
		return 0;
	count(CAPAUDIT_CNT_SEEN);
	k.cgroup_id = bpf_get_current_cgroup_id();
	k.syscall_nr = syscall_nr(task);
	k.kstack_id = kstack_id;
	k.pid = id >> 32;
	k.cap = cap;
	k.ret = ret;
	k.flags = flags;
	if (cred != task->real_cred)
		k.flags |= CAPAUDIT_F_CRED_OTHER;
	bpf_get_current_comm(k.comm, sizeof(k.comm));
	if (targ_mode == CAPAUDIT_MODE_COUNT && !targ_user_stack)
		count_by_site(ctx, task, &k, ns);
	else if (targ_mode == CAPAUDIT_MODE_COUNT_STACK && !targ_user_stack) {
		if (k.kstack_id == CAPAUDIT_NO_STACK && targ_kernel_stack)
			k.kstack_id = take_stack(ctx, 0);
		count_key(ctx, &k, ns);
	} else
		send_check(ctx, &k, ns, CAPAUDIT_REC_CHECK);
	return 0;
}

SEC("fexit/cap_capable")
int BPF_PROG(capaudit_fexit, const struct cred *cred, struct user_namespace *ns, int cap,
	     unsigned int arg4, int ret)
{
	__u32 flags = ns->level ? 0 : CAPAUDIT_F_USERNS_INIT;	/* a BTF argument */

	return emit(ctx, cred, ns, cap, arg4, ret, flags, CAPAUDIT_NO_STACK);
}

SEC("kprobe/cap_capable")
int BPF_KPROBE(capaudit_kprobe, const struct cred *cred, struct user_namespace *ns, int cap,
	       unsigned int arg4)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct start s = {
		.cred = cred,
		.ns = ns,
		.arg4 = arg4,
		.cap = cap,
		.kstack_id = CAPAUDIT_NO_STACK,
	};

	if (!armed_ns)
		return 0;
	/* the stack is taken here: at return the frame of the check is gone */
	if (targ_kernel_stack)
		s.kstack_id = take_stack(ctx, 0);
	/* an entry left from before is a return the kretprobe missed */
	if (bpf_map_lookup_elem(&starts, &tid))
		count(CAPAUDIT_CNT_MISMATCH);
	if (bpf_map_update_elem(&starts, &tid, &s, BPF_ANY))
		count(CAPAUDIT_CNT_MISMATCH);
	return 0;
}

SEC("kretprobe/cap_capable")
int BPF_KRETPROBE(capaudit_kretprobe, int ret)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct start *s = bpf_map_lookup_elem(&starts, &tid);
	__u32 flags = CAPAUDIT_F_KPROBE;
	struct user_namespace *ns;
	int err;

	if (!s) {
		if (armed_ns && bpf_ktime_get_ns() - armed_ns > ARMING_GRACE_NS)
			count(CAPAUDIT_CNT_MISMATCH);
		return 0;
	}
	ns = s->ns;	/* our own struct: no CO-RE relocation on it */
	if (BPF_CORE_READ(ns, level) == 0)	/* a number: a probe read */
		flags |= CAPAUDIT_F_USERNS_INIT;
	err = emit(ctx, s->cred, s->ns, s->cap, s->arg4, ret, flags, s->kstack_id);
	bpf_map_delete_elem(&starts, &tid);
	return err;
}

char LICENSE[] SEC("license") = "GPL";
