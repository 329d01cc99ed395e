#!/usr/bin/env bash
# tests/host/100-hostile-names.sh: a store whose names were chosen by a
# hostile process (line breaks that forge rows, ';', ESC and OSC sequences,
# invalid UTF-8, a spreadsheet formula, a call site named "other") gives
# well-formed output in every format: folded stacks of the exact grammar
# with the right sum, JSON that a strict parser reads (report --json and
# merge), CSV with the right number of rows and no formula, text without
# control bytes, a Prometheus file promtool (when installed) and a line
# grammar accept.  A failed write to stdout exits 1 with a message; the
# read-only commands leave the store's bytes as they were and create no
# -wal or -shm file; a foreign SQLite database is refused untouched.  The
# store is made with Python's sqlite3 from the schema in daemon/store.c,
# the Prometheus file by build/tests/test_promfile.  Prints PASS/FAIL lines
# for tests/run.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd -P)
capaudit=${CAPAUDIT:-$repo/build/capaudit}
promwriter=${TEST_PROMFILE:-$repo/build/tests/test_promfile}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
failed=0
pass() { printf 'PASS %s\n' "$1"; }
fail() { printf 'FAIL %s\n' "$1"; failed=1; }
# check NAME COMMAND...: PASS when the command succeeds, else FAIL and its output
check() {
	local name=$1
	shift
	if "$@" >"$t/check.out" 2>&1; then
		pass "$name"
	else
		fail "$name"
		sed 's/^/    | /' "$t/check.out" | head -n 8
	fi
}

db=$t/capaudit.db
python3 - "$repo/daemon/store.c" "$db" "$t/total" <<'PY' || exit 1
import re, sqlite3, sys
src = open(sys.argv[1]).read()
body = re.search(r'schema_sql\[\] =(.*?);\n', src, re.S).group(1)
schema = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', body))
db = sqlite3.connect(sys.argv[2])
db.executescript(schema)
db.execute("PRAGMA application_id = %d" % 0x43415041)
db.execute("PRAGMA user_version = 1")
hostile = [b"a 1\nFAKE 99999\n", b"x;y;z", b"\x1b[2J", b"\x1b]0;title\x07", b"\xff\xfe",
           b"=cmd|' /C calc'!A0", b"+1", b"-1", b"@SUM(A1)", b"tab\there", b"cr\rhere",
           b"back\\slash", b'quo"te', b"del\x7f", b"\xc2\x9b2J"]
def text(b):
    return b  # bound as a blob, cast to TEXT below: the bytes as they are
rows = []
sites = hostile + [b"other"] + [b"site_%d" % i for i in range(230)]
for i, site in enumerate(sites):
    name = hostile[i % len(hostile)]
    count = 1000 - i if i <= len(hostile) else 2
    stack = i + 1 if i < len(hostile) else 0
    rows.append((21, i % 2, 0, site, b"mount" if i % 3 else name, name, name, stack, count))
    if stack:
        frames = b"\n".join([b"cap_capable+0x0", name + b"+0x10", b"do;mount+0x20"])
        db.execute("INSERT INTO stacks VALUES (?, 3, CAST(? AS TEXT), 1700000000)",
                   (stack, frames))
for r in rows:
    db.execute("INSERT INTO checks VALUES (?, ?, ?, CAST(? AS TEXT), CAST(? AS TEXT),"
               " CAST(? AS TEXT), CAST(? AS TEXT), ?, ?, 1700000000, 1700000100)", r)
db.execute("INSERT INTO counters VALUES ('seen', ?)", (sum(r[8] for r in rows),))
db.commit()
db.close()
open(sys.argv[3], "w").write("%d %d\n" % (sum(r[8] for r in rows), len(rows)))
PY
read -r total nrows <"$t/total"
sum_before=$(sha256sum <"$db")
run() { "$capaudit" "$1" --store "$db" "${@:2}"; }
rules=(--rules "$repo/rules/capaudit.rules")

