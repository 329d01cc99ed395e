// SPDX-License-Identifier: GPL-2.0
/*
 * stacks.c: stack id → symbolized frames and call site, cached by id, so a
 * stack is read from the map and symbolized once however often it recurs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "agg.h"
#include "callsite.h"
#include "ksyms.h"
#include "loader.h"
#include "stacks.h"

#define FRAME_LEN 160

struct stacks {
	const struct loader *loader;
	const struct ksyms *ksyms;
	struct stack_info *by_id[CAPAUDIT_STACK_ENTRIES];
};

struct stacks *stacks__new(const struct loader *loader, const struct ksyms *ksyms)
{
	struct stacks *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->loader = loader;
	s->ksyms = ksyms;
	return s;
}

static void stack_info__free(struct stack_info *si)
{
	int i;

	if (!si)
		return;
	for (i = 0; i < si->nr_frames; i++)
		free(si->frames[i]);
	free(si->frames);
	free(si);
}

void stacks__free(struct stacks *s)
{
	int i;

	if (!s)
		return;
	for (i = 0; i < CAPAUDIT_STACK_ENTRIES; i++)
		stack_info__free(s->by_id[i]);
	free(s);
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

static struct stack_info *symbolize(const struct ksyms *ksyms, const __u64 *ips, int nr)
{
	struct stack_info *si = calloc(1, sizeof(*si));
	char buf[FRAME_LEN];
	int i;

	if (!si)
		return NULL;
	si->frames = calloc(nr ? nr : 1, sizeof(*si->frames));
	if (!si->frames)
		goto out_free_si;
	for (i = 0; i < nr; i++) {
		ksyms__format(ksyms, ips[i], buf, sizeof(buf));
		si->frames[i] = strdup(buf);
		if (!si->frames[i])
			goto out_free_si;
		si->nr_frames = i + 1;
	}
	si->call_site = site_name(ksyms, ips, nr);
	i = callsite__find(ksyms, ips, nr);
	si->call_site_ip = i >= 0 ? ips[i] : 0;
	si->hash = agg__hash_frames((const char *const *)si->frames, nr);
	return si;

out_free_si:
	stack_info__free(si);
	return NULL;
}

struct stack_info *stacks__get(struct stacks *s, __u32 stack_id)
{
	__u64 ips[CAPAUDIT_MAX_STACK];
	int nr, skip;

	if (stack_id >= CAPAUDIT_STACK_ENTRIES)
		return NULL;
	if (s->by_id[stack_id])
		return s->by_id[stack_id];
	nr = loader__read_stack(s->loader, stack_id, ips);
	if (nr < 0)
		return NULL;
	skip = skip_bpf_frames(s->ksyms, ips, nr);
	s->by_id[stack_id] = symbolize(s->ksyms, ips + skip, nr - skip);
	return s->by_id[stack_id];
}
