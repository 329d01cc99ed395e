/* SPDX-License-Identifier: GPL-2.0 */
/* tracejson.h: one decoded, symbolized check, and its JSON form. */
#ifndef CAPAUDIT_TRACEJSON_H
#define CAPAUDIT_TRACEJSON_H

#include <json-c/json.h>
#include "capaudit.h"
#include "stacks.h"

struct trace_record {
	const struct capaudit_event *event;
	const char *cap_name;		/* "CAP_SYS_ADMIN" or "CAP_<n>" */
	const char *syscall;		/* name, or NULL outside a syscall */
	const struct stack_info *stack;	/* NULL when no stack was taken */
	const __u64 *ustack;
	int nr_ustack;
};

/* A new object with the documented keys (docs/trace-json.md), or NULL. */
json_object *trace_record__to_json(const struct trace_record *r);

#endif
