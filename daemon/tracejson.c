// SPDX-License-Identifier: GPL-2.0
/*
 * tracejson.c: a trace record as one JSON object (the `trace --json` line).
 * json-c does the escaping, outfmt__json_string() makes names valid UTF-8:
 * a comm is whatever a process set with prctl().
 */
#include <stdio.h>
#include <string.h>

#include "events.h"
#include "outfmt.h"
#include "tracejson.h"

static json_object *stack_array(const struct stack_info *si)
{
	json_object *a = json_object_new_array();
	int i;

	if (!a || !si)
		return a;
	for (i = 0; i < si->nr_frames; i++)
		json_object_array_add(a, outfmt__json_string(si->frames[i]));
	return a;
}

static json_object *ustack_array(const __u64 *ips, int nr)
{
	json_object *a = json_object_new_array();
	char buf[24];
	int i;

	for (i = 0; a && i < nr; i++) {
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)ips[i]);
		json_object_array_add(a, json_object_new_string(buf));
	}
	return a;
}

static void add_ids(json_object *o, const struct capaudit_event *e)
{
	json_object_object_add(o, "pid", json_object_new_int64(e->pid));
	json_object_object_add(o, "tid", json_object_new_int64(e->tid));
	json_object_object_add(o, "uid", json_object_new_int64(e->uid));
	json_object_object_add(o, "gid", json_object_new_int64(e->gid));
	json_object_object_add(o, "comm", outfmt__json_string(e->comm));
	json_object_object_add(o, "cgroup_id", json_object_new_uint64(e->cgroup_id));
	json_object_object_add(o, "userns", json_object_new_uint64(e->userns_ino));
	json_object_object_add(o, "userns_init",
			       json_object_new_boolean(e->flags & CAPAUDIT_F_USERNS_INIT));
	json_object_object_add(o, "cred_own",
			       json_object_new_boolean(!(e->flags & CAPAUDIT_F_CRED_OTHER)));
}

json_object *trace_record__to_json(const struct trace_record *r)
{
	const struct capaudit_event *e = r->event;
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(o, "ts", json_object_new_uint64(e->ts_ns));
	json_object_object_add(o, "cap", json_object_new_string(r->cap_name));
	json_object_object_add(o, "cap_nr", json_object_new_int64(e->cap));
	json_object_object_add(o, "verdict",
			       json_object_new_string(events__granted(e) ? "granted" : "denied"));
	json_object_object_add(o, "audit", json_object_new_boolean(events__audited(e)));
	json_object_object_add(o, "insetid",
			       json_object_new_boolean(e->opts & CAPAUDIT_OPT_INSETID));
	json_object_object_add(o, "setup",
			       e->flags & CAPAUDIT_F_SETUP_MANAGER ? json_object_new_string("manager") :
			       e->flags & CAPAUDIT_F_SETUP_RUNTIME ? json_object_new_string("runtime") :
			       NULL);
	add_ids(o, e);
	json_object_object_add(o, "syscall",
			       outfmt__json_string(r->syscall));
	json_object_object_add(o, "call_site",
			       r->stack ? outfmt__json_string(r->stack->call_site) : NULL);
	json_object_object_add(o, "stack", stack_array(r->stack));
	if (r->nr_ustack > 0)
		json_object_object_add(o, "user_stack", ustack_array(r->ustack, r->nr_ustack));
	return o;
}
