#!/bin/sh
# timeout: 240
# Least privilege at run time: once attached, record and trace hold no
# capability at all (CapEff, CapPrm, CapInh and CapAmb of /proc/PID/status
# are 0) and still count every check; neither has a network socket; and
# report and profile work as an unprivileged user who can only read the
# store.
. "$REPO/tests/vm/lib/record.sh"
. "$REPO/tests/vm/lib/trace.sh"
T=$(mktemp -d)
fail() { echo "FAIL: $*" >&2; exit 1; }

no_caps() {
	grep -E '^Cap(Eff|Prm|Inh|Amb):' "/proc/$1/status"
	for set in CapEff CapPrm CapInh CapAmb; do
		[ "$(sed -n "s/^$set:[[:space:]]*//p" "/proc/$1/status")" = 0000000000000000 ] ||
			fail "$2 holds capabilities in $set after attaching"
	done
}

# every socket the process has is AF_UNIX (none in /proc/net's inet tables)
no_network() {
	for fd in /proc/$1/fd/*; do
		ino=$(readlink "$fd" | sed -n 's/^socket:\[\([0-9]*\)\]$/\1/p')
		[ -n "$ino" ] || continue
		for table in tcp tcp6 udp udp6 raw raw6; do
			awk -v i="$ino" '$10 == i { found = 1 } END { exit !found }' "/proc/net/$table" &&
				fail "$2 has an inet socket ($table)"
		done
	done
	echo "$2: no network socket"
}

DB=$T/state/capaudit.db
record_start "$DB" --flush-interval 1 || exit 1
no_caps "$RECORD_PID" record
no_network "$RECORD_PID" record
in_cgroup drop.service "$REPO/build/progs/capstorm" 500 >/dev/null || fail capstorm
record_stop TERM
[ "$RECORD_RC" = 0 ] || { cat "$RECORD_LOG"; fail "record exited $RECORD_RC"; }

trace_start "$T/trace" --json || exit 1
no_caps "$TRACE_PID" trace
no_network "$TRACE_PID" trace
hostname capaudit-drop
hostname capaudit-vm
trace_stop || exit 1
trace_assert 'any(e["comm"] == "hostname" and "sethostname" in (e["call_site"] or "") for e in ev)' ||
	fail "trace saw no symbolized hostname check after dropping its capabilities"

# an unprivileged reader: the store readable, its directory not writable
mkdir -p "$T/ro"
cp "$DB" "$T/ro/capaudit.db"
chmod 0755 "$T" "$T/ro"
chmod 0644 "$T/ro/capaudit.db"
as_nobody() { setpriv --reuid 65534 --regid 65534 --clear-groups --bounding-set -all -- "$@"; }
as_nobody "$CAPAUDIT" report --store "$T/ro/capaudit.db" --json >"$T/report.json" 2>"$T/err" ||
	{ cat "$T/err"; fail "report as nobody"; }
python3 - "$T/report.json" <<'PY' || fail "report as nobody: the 500 checks of drop.service"
import json, sys
r = json.load(open(sys.argv[1]))
n = sum(x["count"] for x in r["rows"] if x["workload"] == "drop.service" and x["syscall"] == "sethostname")
print("report as nobody: drop.service made", n, "sethostname checks")
sys.exit(0 if n == 500 else 1)
PY
as_nobody "$CAPAUDIT" profile --store "$T/ro/capaudit.db" drop.service >"$T/profile" 2>"$T/err" ||
	{ cat "$T/err"; fail "profile as nobody"; }
grep -q CAP_SYS_ADMIN "$T/profile" || { cat "$T/profile"; fail "profile as nobody lacks CAP_SYS_ADMIN"; }
[ ! -e "$T/ro/capaudit.db-wal" ] || fail "the reader created a WAL file"
