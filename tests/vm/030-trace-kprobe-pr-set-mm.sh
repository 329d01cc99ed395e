#!/bin/sh
# prctl(PR_SET_MM, PR_SET_MM_START_BRK) without CAP_SYS_RESOURCE: a denied
# CAP_SYS_RESOURCE check from prctl_set_mm (the historic PR_SET_MM patch),
# traced through the kprobe + kretprobe fallback (--kprobe), which must
# deliver the same fields as fexit, and pair every entry with its return.
. "$REPO/tests/vm/lib/trace.sh"
T=$(mktemp -d)
trace_start "$T/out" --json --kprobe --caps CAP_SYS_RESOURCE,CAP_SYS_ADMIN || exit 1
grep -q 'attached to cap_capable (kprobe)' "$T/out.err" || { cat "$T/out.err"; exit 1; }
setpriv --bounding-set -sys_resource -- "$REPO/build/progs/prsetmm"
rc=$?
trace_stop || exit 1
[ $rc = 1 ] || { echo "prsetmm without CAP_SYS_RESOURCE exited $rc, want 1 (EPERM)"; exit 1; }
trace_assert '[e for e in ev if e["comm"] == "prsetmm" and e["cap"] == "CAP_SYS_RESOURCE"
	and e["verdict"] == "denied" and e["audit"] is True and e["syscall"] == "prctl"
	and e["call_site"] in ("prctl_set_mm", "__do_sys_prctl", "__x64_sys_prctl")]' || exit 1
[ "$(trace_summary mismatch)" = 0 ] || { echo "entry/exit mismatches"; cat "$T/out.err"; exit 1; }
# with it, the same call succeeds
"$REPO/build/progs/prsetmm" || { echo "prsetmm as root failed"; exit 1; }
