#!/bin/bash
# timeout: 240
# kernels: patched debian-6.12 (names travel the same way on every kernel)
# Hostile names, recorded for real: processes named (PR_SET_NAME) with a
# newline and a forged row, ';', ESC sequences, invalid UTF-8, a formula,
# and cgroups named with ESC, ';' and invalid UTF-8 (cgroupfs refuses a newline), make capability checks
# while `record` runs.  Then every output is well-formed and forges nothing:
# the folded stacks by their grammar exactly, report --json and merge by a
# strict JSON parser, --csv by Python's csv module, the text report line by
# line, and the Prometheus file by `promtool check metrics`.
. "$REPO/tests/vm/lib/record.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }
T=$(mktemp -d)
DB=$T/capaudit.db
mkdir -p "$T/prom"
command -v promtool >/dev/null || fail "promtool is not installed (Debian's prometheus: scripts/deps)"

record_start "$DB" --flush-interval 1 --prometheus "$T/prom" || fail "record"
# each name makes 3 sethostname checks (CAP_SYS_ADMIN)
names() {
	python3 - <<'EOF'
import ctypes, socket
libc = ctypes.CDLL(None)
for name in (b"a 1\nFAKE 99999\n", b"x;y;FAKEFRAME", b"\x1b[2J\x1b]0;pwned\x07",
             b"\xff\xfe\xc3(bad", b"=cmd|' /C calc'!A0", b"other"):
    libc.prctl(15, ctypes.c_char_p(name), 0, 0, 0)  # PR_SET_NAME
    for _ in range(3):
        socket.sethostname("capaudit-hostile")
EOF
}
names || fail "the named processes"
in_cgroup $'ev\x1b[2Jil;FAKE.service' hostname capaudit-hostile || fail "cgroup with ESC and ;"
in_cgroup $'bad\xff\xfeutf8.service' hostname capaudit-hostile || fail "cgroup with invalid UTF-8"
hostname capaudit-vm
record_stop
[ "$RECORD_RC" = 0 ] || { cat "$RECORD_LOG"; fail "record exited $RECORD_RC"; }

# JSON: strict UTF-8, every name there (with U+FFFD for what was not UTF-8)
"$CAPAUDIT" report --store "$DB" --json >"$T/r.json" || fail "report --json"
python3 - "$T/r.json" <<'EOF' || fail "report --json"
import json, sys
raw = open(sys.argv[1], "rb").read()
d = json.loads(raw.decode("utf-8", errors="strict"))
comms = {r["comm"] for r in d["rows"]}
work = {r["workload"] for r in d["rows"]}
for want in ("a 1\nFAKE 99999\n", "x;y;FAKEFRAME", "\x1b[2J\x1b]0;pwned\x07", "\ufffd\ufffd\ufffd(bad", "other"):
    assert any(c == want[:15] for c in comms), ("comm missing", want, comms)
assert "ev\x1b[2Jil;FAKE.service" in work and "bad\ufffd\ufffdutf8.service" in work, work
print("report --json: %d rows, strict UTF-8, names kept" % len(d["rows"]))
EOF
"$CAPAUDIT" merge "$T/r.json" "$T/r.json" >"$T/m.json" || fail "merge"
python3 -c 'import json, sys; d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict"))
print("merge: %d rows, strict UTF-8" % len(d["rows"]))' "$T/m.json" || fail "merge output is not JSON"

# folded: "frame;frame;... COUNT", no frame with a space, ';' or a control
# character, the sums equal to the JSON's, no forged frame or count
"$CAPAUDIT" report --store "$DB" --folded >"$T/folded" || fail "report --folded"
python3 - "$T/folded" "$T/r.json" <<'EOF' || fail "report --folded"
import json, re, sys
lines = open(sys.argv[1], "rb").read().split(b"\n")
assert lines[-1] == b"", "no final newline"
rows = json.load(open(sys.argv[2]))["rows"]
frame = rb"[\x21-\x3a\x3c-\x7e\x80-\xff]+"
total = 0
for l in lines[:-1]:
    m = re.fullmatch(rb"(%s(?:;%s)*) ([0-9]+)" % (frame, frame), l)
    assert m, ("not folded grammar", l)
    f = m.group(1).split(b";")
    assert f[-1] in (b"granted", b"denied") and f[-2].startswith(b"CAP_"), l
    assert b"FAKEFRAME" not in f and not any(x.startswith(b"FAKE") for x in f), l
    total += int(m.group(2))
assert len(lines) - 1 == len(rows), (len(lines) - 1, len(rows))
assert total == sum(r["count"] for r in rows), total
print("folded: %d lines, grammar exact, %d checks" % (len(lines) - 1, total))
EOF

# CSV: one record per row, 12 fields each, no formula
"$CAPAUDIT" report --store "$DB" --csv >"$T/r.csv" || fail "report --csv"
python3 - "$T/r.csv" "$T/r.json" <<'EOF' || fail "report --csv"
import csv, json, sys
recs = list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8", errors="strict")))
rows = json.load(open(sys.argv[2]))["rows"]
assert len(recs) == len(rows) + 1, (len(recs), len(rows))
assert all(len(r) == 12 for r in recs)
assert not any(f[:1] in ("=", "+", "-", "@", "\t", "\r") for r in recs[1:] for f in r[5:9]), "formula"
print("csv: %d records of 12 fields, no formula" % len(recs))
EOF

# text: no control character reaches the terminal, one line per row
"$CAPAUDIT" report --store "$DB" >"$T/r.txt" || fail "report"
LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$T/r.txt" && fail "a control character in the text report"
grep -q '^ *99999 \|^FAKE' "$T/r.txt" && fail "a forged row in the text report"
rows=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["rows"]))' "$T/r.json")
[ "$(wc -l <"$T/r.txt")" -le $((rows + 3)) ] || fail "the text report has more lines than rows"
"$CAPAUDIT" profile --store "$DB" $'ev\x1b[2Jil;FAKE.service' >"$T/p.txt" || fail "profile of the hostile cgroup"
LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$T/p.txt" && fail "a control character in the profile"

promtool check metrics <"$T/prom/capaudit.prom" || fail "promtool check metrics"
echo "result: JSON, merge, folded, CSV, text and Prometheus outputs well-formed with hostile names"
