#!/usr/bin/env bash
# tests/host/070-merge.sh: capaudit merge adds counts and unites stacks;
# merging is associative and equals the report of the combined data; bad
# inputs are refused naming the file.  Prints PASS/FAIL lines for tests/run.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd -P)
capaudit=${CAPAUDIT:-$repo/build/capaudit}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
failed=0
pass() { printf 'PASS %s\n' "$1"; }
fail() { printf 'FAIL %s\n' "$1"; failed=1; }

# three reports with overlapping keys, and the report of all their rows
python3 - "$t" <<'PY'
import json, random, sys
random.seed(7)
keys = ["cap", "verdict", "audit", "workload", "comm", "syscall", "call_site", "stack"]
def row():
    return {"cap": random.choice(["CAP_SYS_ADMIN", "CAP_CHOWN"]), "cap_nr": 21,
            "verdict": random.choice(["granted", "denied"]), "audit": "audited",
            "workload": random.choice(["a.service", "b.service"]), "comm": "x",
            "syscall": random.choice(["mount", None]), "call_site": random.choice(["f", "g"]),
            "stack": "%016x" % random.randint(1, 3), "count": random.randint(1, 100),
            "first_seen": random.randint(100, 200), "last_seen": random.randint(200, 300)}
def report(rows):
    d = {}
    for r in rows:
        k = tuple(str(r[f]) for f in keys)
        if k in d:
            d[k]["count"] += r["count"]
            d[k]["first_seen"] = min(d[k]["first_seen"], r["first_seen"])
            d[k]["last_seen"] = max(d[k]["last_seen"], r["last_seen"])
        else:
            d[k] = dict(r)
    return {"schema": "capaudit-report", "version": 1, "rows": list(d.values()),
            "stacks": {"%016x" % i: ["f+0x%x" % i] for i in range(1, 4)},
            "kernel": {"seen": 10 * len(rows), "lost_ringbuf": 1, "lost_stack": 0, "mismatch": 0,
                       "overflow_checks": 0, "overflow_stacks": 0}}
parts = [[row() for _ in range(15)] for _ in range(3)]
for name, rows in zip("abc", parts):
    json.dump(report(rows), open(f"{sys.argv[1]}/{name}.json", "w"))
all_ = report(sum(parts, []))
all_["kernel"]["lost_ringbuf"] = 3
json.dump(all_, open(f"{sys.argv[1]}/all.json", "w"))
PY

norm() {
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
r["rows"] = sorted(r["rows"], key=lambda x: json.dumps(x, sort_keys=True))
print(json.dumps(r, sort_keys=True))' "$1"
}
cd "$t" || exit 1
"$capaudit" merge a.json b.json >ab.json && "$capaudit" merge ab.json c.json >ab_c.json &&
	"$capaudit" merge b.json c.json >bc.json && "$capaudit" merge a.json bc.json >a_bc.json &&
	"$capaudit" merge a.json b.json c.json >abc.json || fail "merge runs"
if [ -s abc.json ] && [ "$(norm ab_c.json)" = "$(norm a_bc.json)" ] &&
	[ "$(norm ab_c.json)" = "$(norm abc.json)" ]; then
	pass "merge is associative"
else
	fail "merge is associative"
fi
if [ "$(norm abc.json)" = "$(norm all.json)" ]; then
	pass "merge equals the report of the combined data"
else
	fail "merge equals the report of the combined data"
fi
if ! "$capaudit" merge a.json /etc/hostname 2>err && grep -q /etc/hostname err; then
	pass "merge refuses a file that is no report, naming it"
else
	fail "merge refuses a file that is no report, naming it"
fi
echo '{"schema": "capaudit-report", "version": 2, "rows": [], "stacks": {}, "kernel": {}}' >v2.json
if ! "$capaudit" merge a.json v2.json 2>err && grep -q 'v2.json.*version 1' err; then
	pass "merge refuses another schema version"
else
	fail "merge refuses another schema version"
fi
"$capaudit" merge 2>/dev/null
[ $? = 2 ] && pass "merge without files is a usage error" || fail "merge without files is a usage error"
exit $failed
