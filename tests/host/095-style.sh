#!/usr/bin/env bash
# timeout: 300
# tests/host/095-style.sh: the kernel's checkpatch.pl finds no error in any
# patch of kernel/patches (make checkpatch) and no error or warning in
# capaudit's own C (make lint: scripts/checkpatch --sources); and the source
# check does catch a style error, in a file made for it.  Prints PASS/FAIL
# lines for tests/run.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd -P)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
failed=0
pass() { printf 'PASS %s\n' "$1"; }
fail() {
	printf 'FAIL %s\n' "$1"
	sed 's/^/    | /' "$t/out"
	failed=1
}

if "$repo/scripts/checkpatch" >"$t/out" 2>&1; then
	pass "checkpatch: no error in the patches of kernel/patches"
else
	fail "checkpatch: errors in kernel/patches (make checkpatch)"
fi

if "$repo/scripts/checkpatch" --sources >"$t/out" 2>&1; then
	pass "checkpatch --sources: capaudit's C has no style error or warning"
else
	fail "checkpatch --sources: style errors or warnings in capaudit's C (make lint)"
fi

# A tree with one good and one bad file: the bad one is named, by its line
mkdir -p "$t/src/daemon"
printf '%s\n' '// SPDX-License-Identifier: GPL-2.0' '/* good.c: a function */' \
	'int good(int x)' '{' '	if (x)' '		return 1;' '	return 0;' '}' >"$t/src/daemon/good.c"
sed -e 's/good/bad/g' -e '5,6c\	if (x) { return 1; }' "$t/src/daemon/good.c" >"$t/src/daemon/bad.c"
"$repo/scripts/checkpatch" --sources "$t/src" >"$t/out" 2>&1
rc=$?
if [ $rc = 1 ] && grep -q '^daemon/bad.c:5: ERROR:TRAILING_STATEMENTS' "$t/out" &&
	! grep -q 'good.c' "$t/out"; then
	pass "checkpatch --sources names a bad file's line and passes a good one"
else
	echo "exit $rc" >>"$t/out"
	fail "checkpatch --sources on a bad file"
fi
rm "$t/src/daemon/bad.c"
if "$repo/scripts/checkpatch" --sources "$t/src" >"$t/out" 2>&1; then
	pass "checkpatch --sources passes a tree of good files"
else
	fail "checkpatch --sources on a good file"
fi
exit $failed