# folded: "frame;frame;...;CAP_X;VERDICT COUNT", no frame holds ';', ' ' or a control byte
run report --folded >"$t/folded" 2>"$t/err"
check "hostile names: report --folded has the folded grammar, no forged line, the right sum" \
	python3 - "$t/folded" "$total" "$nrows" <<'PY'
import re, sys
data = open(sys.argv[1], "rb").read()
assert data.endswith(b"\n"), "no final newline"
frame = rb"[^; \x00-\x1f\x7f]+"
line_re = re.compile(rb"^(%s(?:;%s)*);CAP_[A-Z_0-9]+;(granted|denied) ([0-9]+)$" % (frame, frame))
lines = data[:-1].split(b"\n")
total = 0
for l in lines:
    m = line_re.match(l)
    assert m, "not folded grammar: %r" % l
    assert not l.startswith(b"FAKE"), "forged line %r" % l
    total += int(m.group(3))
assert total == int(sys.argv[2]), "counts sum to %d, not %s" % (total, sys.argv[2])
assert len(lines) == int(sys.argv[3]), "%d lines for %s rows" % (len(lines), sys.argv[3])
PY

# JSON: strict UTF-8 and strict JSON, in report --json and in merge
run report --json >"$t/a.json" 2>"$t/err"
"$capaudit" merge "$t/a.json" "$t/a.json" >"$t/merged.json" 2>>"$t/err"
# a report with raw invalid UTF-8, as an older capaudit or another program wrote it
python3 - "$t/a.json" "$t/raw.json" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
open(sys.argv[2], "wb").write(d.replace("\ufffd\ufffd".encode(), b"\xff\xfe"))
PY
"$capaudit" merge "$t/raw.json" "$t/a.json" >"$t/merged-raw.json" 2>>"$t/err"
check "hostile names: report --json and merge output parse as strict UTF-8 JSON" \
	python3 - "$t/a.json" "$t/merged.json" "$t/merged-raw.json" "$total" <<'PY'
import json, sys
def load(p):
    return json.loads(open(p, "rb").read().decode("utf-8", errors="strict"))
a, m, r = (load(p) for p in sys.argv[1:4])
assert sum(x["count"] for x in a["rows"]) == int(sys.argv[4])
assert sum(x["count"] for x in m["rows"]) == 2 * int(sys.argv[4])
assert sum(x["count"] for x in r["rows"]) == 2 * int(sys.argv[4])
assert len(r["rows"]) == len(a["rows"]), "names that differ only by invalid bytes are one key"
assert any("\ufffd" in x["comm"] for x in a["rows"])
assert any(x["comm"] == "a 1\nFAKE 99999\n" for x in a["rows"])
PY

# CSV: RFC 4180, one record a row, no cell a formula
run report --csv >"$t/out.csv" 2>"$t/err"
check "hostile names: report --csv parses into one record a row, no cell starts a formula" \
	python3 - "$t/out.csv" "$nrows" <<'PY'
import csv, io, sys
text = open(sys.argv[1], "rb").read().decode("utf-8", errors="strict")
recs = list(csv.reader(io.StringIO(text, newline=""), strict=True))
assert len(recs) == int(sys.argv[2]) + 1, "%d records" % len(recs)
assert all(len(r) == len(recs[0]) for r in recs), "ragged records"
for r in recs:
    for cell in r:
        assert not cell or cell[0] not in "=+-@\t\r", "formula cell %r" % cell
assert any(c == "a 1\nFAKE 99999\n" for r in recs for c in r), "a name lost its line breaks"
PY

# text: no control byte but \n and \t, valid UTF-8
run report >"$t/report.txt" 2>"$t/err"
run profile "${rules[@]}" $'a 1\nFAKE 99999\n' >"$t/profile.txt" 2>>"$t/err"
run profile "${rules[@]}" $'\x1b]0;title\x07' >>"$t/profile.txt" 2>>"$t/err"
run advise "${rules[@]}" >"$t/advise.txt" 2>>"$t/err"
check "hostile names: text report, profile and advise hold no raw control bytes" \
	python3 - "$t/report.txt" "$t/profile.txt" "$t/advise.txt" <<'PY'
