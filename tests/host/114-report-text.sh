#!/usr/bin/env bash
# timeout: 60
# tests/host/114-report-text.sh: the text report shows no two lines that look
# the same: rows that differ only by their kernel stack (not a column) are
# one line, summed, with STACKS saying how many; --by-stack gives a line per
# stack with its hash, and only report takes it.
# Prints PASS/FAIL lines for tests/run; exits 1 when a test failed.
set -uo pipefail
# shellcheck source=tests/host/lib/hosttest.sh
. "$(dirname "$0")/lib/hosttest.sh"

row() { echo "INSERT INTO checks VALUES (21, $1, 0, 'xattr_permission', 'mkdir', 'init.scope', 'systemd', $2, $3, 1, 2)"; }
python3 "$repo/tests/host/lib/mkstore.py" "$t/s.db" current "$(row 1 1 5)" "$(row 1 2 7)" "$(row 1 3 1)" "$(row 0 4 3)"
lines=$("$capaudit" report --store "$t/s.db" | awk '$3 == "CAP_SYS_ADMIN" { print $1, $2, $4 }' | paste -sd'|')
check "report: rows differing by stack only are one line, summed, with their number of stacks" \
	"13 3 granted|3 1 denied" "$lines"
lines=$("$capaudit" report --store "$t/s.db" --by-stack | awk '$3 == "CAP_SYS_ADMIN" { print $1, $2 }' | paste -sd'|')
check "report --by-stack: a line per stack, with its hash" \
	"7 0000000000000002|5 0000000000000001|3 0000000000000004|1 0000000000000003" "$lines"
dups=$("$capaudit" report --store "$t/s.db" | cut -c12- | sort | uniq -d | wc -l)
check "report: no two lines alike but for the count" 0 "$dups"
"$capaudit" profile --store "$t/s.db" --by-stack init.scope >/dev/null 2>"$t/err"
check "profile --by-stack is refused" "capaudit profile: --by-stack is not available here" "$(head -n 1 "$t/err")"
exit $failed
