// SPDX-License-Identifier: GPL-2.0
/*
 * capaudit.bpf.c: one record per capability check, sent over a ring buffer.
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

	if (BPF_CORE_READ(task, flags) & PF_KTHREAD)
		return CAPAUDIT_NO_SYSCALL;
	regs = (struct pt_regs *)bpf_task_pt_regs(task);
	if (!regs)
		return CAPAUDIT_NO_SYSCALL;
	return BPF_CORE_READ(regs, orig_ax);
}

/*
 * kstack_id: a stack taken earlier (kprobe entry), or CAPAUDIT_NO_STACK to
 * take it here when the kernel stack is wanted.
 */
static __always_inline int emit(void *ctx, const struct cred *cred, struct user_namespace *ns,
				int cap, __u64 arg4, int ret, __u32 flags, __u32 kstack_id)
{
	struct task_struct *task = bpf_get_current_task_btf();
	__u64 id = bpf_get_current_pid_tgid();
	__u64 ugid = bpf_get_current_uid_gid();
	__u32 opts = decode_opts(arg4);
	struct capaudit_event *e;

	if (!wanted(id >> 32, cap, ret, opts))
		return 0;
	count(CAPAUDIT_CNT_SEEN);
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		count(CAPAUDIT_CNT_LOST_RINGBUF);
		return 0;
	}
	e->ts_ns = bpf_ktime_get_ns();
	e->cgroup_id = bpf_get_current_cgroup_id();
	e->userns_ino = BPF_CORE_READ(ns, ns.inum);
	e->syscall_nr = syscall_nr(task);
	e->pid = id >> 32;
	e->tid = (__u32)id;
	e->uid = (__u32)ugid;
	e->gid = ugid >> 32;
	e->cap = cap;
	e->ret = ret;
	e->opts = opts;
	e->flags = flags;
	if (cred != BPF_CORE_READ(task, real_cred))
		e->flags |= CAPAUDIT_F_CRED_OTHER;
	if (BPF_CORE_READ(ns, level) == 0)
		e->flags |= CAPAUDIT_F_USERNS_INIT;
	if (kstack_id == CAPAUDIT_NO_STACK && targ_kernel_stack)
		kstack_id = take_stack(ctx, 0);
	e->kstack_id = kstack_id;
	e->ustack_id = targ_user_stack ? take_stack(ctx, BPF_F_USER_STACK) : CAPAUDIT_NO_STACK;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	bpf_ringbuf_submit(e, 0);
	return 0;
}

SEC("fexit/cap_capable")
int BPF_PROG(capaudit_fexit, const struct cred *cred, struct user_namespace *ns, int cap,
	     unsigned int arg4, int ret)
{
	return emit(ctx, cred, ns, cap, arg4, ret, 0, CAPAUDIT_NO_STACK);
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
	int err;

	if (!s) {
		if (armed_ns && bpf_ktime_get_ns() - armed_ns > ARMING_GRACE_NS)
			count(CAPAUDIT_CNT_MISMATCH);
		return 0;
	}
	err = emit(ctx, s->cred, s->ns, s->cap, s->arg4, ret, CAPAUDIT_F_KPROBE, s->kstack_id);
	bpf_map_delete_elem(&starts, &tid);
	return err;
}

char LICENSE[] SEC("license") = "GPL";
