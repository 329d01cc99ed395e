#!/bin/sh
# hostname x as root: one CAP_SYS_ADMIN check, granted, audited, from the
# sethostname syscall, with a call site inside it and a kernel stack.
. "$REPO/tests/vm/lib/trace.sh"
T=$(mktemp -d)
trace_start "$T/out" --json || exit 1
hostname capaudit-x || exit 1
trace_stop || exit 1
trace_assert '[e for e in ev if e["comm"] == "hostname" and e["cap"] == "CAP_SYS_ADMIN"
	and e["cap_nr"] == 21 and e["verdict"] == "granted" and e["audit"] is True
	and e["syscall"] == "sethostname" and "sethostname" in (e["call_site"] or "")
	and e["userns_init"] is True and e["uid"] == 0 and len(e["stack"]) > 2
	and any("sethostname" in f for f in e["stack"])]'
