// SPDX-License-Identifier: GPL-2.0
/*
 * events.c: where a ring-buffer record becomes a struct capaudit_event.
 * The record comes from the kernel, so nothing in it is trusted: its size is
 * checked, the comm is terminated and the number of frames bounded; the
 * indexes it carries (cap, user stack id, syscall number) are bounded by
 * whoever uses them.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "events.h"

_Static_assert(sizeof(struct capaudit_event) == 112, "the BPF record layout changed");
_Static_assert(sizeof(struct capaudit_learn) == 112 + 8 * CAPAUDIT_WINDOW_SLOTS,
	       "the BPF learn record layout changed");
_Static_assert(sizeof(struct capaudit_key) == 72, "the BPF key layout changed");
_Static_assert(sizeof(struct capaudit_cpu) == 256, "struct capaudit_cpu: four cache lines");

/* Bytes before the frames: the event's, or the learn record's */
static size_t head_size(const struct capaudit_event *e)
{
	return e->kind == CAPAUDIT_REC_LEARN ? sizeof(struct capaudit_learn) : sizeof(*e);
}

int events__decode(const void *data, size_t size, struct capaudit_event *ret_event)
{
	struct capaudit_event e;

	if (!data || size < sizeof(e))
		return -EINVAL;
	memcpy(&e, data, sizeof(e));
	if (e.kind > CAPAUDIT_REC_SAMPLE || e.nr_kframes > CAPAUDIT_MAX_STACK ||
	    size != head_size(&e) + e.nr_kframes * sizeof(__u64))
		return -EINVAL;
	*ret_event = e;
	ret_event->comm[CAPAUDIT_COMM_LEN - 1] = '\0';
	return 0;
}

const __u64 *events__window(const void *data, size_t size)
{
	struct capaudit_event e;

	if (events__decode(data, size, &e) || e.kind != CAPAUDIT_REC_LEARN)
		return NULL;
	return (const __u64 *)((const char *)data + offsetof(struct capaudit_learn, window));
}

const __u64 *events__kstack(const void *data, size_t size)
{
	struct capaudit_event e;

	if (events__decode(data, size, &e) || !e.nr_kframes)
		return NULL;
	return (const __u64 *)((const char *)data + head_size(&e));
}
