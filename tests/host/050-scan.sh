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

check "scan: fixture tree" "5 6 12 6" "$("$capaudit" scan --no-progress "$fixtures/new" | summary)"
check "scan: fixture tree, --article-filter" "5 4 9 4" \
	"$("$capaudit" scan --no-progress --article-filter "$fixtures/new" | summary)"
check "scan: old-style tree, --article-filter keeps arch/i386 and arch/x86_64" "5 3 5 1" \
	"$("$capaudit" scan --no-progress --article-filter "$fixtures/old" | summary)"
check "scan: --csv --table capabilities" "CAP_SYS_ADMIN,6,0.5000,6" \
	"$("$capaudit" scan --csv --table capabilities "$fixtures/new" | sed -n 2p)"
check "scan: --json is JSON" "12" \
	"$("$capaudit" scan --json "$fixtures/new" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["sites"]))')"

check "scan --diff: fixture trees" "removed added added added" \
	"$("$capaudit" scan --diff "$fixtures/diff/a" "$fixtures/diff/b" | awk '/^(added|removed|changed) / { printf "%s%s", s, $1; s = " " }')"
check "scan --patch: the same change as a diff" "CAP_SYS_ADMIN,2,1,0,1" \
	"$("$capaudit" scan --patch "$fixtures/ab.diff" "$fixtures/diff/a" --json |
	   python3 -c 'import json,sys; c = [x for x in json.load(sys.stdin)["capabilities"] if x["capability"] == "CAP_SYS_ADMIN"][0]; print(",".join(str(c[k]) for k in ("capability", "added", "removed", "moved_in", "moved_out")))')"

charts=$(mktemp -d)
"$capaudit" scan --svg "$charts/s.svg" --html "$charts/s.html" "$fixtures/new" >/dev/null
check "scan --svg/--html: the files are well-formed XML and HTML" "ok" \
	"$(python3 -c 'import sys, xml.dom.minidom, html.parser
xml.dom.minidom.parse(sys.argv[1]); html.parser.HTMLParser().feed(open(sys.argv[2]).read()); print("ok")' \
	"$charts/s.svg" "$charts/s.html" 2>&1)"
rm -rf "$charts"

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

# The patched build tree against the pristine one: the same net change per
# capability as the series applied to it (vm/build-kernel keeps a copy) read
# as diffs.
patched=${CAPAUDIT_PATCHED_TREE:-/var/cache/capaudit/src-6.1.192-3}
if [ ! -r "$patched/include/uapi/linux/capability.h" ]; then
	skip "scan --diff: pristine vs patched 6.1 tree (no patched tree: run 'make kernel')"
	exit $failed
fi
net_per_cap() {
	python3 -c 'import json,sys; print(" ".join(sorted("%s%+d" % (c["capability"], c["net"]) for c in json.load(sys.stdin)["capabilities"] if c["net"])) or "none")'
}
series=$patched/.capaudit-applied
from_tree=$("$capaudit" scan --no-progress --json --diff "$tree" "$patched" | net_per_cap)
all=$(mktemp); trap 'rm -f "$all"' EXIT
grep -v '^#' "$series/series" | while read -r p _; do [ -z "$p" ] || cat "$series/$p"; done >"$all"
from_patches=$("$capaudit" scan --json --patch "$all" "$tree" | net_per_cap)
check "scan --diff: pristine vs patched 6.1 tree agrees with --patch on the applied series" \
	"$from_patches" "$from_tree"
exit $failed
