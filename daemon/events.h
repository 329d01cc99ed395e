/* SPDX-License-Identifier: GPL-2.0 */
/* events.h: decode one ring-buffer record into a struct capaudit_event. */
#ifndef CAPAUDIT_EVENTS_H
#define CAPAUDIT_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "capaudit.h"

/* Copies and checks a record: 0, or -EINVAL when its size is not a record's. */
int events__decode(const void *data, size_t size, struct capaudit_event *ret_event);

static inline bool events__granted(const struct capaudit_event *e)
{
	return e->ret == 0;
}

static inline bool events__audited(const struct capaudit_event *e)
{
	return !(e->opts & CAPAUDIT_OPT_NOAUDIT);
}

#endif
