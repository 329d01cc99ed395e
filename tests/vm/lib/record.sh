# tests/vm/lib/record.sh: run `capaudit record` around a guest test.
#   record_start STORE [RECORD OPTIONS...]  returns once attached
#   record_stop [SIGNAL]                     default SIGTERM; waits, RECORD_RC
#   in_cgroup NAME CMD...                    runs CMD in /sys/fs/cgroup/NAME
: "${REPO:?}" "${CAPAUDIT:=$REPO/build/capaudit}"
export REPO CAPAUDIT

record_start() {
	RECORD_STORE=$1
	RECORD_LOG=$(mktemp /tmp/capaudit-record.XXXXXX)
	shift
	"$CAPAUDIT" record --store "$RECORD_STORE" "$@" 2>"$RECORD_LOG" &
	RECORD_PID=$!
	for _poll in $(seq 1 300); do
		grep -q '^capaudit: attached' "$RECORD_LOG" && return 0
		kill -0 "$RECORD_PID" 2>/dev/null || break
		# slow: where is it?  (once, for the log of a failure)
		[ "$_poll" != 100 ] || { echo "record not attached after 100 polls; its kernel stack:" >&2
			cat "/proc/$RECORD_PID/stack" >&2; }
		sleep 0.1
	done
	echo "record did not attach:" >&2
	cat "$RECORD_LOG" >&2
	return 1
}

record_stop() {
	kill -"${1:-TERM}" "$RECORD_PID"
	wait "$RECORD_PID"
	RECORD_RC=$?
	return 0
}

in_cgroup() {
	local cg=/sys/fs/cgroup/$1
	shift
	mkdir -p "$cg"
	sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' in_cgroup "$cg" "$@"
}
