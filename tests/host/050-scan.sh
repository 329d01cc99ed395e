#!/usr/bin/env bash
# timeout: 300
# tests/host/050-scan.sh: capaudit scan from the command line: the fixture
# trees (exit statuses, error messages) and, when Debian's 6.1 tree is
# extracted, the reference figures of docs/counting-rule.md.
# Prints PASS/FAIL/SKIP lines for tests/run; exits 1 when a test failed.
set -uo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd -P)
capaudit=${CAPAUDIT:-$repo/build/capaudit}
fixtures=$repo/tests/fixtures/scan
tree=${CAPAUDIT_SRC_TREE:-}
failed=0

pass() { printf 'PASS %s\n' "$1"; }
fail() { printf 'FAIL %s\n' "$1"; shift; printf '    %s\n' "$@"; failed=1; }
skip() { printf 'SKIP %s\n' "$*"; }

# check NAME WANT GOT
check() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "want: $2" "got:  $3"; fi
}

# The summary of a text report as "names files uses sys_admin".
summary() {
	awk '/^capability header:/ { n = $4; sub(/\(/, "", n) }
	     /^files:/ { f = $2 }
	     /^uses:/ { u = $2; sub(/,/, "", u); s = $4 }
	     END { print n, f, u, s }'
}

if [ ! -x "$capaudit" ]; then
	fail "scan: $capaudit is built" "run 'make' first"
	exit 1
fi

check "scan: fixture tree" "5 5 12 6" "$("$capaudit" scan --no-progress "$fixtures/new" | summary)"
check "scan: fixture tree, --article-filter" "5 3 9 4" \
	"$("$capaudit" scan --no-progress --article-filter "$fixtures/new" | summary)"
check "scan: old-style tree, --article-filter keeps arch/i386 and arch/x86_64" "5 3 5 1" \
	"$("$capaudit" scan --no-progress --article-filter "$fixtures/old" | summary)"
check "scan: --csv --table capabilities" "CAP_SYS_ADMIN,6,0.5000,6" \
	"$("$capaudit" scan --csv --table capabilities "$fixtures/new" | sed -n 2p)"
check "scan: --json is JSON" "12" \
	"$("$capaudit" scan --json "$fixtures/new" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["sites"]))')"

err=$("$capaudit" scan "$fixtures/malformed" 2>&1 >/dev/null); rc=$?
check "scan: malformed header: exit 1, message names the file" \
	"1 yes" "$rc $(grep -q 'malformed/include/uapi/linux/capability.h:3: CAP_DAC_OVERRIDE' <<<"$err" && echo yes || echo "no: $err")"
err=$("$capaudit" scan "$fixtures/does-not-exist" 2>&1 >/dev/null); rc=$?
check "scan: missing tree: exit 1, message names the path" \
	"1 yes" "$rc $(grep -q 'does-not-exist: No such file or directory' <<<"$err" && echo yes || echo "no: $err")"
"$capaudit" scan >/dev/null 2>&1; rc=$?
check "scan: no tree: exit 2" 2 "$rc"
"$capaudit" scan --table nope "$fixtures/new" >/dev/null 2>&1; rc=$?
check "scan: unknown table: exit 2" 2 "$rc"

# The reference is for an unpatched tree (our kernel/patches series moves uses).
[ -n "$tree" ] || tree=$("$repo/tests/scan/pristine-tree") || tree=
if [ ! -r "$tree/include/uapi/linux/capability.h" ]; then
	skip "scan: Debian 6.1 tree (no unpatched tree: install linux-source-6.1)"
	skip "scan: Debian 6.1 tree, --article-filter"
	exit $failed
fi
check "scan: Debian 6.1 tree: names files uses SYS_ADMIN" "41 32004 1451 640" \
	"$("$capaudit" scan --no-progress "$tree" | summary)"
check "scan: Debian 6.1 tree, --article-filter" "41 9139 892 338" \
	"$("$capaudit" scan --no-progress --article-filter "$tree" | summary)"
exit $failed
