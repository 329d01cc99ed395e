/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stacks.h: the kernel stacks that records carry (capaudit_event.kstack),
 * symbolized once per distinct stack: a stack seen again is a look-up by
 * its frames.  At most a given number are kept; beyond it a new stack is
 * symbolized for the record at hand and dropped at the next one.
 */
#ifndef CAPAUDIT_STACKS_H
#define CAPAUDIT_STACKS_H

#include <stdbool.h>
#include <linux/types.h>

struct ksyms;

struct stack_info {
	__u64 hash;		/* agg__hash_frames(): stable across runs and reboots */
	bool recorded;		/* for the recorder: frames handed to agg already */
	int nr_frames;
	const char *call_site;	/* function of the first non-wrapper frame, or "[unknown]" */
	__u64 call_site_ip;	/* that frame's return address, 0 when unknown */
	char **frames;		/* "func+0xoff", innermost first; one block, the
				 * pointers then their text: NULL once taken
				 */
	__u64 *ips;		/* the record's frames, as they came: the look-up key */
	__u32 nr_ips;
	__u64 ips_hash;
};

struct stacks;

/* max: distinct stacks kept (0: STACKS_DEFAULT_MAX) */
struct stacks *stacks__new(const struct ksyms *ksyms, __u32 max);
void stacks__free(struct stacks *stacks);
/*
 * The stack of frames ips[0..nr) (innermost first, the tracer's own frames
 * included; nr > CAPAUDIT_MAX_STACK is taken as CAPAUDIT_MAX_STACK): NULL
 * for no frames or no memory.  Valid until stacks__free, or, for a stack
 * beyond the kept ones (stacks__nr_dropped counts them), the next call.
 */
struct stack_info *stacks__get(struct stacks *stacks, const __u64 *ips, __u32 nr);
/*
 * Take si's text (frames[0..nr_frames), one block for free()): si keeps its
 * hash and call site, with no frames.  The recorder's way of storing a
 * stack's text once without holding a copy for as long as the stack is kept.
 */
char **stacks__take_frames(struct stack_info *si);
/* Distinct stacks kept, and records whose stack was beyond them */
__u32 stacks__nr(const struct stacks *stacks);
__u64 stacks__nr_dropped(const struct stacks *stacks);

#define STACKS_DEFAULT_MAX 65536

#endif
