/* SPDX-License-Identifier: GPL-2.0 */
/* loader.h: open, configure, load and attach the BPF program. */
#ifndef CAPAUDIT_LOADER_H
#define CAPAUDIT_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "capaudit.h"
#include "kcounts.h"

enum loader_attach {
	LOADER_ATTACH_AUTO,	/* fexit when the kernel can, else kprobe */
	LOADER_ATTACH_FEXIT,
	LOADER_ATTACH_KPROBE,
};

struct loader_opts {
	__u32 tgid;			/* 0: every process */
	__u64 caps_mask;		/* 0: every capability */
	const char *cgroup_path;	/* NULL: every cgroup */
	bool denied_only;
	bool audit_only;
	bool kernel_stack;
	bool user_stack;
	__u32 ringbuf_bytes;		/* power of two, >= page size; 0: default */
	enum loader_attach attach;
	bool verbose;			/* libbpf debug messages */
	__u32 mode;			/* CAPAUDIT_MODE_*: EACH for trace */
	__u32 sample_every;		/* COUNT: a power of two; 0: default */
};

struct loader;

/* Logs what went wrong and what to do; returns 0 or -errno. */
int loader__start(const struct loader_opts *opts, struct loader **ret_loader);
void loader__free(struct loader *loader);
/* Stops new events; what is in the ring buffer can still be read. */
void loader__detach(struct loader *loader);
int loader__events_fd(const struct loader *loader);
int loader__stacks_fd(const struct loader *loader);
/* The counting modes' maps ("counts" mapped, "sites", sites_gen), for kcounts */
void loader__kcounts_maps(const struct loader *loader, struct kcounts_maps *ret_maps);
/* CAPAUDIT_MODE_* in effect (kprobe turns COUNT into COUNT_STACK) */
__u32 loader__mode(const struct loader *loader);
const char *loader__attach_name(const struct loader *loader);
/* Sums the per-CPU counters; ret_counts has CAPAUDIT_CNT_NR entries. */
int loader__read_counters(const struct loader *loader, __u64 *ret_counts);
/*
 * The one-line account of a run, on stderr: checks seen in the kernel,
 * delivered, and lost by cause (extra: "; N in overflow rows" or "").
 */
void loader__print_summary(const struct loader *loader, __u64 delivered, const char *extra);
/* The same line (no newline) from counters read already, into buf */
void loader__format_summary(const __u64 *counts, __u64 delivered, const char *extra, char *buf,
			    size_t size);
/* Reads a user stack from the stack map: frames into ips, returns their number or -errno. */
int loader__read_stack(const struct loader *loader, __u32 stack_id, __u64 *ips);

/*
 * What the program needs of the kernel, from its BTF (btf): the BPF
 * features of Linux 5.11 and cap_capable(cred, ns, cap, opts).
 * cap_capable()'s BTF id, or -ENOTSUP / -ENOENT after a message that says
 * what is missing.
 */
struct btf;
int loader__check_btf(const struct btf *btf);

#endif
