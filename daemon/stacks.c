// SPDX-License-Identifier: GPL-2.0
/*
 * stacks.c: a record's kernel stack → symbolized frames and call site,
 * kept by its frames, so that a stack is symbolized once however often it
 * recurs.  A kept stack is the struct with its return addresses, and its
 * text in one block that the recorder hands over to agg, so that a stack's
 * text is held once, and only until it is stored.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "agg.h"
#include "callsite.h"
#include "ksyms.h"
#include "capaudit.h"
#include "stacks.h"

#define FRAME_LEN 160
#define MIN_SLOTS 1024

/* Open addressing by ips_hash, linear probing; never more than half full */
struct stacks {
	const struct ksyms *ksyms;
	struct stack_info **slots;
	__u32 nr_slots;		/* a power of two */
	__u32 nr, max;
	__u64 dropped;
	struct stack_info *unkept;	/* the last stack beyond max, freed at the next */
};

struct stacks *stacks__new(const struct ksyms *ksyms, __u32 max)
{
	struct stacks *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->ksyms = ksyms;
	s->max = max ? max : STACKS_DEFAULT_MAX;
	s->nr_slots = MIN_SLOTS;
	s->slots = calloc(s->nr_slots, sizeof(*s->slots));
	if (!s->slots) {
		free(s);
		return NULL;
	}
	return s;
}

static void stack_info__free(struct stack_info *si)
{
	if (!si)
		return;
	free(si->frames);
	free(si);
}

void stacks__free(struct stacks *s)
{
	__u32 i;

	if (!s)
		return;
	for (i = 0; i < s->nr_slots; i++)
		stack_info__free(s->slots[i]);
	stack_info__free(s->unkept);
	free(s->slots);
	free(s);
}

__u32 stacks__nr(const struct stacks *s)
{
	return s->nr;
}

__u64 stacks__nr_dropped(const struct stacks *s)
{
	return s->dropped;
}

/* FNV-1a over the return addresses */
static __u64 hash_ips(const __u64 *ips, __u32 nr)
{
	__u64 h = 0xcbf29ce484222325ull;
	__u32 i;

	for (i = 0; i < nr; i++)
		h = (h ^ ips[i]) * 0x100000001b3ull;
	return h;
}

/* The slot holding these frames, or the empty one where they would go */
static struct stack_info **find_slot(struct stack_info **slots, __u32 nr_slots, __u64 h,
				     const __u64 *ips, __u32 nr)
{
	__u32 i = h & (nr_slots - 1);
	struct stack_info *si;

	while ((si = slots[i])) {
		if (si->ips_hash == h && si->nr_ips == nr && !memcmp(si->ips, ips, nr * sizeof(*ips)))
			break;
		i = (i + 1) & (nr_slots - 1);
	}
	return &slots[i];
}

static int grow(struct stacks *s)
{
	__u32 i, nr_slots = s->nr_slots * 2;
	struct stack_info **slots = calloc(nr_slots, sizeof(*slots));
	struct stack_info *si;

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < s->nr_slots; i++) {
		si = s->slots[i];
		if (si)
			*find_slot(slots, nr_slots, si->ips_hash, si->ips, si->nr_ips) = si;
	}
	free(s->slots);
	s->slots = slots;
	s->nr_slots = nr_slots;
	return 0;
}

static const char *site_name(const struct ksyms *ksyms, const __u64 *ips, int nr)
{
	const struct ksym *sym;
	int i = callsite__find(ksyms, ips, nr);

	if (i < 0)
		return "[unknown]";
	sym = ksyms__map_addr(ksyms, ips[i]);
	return sym ? sym->name : "[unknown]";
}

/*
 * The frames of the tracer itself (the BPF program, its trampoline) come
 * first in a stack taken from fexit: drop them, so that a stack and its
 * hash do not change with capaudit's own program.
 */
static int skip_bpf_frames(const struct ksyms *ksyms, const __u64 *ips, int nr)
{
	const struct ksym *sym;
	int i;

	for (i = 0; i < nr; i++) {
		sym = ksyms__map_addr(ksyms, ips[i]);
		if (!sym || !callsite__is_bpf_frame(sym->name))
			break;
	}
	return i;
}

/* frames[0..nf) as one block: the pointers, then their text */
static char **frames_block(char (*text)[FRAME_LEN], int nf)
{
	size_t len[CAPAUDIT_MAX_STACK], size = nf * sizeof(char *), off;
	char **blk, *p;
	int i;

	for (i = 0; i < nf; i++) {
		len[i] = strlen(text[i]) + 1;
		size += len[i];
	}
	blk = malloc(size ? size : 1);
	if (!blk)
		return NULL;
	p = (char *)(blk + nf);
	for (i = 0, off = 0; i < nf; i++) {
		blk[i] = memcpy(p + off, text[i], len[i]);
		off += len[i];
	}
	return blk;
}

/*
 * A new stack: ips[0..nr) as they came (its look-up key) in one allocation
 * with the struct, and its text, symbolized from the first frame that is
 * not the tracer's own, in another (stacks__take_frames).
 */
static struct stack_info *stack_info__new(const struct ksyms *ksyms, const __u64 *ips, __u32 nr,
					  __u64 h)
{
	int skip = skip_bpf_frames(ksyms, ips, nr), nf = nr - skip, i, found;
	char text[CAPAUDIT_MAX_STACK][FRAME_LEN];
	struct stack_info *si;

	si = calloc(1, sizeof(*si) + nr * sizeof(*ips));
	if (!si)
		return NULL;
	for (i = 0; i < nf; i++)
		ksyms__format(ksyms, ips[skip + i], text[i], FRAME_LEN);
	si->frames = frames_block(text, nf);
	if (!si->frames) {
		free(si);
		return NULL;
	}
	si->ips = (__u64 *)(si + 1);
	memcpy(si->ips, ips, nr * sizeof(*ips));
	si->nr_ips = nr;
	si->ips_hash = h;
	si->nr_frames = nf;
	si->call_site = site_name(ksyms, ips + skip, nf);
	found = callsite__find(ksyms, ips + skip, nf);
	si->call_site_ip = found >= 0 ? ips[skip + found] : 0;
	si->hash = agg__hash_frames((const char *const *)si->frames, nf);
	return si;
}

char **stacks__take_frames(struct stack_info *si)
{
	char **frames = si->frames;

	si->frames = NULL;
	si->nr_frames = 0;
	return frames;
}

struct stack_info *stacks__get(struct stacks *s, const __u64 *ips, __u32 nr)
{
	struct stack_info **slot, *si;
	__u64 h;

	if (!ips || !nr)
		return NULL;
	if (nr > CAPAUDIT_MAX_STACK)
		nr = CAPAUDIT_MAX_STACK;
	h = hash_ips(ips, nr);
	slot = find_slot(s->slots, s->nr_slots, h, ips, nr);
	if (*slot)
		return *slot;
	si = stack_info__new(s->ksyms, ips, nr, h);
	if (!si)
		return NULL;
	if (s->nr >= s->max || ((s->nr + 1) * 2 > s->nr_slots && grow(s))) {
		s->dropped++;
		stack_info__free(s->unkept);
		s->unkept = si;
		return si;
	}
	*find_slot(s->slots, s->nr_slots, h, ips, nr) = si;
	s->nr++;
	return si;
}
