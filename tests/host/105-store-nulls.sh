#!/usr/bin/env bash
# tests/host/105-store-nulls.sh: a store that says it is capaudit's (its
# application_id and schema version) but whose tables allow NULL, with a
# NULL in every text column of a row, as a hand-made or damaged file could
# have: report, profile and advise read it without crashing, and show the
# NULL names as "[unknown]" or "-".  Prints PASS/FAIL lines for tests/run.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd -P)
capaudit=${CAPAUDIT:-$repo/build/capaudit}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
failed=0

db=$t/nulls.db
python3 - "$repo/daemon/store.h" "$db" <<'PY' || { echo "FAIL store with NULLs: cannot make it"; exit 1; }
import re, sqlite3, sys
h = open(sys.argv[1]).read()
app = int(re.search(r'STORE_APPLICATION_ID\s+(0x[0-9a-fA-F]+)', h).group(1), 16)
ver = int(re.search(r'STORE_SCHEMA_VERSION\s+(\d+)', h).group(1))
db = sqlite3.connect(sys.argv[2])
db.executescript(
    "CREATE TABLE checks (cap INTEGER, granted INTEGER, audit INTEGER, call_site TEXT,"
    " syscall TEXT, workload TEXT, comm TEXT, stack_hash INTEGER, count INTEGER,"
    " first_seen INTEGER, last_seen INTEGER);"
    "CREATE TABLE stacks (stack_hash INTEGER PRIMARY KEY, nr_frames INTEGER, frames TEXT,"
    " first_seen INTEGER);"
    "CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER);"
    "CREATE TABLE fallbacks (call_site TEXT, narrow_cap INTEGER, times INTEGER);"
    "PRAGMA application_id = %d; PRAGMA user_version = %d;" % (app, ver))
db.execute("INSERT INTO checks VALUES (21, 1, 0, NULL, NULL, 'w.service', NULL, 0, 5, 1, 2)")
db.execute("INSERT INTO checks VALUES (21, 1, 0, NULL, NULL, 'w.service', 'x', 1, 3, 1, 2)")
db.execute("INSERT INTO checks VALUES (21, 1, 0, NULL, NULL, NULL, NULL, 0, 3, 1, 2)")
db.commit()
PY

for cmd in "report" "report --json" "report --csv" "report --folded" "profile w.service" \
	"profile --json w.service" "advise" "advise --json"; do
	rc=0
	# shellcheck disable=SC2086
	"$capaudit" $cmd --store "$db" >"$t/out" 2>"$t/err" || rc=$?
	if [ $rc -ge 128 ] || { [ $rc != 0 ] && ! grep -q . "$t/err"; }; then
		printf 'FAIL store with NULLs: capaudit %s: exit status %s\n' "$cmd" "$rc"
		sed 's/^/    | /' "$t/err" | head -n 5
		failed=1
	else
		printf 'PASS store with NULLs: capaudit %s: exit status %s, no crash\n' "$cmd" "$rc"
	fi
done
exit $failed
