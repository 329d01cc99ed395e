// SPDX-License-Identifier: GPL-2.0
/*
 * events.c: where a ring-buffer record becomes a struct capaudit_event.
 * The record comes from the kernel, so nothing in it is trusted: its size is
 * checked and the comm is terminated; indexes it carries (cap, stack ids,
 * syscall number) are bounded by whoever uses them.
 */
#include <errno.h>
#include <string.h>

#include "events.h"

_Static_assert(sizeof(struct capaudit_event) == 88, "the BPF record layout changed");

int events__decode(const void *data, size_t size, struct capaudit_event *ret_event)
{
	if (!data || size != sizeof(*ret_event))
		return -EINVAL;
	memcpy(ret_event, data, sizeof(*ret_event));
	ret_event->comm[CAPAUDIT_COMM_LEN - 1] = '\0';
	return 0;
}
