// SPDX-License-Identifier: GPL-2.0
/*
 * events.c: where a ring-buffer record becomes a struct capaudit_event.
 * The record comes from the kernel, so nothing in it is trusted: its size is
 * checked and the comm is terminated; indexes it carries (cap, stack ids,
 * syscall number) are bounded by whoever uses them.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "events.h"

_Static_assert(sizeof(struct capaudit_event) == 112, "the BPF record layout changed");
_Static_assert(sizeof(struct capaudit_learn) == 112 + 8 * CAPAUDIT_WINDOW_SLOTS,
	       "the BPF learn record layout changed");
_Static_assert(sizeof(struct capaudit_key) == 72, "the BPF key layout changed");
_Static_assert(sizeof(struct capaudit_cpu) == 192, "struct capaudit_cpu: three cache lines");

int events__decode(const void *data, size_t size, struct capaudit_event *ret_event)
{
	struct capaudit_event e;

	if (!data || (size != sizeof(e) && size != sizeof(struct capaudit_learn)))
		return -EINVAL;
	memcpy(&e, data, sizeof(e));
	if (e.kind > CAPAUDIT_REC_SAMPLE ||
	    (e.kind == CAPAUDIT_REC_LEARN) != (size == sizeof(struct capaudit_learn)))
		return -EINVAL;
	*ret_event = e;
	ret_event->comm[CAPAUDIT_COMM_LEN - 1] = '\0';
	return 0;
}

const __u64 *events__window(const void *data, size_t size)
{
	struct capaudit_event e;

	if (!data || size != sizeof(struct capaudit_learn))
		return NULL;
	memcpy(&e, data, sizeof(e));
	if (e.kind != CAPAUDIT_REC_LEARN)
		return NULL;
	return (const __u64 *)((const char *)data + offsetof(struct capaudit_learn, window));
}