import re, sys
for p in sys.argv[1:]:
    d = open(p, "rb").read()
    assert d, "%s is empty" % p
    d.decode("utf-8", errors="strict")
    bad = re.search(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]", d)
    assert not bad, "%s: raw control byte %r" % (p, bad.group(0))
    assert not re.search(rb"^FAKE", d, re.M), "%s: a forged line" % p
    assert b"\\x1b]0;title\\x07" in d or b"\\x0aFAKE" in d, "%s: names not shown escaped" % p
PY

# Prometheus
if [ -x "$promwriter" ]; then
	mkdir "$t/prom"
	CAPAUDIT_PROMFILE_STORE=$db CAPAUDIT_PROMFILE_DIR=$t/prom "$promwriter" 2>"$t/err"
	check "hostile names: the Prometheus file has the exposition grammar, one sample a series" \
		python3 - "$t/prom/capaudit.prom" <<'PY'
import re, sys
d = open(sys.argv[1], "rb").read().decode("utf-8", errors="strict")
assert d.endswith("\n")
label = r'[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*"'
sample = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{%s(?:,%s)*\})? [0-9]+$' % (label, label))
seen = set()
for l in d[:-1].split("\n"):
    if l.startswith("# HELP ") or l.startswith("# TYPE "):
        continue
    m = sample.match(l)
    assert m, "not a sample: %r" % l
    key = l.rsplit(" ", 1)[0]
    assert key not in seen, "two samples of %r" % key
    seen.add(key)
assert 'call_site="other"' in d
PY
	# promtool comes with Debian's prometheus (scripts/deps): a test that
	# cannot run fails
	check "hostile names: promtool check metrics accepts the Prometheus file" \
		sh -c 'command -v promtool >/dev/null &&
			promtool check metrics <"$1" 2>&1 | { ! grep -qi error; }' sh \
		"$t/prom/capaudit.prom"
else
	fail "hostile names: no $promwriter (make check builds it)"
fi

# a failed write to stdout: exit status 1 and a message
# full WHAT COMMAND ARGS...
full() {
	local what=$1 cmd=$2 rc=0
	shift 2
	"$capaudit" "$cmd" "$@" >/dev/full 2>"$t/err" || rc=$?
	if [ $rc = 1 ] && grep -q "^capaudit $cmd: cannot write the output: " "$t/err"; then
		pass "stdout error: capaudit $what >/dev/full exits 1 with a message"
	else
		fail "stdout error: capaudit $what >/dev/full exits 1 with a message (status $rc)"
		sed 's/^/    | /' "$t/err" | head -n 4
	fi
}
full report report --store "$db"
full "report --json" report --store "$db" --json
full "report --csv" report --store "$db" --csv
full "report --folded" report --store "$db" --folded
full profile profile --store "$db" "${rules[@]}" "=cmd|' /C calc'!A0"
full advise advise --store "$db" "${rules[@]}"
full merge merge "$t/a.json"

# the read-only commands changed nothing
if [ "$(sha256sum <"$db")" = "$sum_before" ] && ! [ -e "$db-wal" ] && ! [ -e "$db-shm" ] &&
	! [ -e "$db-journal" ]; then
	pass "read-only commands leave the store's bytes as they were, no -wal or -shm"
else
	fail "read-only commands leave the store's bytes as they were, no -wal or -shm"
	ls -l "$t" | sed 's/^/    | /'
fi
python3 -c '
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("CREATE TABLE notes (x TEXT)")
db.execute("INSERT INTO notes VALUES (1)")
db.commit()' "$t/foreign.db"
foreign_sum=$(sha256sum <"$t/foreign.db")
rc=0
"$capaudit" report --store "$t/foreign.db" >/dev/null 2>"$t/err" || rc=$?
if [ $rc = 1 ] && grep -q 'not a capaudit database' "$t/err" &&
	[ "$(sha256sum <"$t/foreign.db")" = "$foreign_sum" ] && ! [ -e "$t/foreign.db-wal" ]; then
	pass "a foreign SQLite database is refused as store, untouched"
else
	fail "a foreign SQLite database is refused as store, untouched (status $rc)"
fi
exit $failed
