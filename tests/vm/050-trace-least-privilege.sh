#!/bin/sh
# capaudit needs CAP_BPF + CAP_PERFMON (+ CAP_SYSLOG for symbols), never
# CAP_SYS_ADMIN; without CAP_PERFMON it exits non-zero naming it.
. "$REPO/tests/vm/lib/trace.sh"
T=$(mktemp -d)
setpriv --bounding-set -all,+bpf,+perfmon,+syslog -- \
	"$CAPAUDIT" trace --json --duration 3 >"$T/out" 2>"$T/err" &
P=$!
for _ in $(seq 1 200); do grep -q '^capaudit: attached' "$T/err" && break; sleep 0.1; done
hostname capaudit-lp
wait $P || { echo "trace with CAP_BPF,CAP_PERFMON,CAP_SYSLOG failed:" >&2; cat "$T/err" >&2; exit 1; }
grep -q '"comm":"hostname".*"call_site":"[^"]*sethostname' "$T/out" || {
	echo "no symbolized hostname check:" >&2; tail "$T/out" "$T/err" >&2; exit 1; }
if setpriv --bounding-set -all,+bpf,+syslog -- "$CAPAUDIT" trace --duration 1 >/dev/null 2>"$T/err2"; then
	echo "trace without CAP_PERFMON succeeded" >&2
	exit 1
fi
grep -q CAP_PERFMON "$T/err2" || { echo "error does not name CAP_PERFMON:" >&2; cat "$T/err2" >&2; exit 1; }
cat "$T/err2"

# The kprobe fallback opens a perf event: where kernel.perf_event_paranoid
# is above 2 (Debian's kernels: 3) only CAP_SYS_ADMIN may, and the message
# says which sysctl and why; at 2 and below CAP_PERFMON is enough.
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
rc=0
setpriv --bounding-set -all,+bpf,+perfmon,+syslog -- \
	"$CAPAUDIT" trace --kprobe --duration 1 >/dev/null 2>"$T/err3" || rc=$?
echo "kprobe with CAP_BPF,CAP_PERFMON,CAP_SYSLOG, perf_event_paranoid=$paranoid: exit status $rc"
if [ "$paranoid" -gt 2 ]; then
	[ $rc = 1 ] || { echo "kprobe at paranoid $paranoid: exit status $rc, not 1" >&2; cat "$T/err3" >&2; exit 1; }
	grep -q "kernel.perf_event_paranoid=$paranoid.*only CAP_SYS_ADMIN.*perf_event_paranoid=2" "$T/err3" ||
		{ echo "the kprobe refusal does not explain perf_event_paranoid:" >&2; cat "$T/err3" >&2; exit 1; }
else
	[ $rc = 0 ] || { echo "kprobe at paranoid $paranoid failed:" >&2; cat "$T/err3" >&2; exit 1; }
fi
