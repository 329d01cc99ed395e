#!/bin/sh
# timeout: 400
# Record real programs, each in its own cgroup named like a unit; for each,
# the profile's recommended capabilities must be sufficient (the program
# succeeds with exactly them, as root) and minimal (it fails without any
# one).  bpfmap, run with CAP_SYS_ADMIN only, calls bpf_capable(): it must
# be advised CAP_BPF instead of CAP_SYS_ADMIN.
. "$REPO/tests/vm/lib/record.sh"
T=$(mktemp -d)
DB=$T/capaudit.db
PROGS="hostname dmesg mount chown bpfmap"
touch /tmp/rec-f
failed=0

# probe NAME [SETPRIV BOUNDING SET]: run one program of lib/probes.sh
probe() {
	p=$1
	shift
	if [ $# -gt 0 ]; then
		setpriv --bounding-set "$1" -- sh -c '. "$1"; "run_$2"' sh "$REPO/tests/vm/lib/probes.sh" "$p"
	else
		sh -c '. "$1"; "run_$2"' sh "$REPO/tests/vm/lib/probes.sh" "$p"
	fi
}

record_start "$DB" --flush-interval 1 || exit 1
for p in $PROGS; do
	if [ $p = bpfmap ]; then
		mkdir -p /sys/fs/cgroup/probe-bpfmap.service
		# join the cgroup after setpriv: dropping capabilities needs CAP_SETPCAP
		setpriv --bounding-set -all,+sys_admin -- sh -c 'echo $$ > /sys/fs/cgroup/probe-bpfmap.service/cgroup.procs && exec "$0"' "$REPO/build/progs/bpfmap" ||
			{ echo "bpfmap failed while recorded with CAP_SYS_ADMIN"; exit 1; }
	else
		in_cgroup probe-$p.service sh -c '. "$1"; "run_$2"' sh "$REPO/tests/vm/lib/probes.sh" "$p" ||
			{ echo "$p failed while recorded"; exit 1; }
	fi
done
record_stop TERM
[ "$RECORD_RC" = 0 ] || { cat "$RECORD_LOG"; exit 1; }

for p in $PROGS; do
	"$CAPAUDIT" profile --store "$DB" probe-$p.service
	caps=$("$CAPAUDIT" profile --store "$DB" --json probe-$p.service |
		python3 -c 'import json, sys; print(" ".join(json.load(sys.stdin)["capabilities"]))')
	echo "== probe-$p.service: recommended: ${caps:-nothing}"
	[ -n "$caps" ] || { echo "FAIL: $p: nothing recommended"; failed=1; continue; }
	set=-all
	for c in $caps; do set="$set,+$(echo "${c#CAP_}" | tr A-Z a-z)"; done
	if probe $p "$set" >/dev/null 2>&1; then
		echo "ok: $p succeeds with exactly $caps"
	else
		echo "FAIL: $p fails with exactly $caps (not sufficient)"
		failed=1
	fi
	for drop in $caps; do
		set=-all
		for c in $caps; do
			[ $c = $drop ] || set="$set,+$(echo "${c#CAP_}" | tr A-Z a-z)"
		done
		if probe $p "$set" >/dev/null 2>&1; then
			echo "FAIL: $p still succeeds without $drop (not minimal)"
			failed=1
		else
			echo "ok: $p fails without $drop"
		fi
	done
done

"$CAPAUDIT" advise --store "$DB"
"$CAPAUDIT" advise --store "$DB" --json | python3 -c '
import json, sys
sites = json.load(sys.stdin)["call_sites"]
bpf = [s for s in sites if "probe-bpfmap.service" in s["workloads"] and s["syscall"] == "bpf"]
assert bpf, "no CAP_SYS_ADMIN call site for bpfmap"
assert all(s["class"] == "narrower-accepted" and s["proposed_cap"] == "CAP_BPF" for s in bpf), bpf
print("ok: bpfmap advised", [(s["call_site"], s["proposed_cap"]) for s in bpf])
' || failed=1
exit $failed
