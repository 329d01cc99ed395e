/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stacks.h: kernel stacks from the stack map, symbolized once per stack id.
 * A stack id's frames never change while the map holds it (the BPF program
 * does not use BPF_F_REUSE_STACKID), so the first look-up is the only one.
 */
#ifndef CAPAUDIT_STACKS_H
#define CAPAUDIT_STACKS_H

#include <stdbool.h>
#include <linux/types.h>

struct ksyms;
struct loader;

struct stack_info {
	__u64 hash;		/* agg__hash_frames(): stable across runs and reboots */
	bool recorded;		/* for the recorder: frames handed to agg already */
	int nr_frames;
	const char *call_site;	/* function of the first non-wrapper frame, or "[unknown]" */
	__u64 call_site_ip;	/* that frame's return address, 0 when unknown */
	char **frames;		/* "func+0xoff", innermost first */
};

struct stacks;

struct stacks *stacks__new(const struct loader *loader, const struct ksyms *ksyms);
void stacks__free(struct stacks *stacks);
/* NULL for CAPAUDIT_NO_STACK, an id out of range or a stack the map no longer has */
struct stack_info *stacks__get(struct stacks *stacks, __u32 stack_id);

#endif
