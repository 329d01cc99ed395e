/* SPDX-License-Identifier: GPL-2.0 */
/* events.h: decode one ring-buffer record into a struct capaudit_event. */
#ifndef CAPAUDIT_EVENTS_H
#define CAPAUDIT_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "capaudit.h"
#include "check.h"

/*
 * Copies and checks a record (struct capaudit_event, or the event of a
 * struct capaudit_learn, then nr_kframes frames): 0, or -EINVAL when its
 * size is not the one its kind and its frames make.
 */
int events__decode(const void *data, size_t size, struct capaudit_event *ret_event);
/* The raw stack window of a LEARN record (CAPAUDIT_WINDOW_SLOTS), or NULL */
const __u64 *events__window(const void *data, size_t size);
/* The kernel stack's nr_kframes frames of a decoded record, or NULL for none */
const __u64 *events__kstack(const void *data, size_t size);

static inline bool events__granted(const struct capaudit_event *e)
{
	return e->ret == 0;
}

static inline bool events__audited(const struct capaudit_event *e)
{
	return !(e->opts & CAPAUDIT_OPT_NOAUDIT);
}

/*
 * Why the check counts (or not) as a need: enum check_audit.  A spawner's
 * check is the set-up's whatever else it is.
 */
static inline enum check_audit events__audit_class(const struct capaudit_event *e)
{
	if (e->flags & CAPAUDIT_F_SETUP_MANAGER)
		return CHECK_SETUP_MANAGER;
	if (e->flags & CAPAUDIT_F_SETUP_RUNTIME)
		return CHECK_SETUP_RUNTIME;
	if (e->flags & CAPAUDIT_F_CRED_OTHER)
		return CHECK_CRED_OTHER;
	if (e->opts & CAPAUDIT_OPT_NOAUDIT)
		return CHECK_NOAUDIT;
	if (e->opts & CAPAUDIT_OPT_INSETID)
		return CHECK_INSETID;
	return CHECK_AUDITED;
}

#endif
