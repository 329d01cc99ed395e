#!/bin/sh
# timeout: 900
# SIGKILL the recorder under load at random moments, 20 times: every time
# the store passes PRAGMA integrity_check and no counter goes backwards.
. "$REPO/tests/vm/lib/record.sh"
T=$(mktemp -d)
DB=$T/capaudit.db
ROUNDS=${KILL9_ROUNDS:-20}

# load: bursts of sethostname checks (about 10000 a second), until the test
# ends.  Each burst ends in a short sleep: under TCG, a load that keeps both
# vCPUs busy in the kernel brought RCU stalls on the loaded vCPU, after which
# a round's attach and detach took minutes (docs/testing notes in the issue).
( while :; do "$REPO/build/progs/capstorm" 1000 >/dev/null; sleep 0.1; done ) &
LOAD=$!
trap 'kill $LOAD 2>/dev/null' EXIT

total() {
	sqlite3 "$DB" 'SELECT COALESCE(SUM(count), 0) FROM checks' 2>/dev/null || echo error
}
# every counter, keyed: "key|count" lines
snapshot() {
	sqlite3 "$DB" "SELECT cap||','||granted||','||audit||','||call_site||','||syscall||','||workload||','||comm||','||stack_hash, count FROM checks UNION ALL SELECT 'counter:'||name, value FROM counters" | sort
}
: >"$T/prev"
prev=0
i=1
while [ $i -le "$ROUNDS" ]; do
	t0=$(date +%s.%N)
	record_start "$DB" --flush-interval 1 || exit 1
	t1=$(date +%s.%N)
	# 0.5 to 3.0 s after attaching, SIGKILL
	sleep "$(awk -v s="$$$i" 'BEGIN { srand(s); printf "%.2f", 0.5 + rand() * 2.5 }')"
	record_stop KILL
	check=$(sqlite3 "$DB" 'PRAGMA integrity_check')
	now=$(total)
	echo "$(date +%T) round $i: attached in $(echo "$t1 - $t0" | bc) s, integrity $check, total $now (was $prev)"
	[ "$check" = ok ] || exit 1
	[ "$now" != error ] && [ "$now" -ge "$prev" ] || { echo "the total went backwards"; exit 1; }
	snapshot >"$T/now"
	# a key that was there must still be there, with a count at least as big
	awk -F'|' 'FILENAME == ARGV[1] { was[$1] = $2; next } { now[$1] = $2 }
		END { for (k in was) if (!(k in now) || now[k] + 0 < was[k] + 0) { print "backwards: " k " " was[k] " -> " now[k]; bad = 1 } exit bad }' \
		"$T/prev" "$T/now" || exit 1
	mv "$T/now" "$T/prev"
	prev=$now
	i=$((i + 1))
done
[ "$prev" -gt 0 ] || { echo "nothing was ever flushed"; exit 1; }
