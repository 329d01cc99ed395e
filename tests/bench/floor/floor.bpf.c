// SPDX-License-Identifier: GPL-2.0
/*
 * floor.bpf.c: the floors `make bench` measures tracers against.
 *
 * floor_0: the least any tracer of cap_capable costs, an fentry program
 * that only bumps a per-CPU counter.  floor_s: what a stack per check costs,
 * fexit + bpf_get_stackid() on every check + the same counter.  floor_x,
 * fexit + the counter, splits floor S's cost between the trampoline that
 * sees the verdict and the unwinding.  None delivers anything;
 * tests/bench/floor/floor.c loads one of them.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} hits SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, 64 * sizeof(__u64));
	__uint(max_entries, 16384);
} stacks SEC(".maps");

static __always_inline void hit(void)
{
	__u32 zero = 0;
	__u64 *c = bpf_map_lookup_elem(&hits, &zero);

	if (c)
		*c += 1;
}

SEC("fentry/cap_capable")
int BPF_PROG(floor_0)
{
	hit();
	return 0;
}

SEC("fexit/cap_capable")
int BPF_PROG(floor_x)
{
	hit();
	return 0;
}

SEC("fexit/cap_capable")
int BPF_PROG(floor_s)
{
	bpf_get_stackid(ctx, &stacks, 0);
	hit();
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
