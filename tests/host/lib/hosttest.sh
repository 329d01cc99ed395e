# shellcheck shell=bash disable=SC2034
# tests/host/lib/hosttest.sh: what a host test script starts with, sourced
# after `set -uo pipefail`: $repo, $capaudit (the build's, or $CAPAUDIT), a
# scratch directory $t removed at exit, and the verdict helpers:
#   pass NAME | fail NAME [DETAIL...] | check NAME WANT GOT
# A script ends with `exit $failed`.
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd -P)
capaudit=${CAPAUDIT:-$repo/build/capaudit}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
failed=0
pass() { printf 'PASS %s\n' "$1"; }
fail() { printf 'FAIL %s\n' "$1"; shift; [ $# = 0 ] || printf '    %s\n' "$@"; failed=1; }
check() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "want: $2" "got:  $3"; fi
}
