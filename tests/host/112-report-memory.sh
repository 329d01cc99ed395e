#!/usr/bin/env bash
# timeout: 240
# tests/host/112-report-memory.sh: `report --json` of a store of 300,000 rows
# is written a row at a time: its peak RSS stays under 128 MB (it built the
# whole document before: 3.2 GB for 10^6 rows, about 1 GB for these), and
# the output parses with every row and stack.
# Prints PASS/FAIL lines for tests/run; exits 1 when a test failed.
set -uo pipefail
# shellcheck source=tests/host/lib/hosttest.sh
. "$(dirname "$0")/lib/hosttest.sh"

python3 "$repo/tests/host/lib/mkstore.py" "$t/big.db" current \
	"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300000)
	 INSERT INTO checks SELECT 21, 1, 0, 'site_' || (i % 5000), 'mount',
	 'unit' || (i % 977) || '.service', 'comm' || (i % 13), (i % 20000) + 1, i, 1700000000,
	 1700000100 FROM n" \
	"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
	 INSERT INTO stacks SELECT i, 2, 'f+0x1' || char(10) || 'site_' || i || '+0x2', 1700000000 FROM n"
/usr/bin/time -f '%M' -o "$t/rss" "$capaudit" report --store "$t/big.db" --json >"$t/big.json" 2>"$t/err" ||
	fail "report --json of 300000 rows" "$(cat "$t/err")"
rss=$(cat "$t/rss")
if [ "$rss" -lt 131072 ]; then
	pass "report --json of 300000 rows: peak RSS ${rss} KB < 128 MB"
else
	fail "report --json of 300000 rows: peak RSS ${rss} KB < 128 MB"
fi
got=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(len(d["rows"]), len(d["stacks"]), sum(r["count"] for r in d["rows"]), d["kernel"]["seen"])' "$t/big.json" 2>&1)
if [ "$got" = "300000 20000 45000150000 0" ]; then
	pass "report --json of 300000 rows parses: every row, every stack, the counts"
else
	fail "report --json of 300000 rows parses: every row, every stack, the counts" "got: $got"
fi
exit $failed
