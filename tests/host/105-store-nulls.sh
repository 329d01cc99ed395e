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
# advise reads the repository's rules (never a file of the current directory)
export CAPAUDIT_RULES=$repo/rules/capaudit.rules

db=$t/nulls.db
"$repo/tests/host/lib/mkstore.py" "$db" current \
	"INSERT INTO checks VALUES (21, 1, 0, NULL, NULL, 'w.service', NULL, 0, 5, 1, 2)" \
	"INSERT INTO checks VALUES (21, 1, 0, NULL, NULL, 'w.service', 'x', 1, 3, 1, 2)" \
	"INSERT INTO checks VALUES (21, 1, 0, NULL, NULL, NULL, NULL, 0, 3, 1, 2)" ||
	{ echo "FAIL store with NULLs: cannot make it"; exit 1; }

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
