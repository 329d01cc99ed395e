#!/usr/bin/env bash
# tests/host/085-cli.sh: bad command lines (unknown commands and options,
# missing and out-of-range values) give a message saying what is wrong,
# the usage, and exit status 2, for every subcommand.  Each runs with an
# empty capability bounding set, so that a command line wrongly accepted
# stops at the privilege check (exit 1) and never loads BPF on the host.
# Prints PASS/FAIL lines for tests/run.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd -P)
capaudit=${CAPAUDIT:-$repo/build/capaudit}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

unpriv() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --bounding-set -all --inh-caps -all -- "$@"
	else
		"$@"
	fi
}

# bad "WHAT THE MESSAGE SAYS (regex)" ARGS...
bad() {
	local want=$1 rc=0
	shift
	unpriv "$capaudit" "$@" >"$t/out" 2>"$t/err" </dev/null || rc=$?
	if [ $rc = 2 ] && grep -Eq "$want" "$t/err" && grep -q '^usage: capaudit' "$t/err"; then
		printf 'PASS cli: capaudit %s\n' "$*"
	else
		printf 'FAIL cli: capaudit %s (exit status %s, want 2, a message matching "%s" and the usage)\n' \
			"$*" "$rc" "$want"
		sed 's/^/    | /' "$t/err" | head -n 8
	fi
}

bad "unknown command 'nope'" nope
bad "usage" 
bad "unrecognized option '--nope'" trace --nope
bad "invalid duration '0'" trace --duration 0
bad "invalid duration 'abc'" trace -d abc
bad "invalid pid '-3'" trace -p -3
bad "power of two" trace --ringbuf-size 5000
bad "invalid capability list 'CAP_NOPE'" trace --caps CAP_NOPE
bad "unexpected argument 'extra'" trace extra
bad "requires an argument" trace --pid
bad "unrecognized option '--nope'" record --nope
bad "invalid flush interval '0'" record --flush-interval 0
bad "invalid flush interval '99999999999999999999'" record --flush-interval 99999999999999999999
bad "invalid max-keys '0'" record --max-keys 0
bad "invalid max-keys '16777217'" record --max-keys 16777217
bad "invalid max-stacks '-1'" record --max-stacks -1
bad "power of two" record --ringbuf-size 12288
bad "unexpected argument 'x'" record x
bad "unrecognized option '--nope'" report --nope
bad "maybe" report --verdict maybe
bad "yesterday" report --since yesterday
bad "invalid pid '0'" trace -p 0
bad "unrecognized option '--nope'" profile --nope
bad "unrecognized option '--nope'" advise --nope
bad "unrecognized option '--nope'" scan --nope
bad "" merge

# every message of a command begins "capaudit COMMAND:" (getopt's own too),
# and names the option and the value
for cmd in trace record report profile advise scan merge; do
	bad "^capaudit $cmd: unrecognized option '--nope'" $cmd --nope
done
bad "^capaudit report: option '--store' requires an argument" report --store
bad "^capaudit report: invalid value 'maybe' for --verdict" report --verdict maybe
bad "^capaudit report: out of range value '18446744073709552' for --since" report --since 18446744073709552
bad "^capaudit report: out of range value '-99999999999d' for --since" report --since -99999999999d
bad "^capaudit profile: invalid value 'CAP_NOPE' for --cap" profile --cap CAP_NOPE w

# capaudit --version and capaudit COMMAND --version: "capaudit VERSION"
version=$("$capaudit" --version)
if [[ $version =~ ^capaudit\ [^\ ]+$ ]]; then
	printf 'PASS cli: capaudit --version\n'
else
	printf 'FAIL cli: capaudit --version said "%s"\n' "$version"
fi
for cmd in trace record report profile advise scan merge; do
	out=$(unpriv "$capaudit" $cmd --version 2>&1)
	if [ "$out" = "$version" ]; then
		printf 'PASS cli: capaudit %s --version\n' $cmd
	else
		printf 'FAIL cli: capaudit %s --version said "%s"\n' $cmd "$out"
	fi
done
