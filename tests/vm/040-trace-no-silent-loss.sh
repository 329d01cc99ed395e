#!/bin/sh
# capstorm makes exactly N sethostname checks: every one is delivered, or
# the loss counters account for each missing one (delivered + lost = made).
. "$REPO/tests/vm/lib/trace.sh"
N=${CAPSTORM_N:-100000}
T=$(mktemp -d)
mkfifo "$T/go"
"$REPO/build/progs/capstorm" --wait "$N" <"$T/go" >"$T/storm" &
STORM=$!
exec 3>"$T/go"
until grep -q pid "$T/storm"; do sleep 0.1; done
trace_start "$T/out" --json -p "$STORM" --caps CAP_SYS_ADMIN || exit 1
echo go >&3
exec 3>&-
wait "$STORM" || { cat "$T/storm" >&2; exit 1; }
trace_stop || exit 1
cat "$T/storm" "$T/out.err"
got=$(grep -c '"syscall":"sethostname"' "$T/out")
seen=$(trace_summary seen)
delivered=$(trace_summary delivered)
lost=$(trace_summary lost)
echo "made $N, delivered $got sethostname events; kernel: seen $seen delivered $delivered lost $lost"
[ "$delivered" -eq "$(grep -c '^{' "$T/out")" ] || { echo "summary's delivered != lines" >&2; exit 1; }
[ "$((delivered + lost))" -eq "$seen" ] || { echo "seen != delivered + lost" >&2; exit 1; }
[ "$((got + lost))" -ge "$N" ] || { echo "$((N - got - lost)) checks unaccounted for" >&2; exit 1; }
