#!/bin/sh
# The ring buffer overflowed on purpose: a 4 KiB ring (about 45 records)
# and a burst of N sethostname checks from one process.  Events are lost,
# and every lost one is counted exactly: the kernel saw N checks of that
# process, and delivered + lost = N, with delivered the lines printed.
. "$REPO/tests/vm/lib/trace.sh"
N=${CAPSTORM_N:-20000}
T=$(mktemp -d)
trace_storm "$N" --caps CAP_SYS_ADMIN --ringbuf-size 4096 || exit 1
lines=$(grep -c '"syscall":"sethostname"' "$T/out")
seen=$(trace_summary seen)
delivered=$(trace_summary delivered)
lost=$(trace_summary lost)
echo "made $N; kernel: seen $seen, delivered $delivered, lost $lost; $lines lines"
[ "$seen" -eq "$N" ] || { echo "seen $seen != made $N" >&2; exit 1; }
[ "$lost" -gt 0 ] || { echo "nothing was lost: the ring did not overflow" >&2; exit 1; }
[ "$((delivered + lost))" -eq "$N" ] || { echo "delivered + lost != made" >&2; exit 1; }
[ "$lines" -eq "$delivered" ] || { echo "lines $lines != delivered $delivered" >&2; exit 1; }
