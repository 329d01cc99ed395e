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
#
# The load pauses while the recorder attaches and while it is killed and
# detached: under QEMU 7.2's multi-threaded TCG, about one guest in four or
# five (of 20 rounds each) froze for good with a vCPU livelocked at the entry of
# cap_capable (the site the trampoline patches), taking interrupts and never
# executing the instruction there (vm/run --monitor: info registers -a,
# repeated), while that vCPU's QEMU thread ran at 100%.  Every other guest
# test attaches once; this one patches cap_capable 40 times, and with the
# load calling it from the other vCPU.  The kill still lands while the
# recorder has counts to flush (flush interval 1 s, load until the kill).
(
	while :; do
		if [ -e "$T/pause" ]; then
			: >"$T/paused"
			sleep 0.05
			continue
		fi
		rm -f "$T/paused"
		"$REPO/build/progs/capstorm" 1000 >/dev/null
		sleep 0.1
	done
) &
LOAD=$!
trap 'kill $LOAD 2>/dev/null' EXIT
pause_load() {
	: >"$T/pause"
	while [ ! -e "$T/paused" ]; do sleep 0.05; done
}
resume_load() { rm -f "$T/pause" "$T/paused"; }

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
	pause_load
	record_start "$DB" --flush-interval 1 || exit 1
	t1=$(date +%s.%N)
	resume_load
	# 0.5 to 3.0 s after attaching, SIGKILL
	sleep "$(awk -v s="$$$i" 'BEGIN { srand(s); printf "%.2f", 0.5 + rand() * 2.5 }')"
	pause_load
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
