# tests/vm/lib/trace.sh: start and stop `capaudit trace` around a guest test.
#   trace_start OUT [TRACE OPTIONS...]   trace into OUT (stderr into OUT.err),
#                                        returns once the programs are attached
#   trace_stop                           SIGINT, wait, summary in OUT.err
#   trace_summary FIELD                  seen|delivered|lost|nostack|mismatch
: "${REPO:?}" "${CAPAUDIT:=$REPO/build/capaudit}"

trace_start() {
	TRACE_OUT=$1
	shift
	"$CAPAUDIT" trace "$@" >"$TRACE_OUT" 2>"$TRACE_OUT.err" &
	TRACE_PID=$!
	for _ in $(seq 1 300); do
		grep -q '^capaudit: attached' "$TRACE_OUT.err" && return 0
		kill -0 "$TRACE_PID" 2>/dev/null || break
		sleep 0.1
	done
	echo "trace did not attach:" >&2
	cat "$TRACE_OUT.err" >&2
	return 1
}

trace_stop() {
	kill -INT "$TRACE_PID"
	wait "$TRACE_PID"
	TRACE_RC=$?
	[ "$TRACE_RC" = 0 ] || { echo "trace exited $TRACE_RC:" >&2; cat "$TRACE_OUT.err" >&2; }
	return "$TRACE_RC"
}

trace_summary() {
	sed -n 's/^capaudit: \([0-9]*\) checks seen in the kernel, \([0-9]*\) delivered, \([0-9]*\) lost.*; \([0-9]*\) without a stack; \([0-9]*\) entry.*/seen=\1 delivered=\2 lost=\3 nostack=\4 mismatch=\5/p' \
		"$TRACE_OUT.err" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

# jq-like checks without jq: python3 reads the JSON lines of OUT and
# evaluates an expression over `ev` (the list of events); exit 0 if true.
trace_assert() {
	python3 - "$TRACE_OUT" "$1" <<'PY'
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
ok = eval(sys.argv[2], {"ev": ev})
if not ok:
    print("assertion failed:", sys.argv[2], file=sys.stderr)
    for e in ev[-20:]:
        print(json.dumps({k: e.get(k) for k in ("comm", "cap", "verdict", "audit", "syscall", "call_site")}), file=sys.stderr)
sys.exit(0 if ok else 1)
PY
}

# trace_storm N [TRACE OPTIONS...]: capstorm makes N sethostname checks once
# `capaudit trace -p ITS_PID --json OPTIONS` is attached to it; trace stopped
# after it.  Output in $T/out (trace) and $T/storm (capstorm's own lines).
trace_storm() {
	local n=$1
	shift
	mkfifo "$T/go"
	"$REPO/build/progs/capstorm" --wait "$n" <"$T/go" >"$T/storm" &
	STORM=$!
	exec 3>"$T/go"
	until grep -q pid "$T/storm"; do sleep 0.1; done
	trace_start "$T/out" --json -p "$STORM" "$@" || return 1
	echo go >&3
	exec 3>&-
	wait "$STORM" || { cat "$T/storm" >&2; return 1; }
	trace_stop || return 1
	cat "$T/storm" "$T/out.err"
}
