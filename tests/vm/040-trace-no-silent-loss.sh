#!/bin/sh
# capstorm makes exactly N sethostname checks: every one is delivered, or
# the loss counters account for each missing one (delivered + lost = made).
. "$REPO/tests/vm/lib/trace.sh"
N=${CAPSTORM_N:-100000}
T=$(mktemp -d)
trace_storm "$N" --caps CAP_SYS_ADMIN || exit 1
got=$(grep -c '"syscall":"sethostname"' "$T/out")
seen=$(trace_summary seen)
delivered=$(trace_summary delivered)
lost=$(trace_summary lost)
echo "made $N, delivered $got sethostname events; kernel: seen $seen delivered $delivered lost $lost"
[ "$delivered" -eq "$(grep -c '^{' "$T/out")" ] || { echo "summary's delivered != lines" >&2; exit 1; }
[ "$((delivered + lost))" -eq "$seen" ] || { echo "seen != delivered + lost" >&2; exit 1; }
[ "$((got + lost))" -ge "$N" ] || { echo "$((N - got - lost)) checks unaccounted for" >&2; exit 1; }
