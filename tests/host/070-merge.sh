#!/usr/bin/env bash
# tests/host/070-merge.sh: capaudit merge adds counts and unites stacks;
# merging is associative, independent of the order of its inputs and equals
# the report of the combined data; values of the wrong type, sums past 2^64 - 1,
# fields past their bound, empty files, directories and FIFOs are refused
# naming the file (and the row and the field); options are parsed like the
# other commands'.  Prints PASS/FAIL lines for tests/run.
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

# one row of a report, its fields replaced: $1 a python dict of fields, $2 extra top level
mkrow() {
	python3 - "$1" "${2:-{\}}" <<'PY'
import json, sys
row = {"cap": "CAP_CHOWN", "cap_nr": 0, "verdict": "granted", "audit": "audited",
       "workload": "w", "comm": "x", "syscall": None, "call_site": "f",
       "stack": "0000000000000000", "count": 1, "first_seen": 100, "last_seen": 200}
row.update(eval(sys.argv[1]))
rep = {"schema": "capaudit-report", "version": 1, "rows": [row], "stacks": {}, "kernel": {}}
rep.update(eval(sys.argv[2]))
print(json.dumps(rep))
PY
}
# refused NAME FILE REGEX: merge a.json FILE fails, at once, saying REGEX
refused() {
	if ! timeout 10 "$capaudit" merge a.json "$2" >out 2>err && grep -qE -- "$3" err &&
		[ ! -s out ]; then
		pass "$1"
	else
		fail "$1"; cat err
	fi
}
n=0
for v in '"12abc"' '-1' '1.5' '{"x": 1}' 'True' '"12"' 'None' '18446744073709551616'; do
	n=$((n + 1))
	mkrow "{'count': $v}" >bad$n.json
	refused "merge refuses count $v naming file, row and field" bad$n.json \
		"bad$n.json: row 0: count: "
done
mkrow "{'first_seen': -1}" >neg.json
refused "merge refuses first_seen -1" neg.json 'neg.json: row 0: first_seen: -1 is not'
mkrow "{'comm': 7}" >comm.json
refused "merge refuses a name that is no string" comm.json 'comm.json: row 0: comm: 7 is not a string'
mkrow "{'count': 18446744073709551615}" >max.json
if "$capaudit" merge max.json >out && grep -q '"count":18446744073709551615' <(tr -d ' \n' <out); then
	pass "merge accepts a count of 2^64 - 1"
else
	fail "merge accepts a count of 2^64 - 1"
fi
mkrow "{'count': 1}" >one.json
if ! "$capaudit" merge max.json one.json >out 2>err && [ ! -s out ] &&
	grep -q 'one.json: row 0: count: the sum .* 18446744073709551615' err; then
	pass "merge refuses a sum past 2^64 - 1"
else
	fail "merge refuses a sum past 2^64 - 1"; cat err
fi
mkrow "{}" "{'kernel': {'seen': 18446744073709551615}}" >kmax.json
mkrow "{}" "{'kernel': {'seen': 1}}" >k1.json
if ! "$capaudit" merge kmax.json k1.json >out 2>err && grep -q 'k1.json: kernel: seen: the sum' err; then
	pass "merge refuses a kernel counter past 2^64 - 1"
else
	fail "merge refuses a kernel counter past 2^64 - 1"; cat err
fi
for v in '"1"' 'True' '1.9' '1.0'; do
	mkrow "{}" "{'version': $v}" >ver.json
	refused "merge refuses version $v" ver.json 'ver.json: version .*the integer 1'
done

# the order of the inputs changes nothing, to the byte: times, conflicting stacks, rows
mkrow "{'first_seen': 50, 'last_seen': 60, 'count': 2}" \
	"{'stacks': {'00000000000000aa': ['a+0x1']}, 'kernel': {'seen': 3}}" >p.json
mkrow "{'first_seen': 40, 'last_seen': 300, 'comm': 'y'}" \
	"{'stacks': {'00000000000000aa': ['b+0x1']}, 'kernel': {'seen': 4, 'lost_stack': 1}}" >q.json
"$capaudit" merge p.json q.json a.json >pq.json && "$capaudit" merge a.json q.json p.json >qp.json
if [ -s pq.json ] && cmp -s pq.json qp.json; then
	pass "merge A B and merge B A are byte for byte the same"
else
	fail "merge A B and merge B A are byte for byte the same"; diff pq.json qp.json | head
fi
"$capaudit" merge p.json p.json q.json >ppq.json
if python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
x = [w for w in r["rows"] if w["comm"] == "x"][0]
assert (x["count"], x["first_seen"], x["last_seen"]) == (4, 50, 60), x
y = [w for w in r["rows"] if w["comm"] == "y"][0]
assert (y["first_seen"], y["last_seen"]) == (40, 300), y
assert r["stacks"]["00000000000000aa"] == ["a+0x1"]
assert r["kernel"] == {"lost_stack": 1, "seen": 10}' ppq.json; then
	pass "merge: first_seen the least, last_seen the most, one stack of a hash"
else
	fail "merge: first_seen the least, last_seen the most, one stack of a hash"
fi

# bounds of a name: 64 KiB accepted, more refused saying so
mkrow "{'call_site': 'f' * 65536}" >long.json
if "$capaudit" merge long.json >out && [ "$(wc -c <out)" -gt 65536 ]; then
	pass "merge accepts a call site of 64 KiB"
else
	fail "merge accepts a call site of 64 KiB"
fi
mkrow "{'call_site': 'f' * 65537}" >toolong.json
refused "merge refuses a call site past 64 KiB saying so" toolong.json \
	'toolong.json: row 0: call_site: 65537 bytes, longer than the limit of 65536'
mkrow "{'call_site': 'f' * 5000000}" >huge.json
refused "merge refuses a row past 4 MiB saying so" huge.json \
	'huge.json: row 0: a value longer than 4194304 bytes'

: >empty.json
refused "merge calls an empty file empty" empty.json 'empty.json: empty'
head -c 100 a.json >trunc.json
refused "merge calls a cut file truncated" trunc.json 'trunc.json: .*not a JSON file .*truncated'
mkdir dir.json
refused "merge says a directory is one" dir.json 'dir.json: is a directory'
mkfifo fifo.json
refused "merge refuses a FIFO at once" fifo.json 'fifo.json: not a regular file'
refused "merge refuses a device at once" /dev/zero '/dev/zero: not a regular file'

"$capaudit" merge --nope a.json >out 2>err
if [ $? = 2 ] && grep -q "^capaudit merge: unrecognized option '--nope'" err && [ ! -s out ]; then
	pass "merge: --nope is an unrecognized option"
else
	fail "merge: --nope is an unrecognized option"
fi
cp a.json ./--a.json
if "$capaudit" merge -- --a.json b.json >dd.json && "$capaudit" merge a.json b.json >ab2.json &&
	cmp -s dd.json ab2.json; then
	pass "merge: -- ends the options"
else
	fail "merge: -- ends the options"
fi
if [ "$("$capaudit" merge --version)" = "$("$capaudit" --version)" ] &&
	"$capaudit" --version | grep -qE '^capaudit [^ ]+$'; then
	pass "merge --version and capaudit --version"
else
	fail "merge --version and capaudit --version"
fi
exit $failed
