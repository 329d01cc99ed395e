#!/bin/sh
# capaudit record counts in the kernel (the default) exactly what it would
# count from one record per check: two threads, three call sites in three
# syscalls, each check attributed to its call site, syscall, workload and a
# stack; most checks never cross the ring buffer; a flush in the middle
# loses nothing.  The same for --unwind-every-check, for kprobe, and with a
# sample every 2 checks (the call-site check path).
. "$REPO/tests/vm/lib/record.sh"
T=$(mktemp -d)
N=30000		# 2 threads x 15000 calls, the three sites in turn: 10000 each

run() {	# NAME RECORD-OPTIONS...: record around one capbench run in bench.service
	name=$1
	shift
	DB=$T/$name.db
	record_start "$DB" --flush-interval 1 "$@" || exit 1
	in_cgroup bench.service "$REPO/build/progs/capbench" --threads 2 \
		--sites hostname,domainname,prsetmm "$N" >/dev/null || exit 1
	sleep 1.5	# at least one flush while the keys are known
	in_cgroup bench.service "$REPO/build/progs/capbench" --threads 2 \
		--sites hostname,domainname,prsetmm "$N" >/dev/null || exit 1
	record_stop TERM
	[ "$RECORD_RC" = 0 ] || { echo "$name: record exited $RECORD_RC"; cat "$RECORD_LOG"; exit 1; }
	echo "$name: $(grep 'checks seen' "$RECORD_LOG")"
	"$CAPAUDIT" report --store "$DB" --json >"$T/$name.json" || exit 1
	python3 - "$T/$name.json" "$name" <<'PY' || { "$CAPAUDIT" report --store "$DB"; exit 1; }
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["rows"]
        if r["workload"] == "bench.service" and r["comm"] == "capbench"]
want = {("CAP_SYS_ADMIN", "sethostname", "__x64_sys_sethostname"): 20000,
        ("CAP_SYS_ADMIN", "setdomainname", "__x64_sys_setdomainname"): 20000,
        ("CAP_SYS_RESOURCE", "prctl", "prctl_set_mm"): 20000}
got = {}
for r in rows:
    k = (r["cap"], r["syscall"], r["call_site"])
    got[k] = got.get(k, 0) + r["count"]
    assert r["verdict"] == "granted" and r["audit"] == "audited", r
    assert r["stack"].strip("0"), ("no stack", r)
assert got == want, (sys.argv[2], got)
print(sys.argv[2], "exact:", got)
PY
}

seen_delivered() {	# the summary: every check seen was delivered, none lost
	line=$(grep 'checks seen' "$RECORD_LOG")
	seen=$(echo "$line" | sed -n 's/.*: \([0-9]*\) checks seen.*/\1/p')
	deliv=$(echo "$line" | sed -n 's/.* \([0-9]*\) delivered.*/\1/p')
	lost=$(echo "$line" | sed -n 's/.* \([0-9]*\) lost.*/\1/p')
	[ -n "$seen" ] && [ "$seen" = "$deliv" ] && [ "$lost" = 0 ] ||
		{ echo "seen $seen delivered $deliv lost $lost"; exit 1; }
	kern=$(echo "$line" | sed -n 's/.* \([0-9]*\) counted in the kernel.*/\1/p')
	echo "$kern"
}

run default
k=$(seen_delivered) || exit 1
# 60000 checks over 3 keys: all but the first of each key (and the checks
# made while the daemon learns a call site) counted without a record
[ "$k" -gt 55000 ] || { echo "only $k checks counted in the kernel"; cat "$RECORD_LOG"; exit 1; }
grep -q ' 0 conflicts' "$RECORD_LOG" || { echo "call-site conflicts"; cat "$RECORD_LOG"; exit 1; }
grep -Eq '[1-9][0-9]* call sites learned' "$RECORD_LOG" || { echo "nothing learned"; exit 1; }

run unwind --unwind-every-check
k=$(seen_delivered) || exit 1
[ "$k" -gt 55000 ] || { echo "unwind: only $k checks counted in the kernel"; exit 1; }

run kprobe --kprobe
seen_delivered >/dev/null || exit 1

run sampled --sample-every 2
seen_delivered >/dev/null || exit 1
grep -q ' 0 conflicts' "$RECORD_LOG" || { echo "sampled: conflicts"; cat "$RECORD_LOG"; exit 1; }

# the same stacks whichever way they were counted (frames, not addresses)
for f in default unwind kprobe sampled; do
	"$CAPAUDIT" report --store "$T/$f.db" --folded | grep capbench | sed 's/ [0-9]*$//' | sort -u >"$T/$f.folded"
done
cmp -s "$T/default.folded" "$T/unwind.folded" ||
	{ echo "default and unwind stacks differ"; diff "$T/default.folded" "$T/unwind.folded"; exit 1; }
echo "ok"
