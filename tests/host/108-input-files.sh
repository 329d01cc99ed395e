#!/usr/bin/env bash
# tests/host/108-input-files.sh: what report, profile and advise read is a
# regular file of a bounded size: a FIFO, a device or a directory given as
# the store or the rules is refused at once (never waited on), naming it;
# the rules are --rules, else $CAPAUDIT_RULES, else the installed file, never
# a rules/capaudit.rules of the current directory; a store of a newer schema
# says so, and a time of -1 in a store is not wrapped into the future.
# Prints PASS/FAIL lines for tests/run.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd -P)
capaudit=${CAPAUDIT:-$repo/build/capaudit}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
failed=0
pass() { printf 'PASS %s\n' "$1"; }
fail() { printf 'FAIL %s\n' "$1"; failed=1; sed 's/^/    | /' "$t/err" | head -n 5; }

# mkstore FILE SCHEMA_VERSION FIRST_SEEN: a store of one row
mkstore() {
	"$repo/tests/host/lib/mkstore.py" "$1" "$2" \
		"INSERT INTO checks VALUES (21, 1, 0, 'do_syslog', 'syslog', 'w.service', 'x', 0, 5, $3, 200)"
}
mkstore "$t/ok.db" current 100 && mkstore "$t/new.db" 7 100 && mkstore "$t/neg.db" current -1 ||
	{ echo "FAIL input files: cannot make the stores"; exit 1; }
mkfifo "$t/fifo"
mkdir "$t/dir"

# refused NAME REGEX CMD...: fails within 10 s, saying REGEX
refused() {
	local name=$1 want=$2
	shift 2
	if ! timeout 10 "$capaudit" "$@" >"$t/out" 2>"$t/err" </dev/null &&
		[ $? != 124 ] && grep -Eq -- "$want" "$t/err"; then
		pass "$name"
	else
		fail "$name"
	fi
}
for cmd in report "profile w.service" advise; do
	# shellcheck disable=SC2086
	refused "$cmd: a FIFO as store is refused at once" "$t/fifo is not a regular file" \
		$cmd --store "$t/fifo"
	# shellcheck disable=SC2086
	refused "$cmd: a device as store is refused" "/dev/zero is not a regular file" \
		$cmd --store /dev/zero
	# shellcheck disable=SC2086
	refused "$cmd: a directory as store is one" "$t/dir is a directory" $cmd --store "$t/dir"
done
refused "advise: a FIFO as rules is refused at once" "rules $t/fifo: not a regular file" \
	advise --store "$t/ok.db" --rules "$t/fifo"
refused "advise: --rules /dev/zero is refused at once" "rules /dev/zero: not a regular file" \
	advise --store "$t/ok.db" --rules /dev/zero
refused "advise: a directory as rules is one" "rules $t/dir: is a directory" \
	advise --store "$t/ok.db" --rules "$t/dir"
CAPAUDIT_RULES=/dev/zero refused "advise: CAPAUDIT_RULES is read, and checked" \
	"rules /dev/zero: not a regular file" advise --store "$t/ok.db"

# a hostile directory's rules/capaudit.rules is never read
mkdir -p "$t/cwd/rules"
echo 'do_syslog CAP_SYSLOG "from the current directory" here' >"$t/cwd/rules/capaudit.rules"
echo 'this line is no rule' >>"$t/cwd/rules/capaudit.rules"
if (cd "$t/cwd" && CAPAUDIT_RULES=$repo/rules/capaudit.rules "$capaudit" advise \
	--store "$t/ok.db" >"$t/out" 2>"$t/err") && ! grep -q "current directory" "$t/out"; then
	pass "advise: CAPAUDIT_RULES, not the current directory's rules"
else
	fail "advise: CAPAUDIT_RULES, not the current directory's rules"
fi
(cd "$t/cwd" && env -u CAPAUDIT_RULES "$capaudit" advise --store "$t/ok.db" >"$t/out" 2>"$t/err")
if ! grep -q "rules/capaudit.rules:2\|current directory" "$t/out" "$t/err"; then
	pass "advise: without --rules, never the current directory's rules"
else
	fail "advise: without --rules, never the current directory's rules"
fi

refused "report: a store of a newer schema says so" \
	"$t/new.db was written by a newer capaudit \(schema 7" report --store "$t/new.db"
"$capaudit" report --store "$t/neg.db" --json >"$t/out" 2>"$t/err"
if python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["rows"][0]
assert r["first_seen"] == 0 and r["last_seen"] == 200, r' "$t/out"; then
	pass "report: a first_seen of -1 in the store is 0 (unknown), not wrapped"
else
	fail "report: a first_seen of -1 in the store is 0 (unknown), not wrapped"
fi
exit $failed
