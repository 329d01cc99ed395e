#!/bin/sh
# capaudit record: SIGTERM flushes and exits 0; counts add up across
# restarts; report's text, JSON, CSV and folded forms hold what was made.
. "$REPO/tests/vm/lib/record.sh"
T=$(mktemp -d)
DB=$T/state/capaudit.db
N=2000

record_start "$DB" --flush-interval 1 || exit 1
in_cgroup storm.service "$REPO/build/progs/capstorm" "$N" >/dev/null || exit 1
record_stop TERM
[ "$RECORD_RC" = 0 ] || { echo "record exited $RECORD_RC"; cat "$RECORD_LOG"; exit 1; }
cat "$RECORD_LOG"
[ "$(stat -c %a "$T/state")" = 700 ] || { echo "state dir not 0700"; exit 1; }
[ "$(stat -c %a "$DB")" = 600 ] || { echo "store not 0600"; exit 1; }

count() {
	"$CAPAUDIT" report --store "$DB" --json | python3 -c '
import json, sys
r = json.load(sys.stdin)
assert r["schema"] == "capaudit-report" and r["version"] == 1
print(sum(x["count"] for x in r["rows"] if x["workload"] == "storm.service"
          and x["cap"] == "CAP_SYS_ADMIN" and x["syscall"] == "sethostname"
          and x["verdict"] == "granted" and x["audit"] == "audited"
          and "sethostname" in x["call_site"]))'
}
c1=$(count) || exit 1
echo "after one run: $c1 sethostname checks for storm.service"
[ "$c1" = "$N" ] || { "$CAPAUDIT" report --store "$DB"; exit 1; }

# a second run adds to the same store
record_start "$DB" --flush-interval 1 || exit 1
in_cgroup storm.service "$REPO/build/progs/capstorm" "$N" >/dev/null || exit 1
record_stop INT
[ "$RECORD_RC" = 0 ] || { echo "record exited $RECORD_RC on SIGINT"; exit 1; }
c2=$(count) || exit 1
echo "after two runs: $c2"
[ "$c2" = "$((2 * N))" ] || exit 1

"$CAPAUDIT" report --store "$DB" | grep -q 'storm.service' || { echo "text report"; exit 1; }
"$CAPAUDIT" report --store "$DB" --csv | python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
assert sum(int(r["count"]) for r in rows if r["workload"] == "storm.service" and r["syscall"] == "sethostname") == 2 * '"$N"', rows[:3]
' || { echo "CSV report"; exit 1; }
"$CAPAUDIT" report --store "$DB" --folded | grep -E '^storm\.service;capstorm;.*sethostname.*;CAP_SYS_ADMIN;granted [0-9]+$' >/dev/null ||
	{ echo "folded report"; "$CAPAUDIT" report --store "$DB" --folded | head; exit 1; }
# the store holds no raw kernel address
if sqlite3 "$DB" .dump | grep -Eq 'ffffffff[0-9a-f]{8}'; then echo "raw kernel address in the store"; exit 1; fi

# --prometheus: a text file per flush, counters per capability, verdict and
# call site; SIGHUP rereads the configuration and the rules, and a bad rules
# file is refused with its line while the daemon keeps running
mkdir -p "$T/prom"
cp "$REPO/rules/capaudit.rules" "$T/rules"
printf 'flush-interval 1\nrules %s\n' "$T/rules" >"$T/conf"
record_start "$DB" --config "$T/conf" --prometheus "$T/prom" || exit 1
in_cgroup storm.service "$REPO/build/progs/capstorm" 100 >/dev/null || exit 1
sleep 2.5
grep -E '^capaudit_checks_total\{cap="CAP_SYS_ADMIN",verdict="granted",call_site="__x64_sys_sethostname"\} [0-9]+$' \
	"$T/prom/capaudit.prom" || { echo "no sethostname series"; cat "$T/prom/capaudit.prom"; exit 1; }
grep -q '^capaudit_lost_total{cause="ringbuf_full"} [0-9]*$' "$T/prom/capaudit.prom" || exit 1
echo 'bad_rule CAP_NOPE "x" y' >>"$T/rules"
kill -HUP "$RECORD_PID"
sleep 1.5
grep -q "rules $T/rules:.*CAP_NOPE" "$RECORD_LOG" || { echo "bad rules not reported"; cat "$RECORD_LOG"; exit 1; }
grep -q 'keeping the previous rules' "$RECORD_LOG" || { cat "$RECORD_LOG"; exit 1; }
kill -0 "$RECORD_PID" || { echo "record died on a bad reload"; exit 1; }
record_stop TERM
[ "$RECORD_RC" = 0 ] || { cat "$RECORD_LOG"; exit 1; }
# no raw kernel address in any report form nor in the Prometheus file
for form in "" --json --csv --folded; do
	"$CAPAUDIT" report --store "$DB" $form >"$T/form"
	if grep -Eq 'ffffffff[0-9a-f]{8}' "$T/form"; then echo "raw kernel address in report $form"; exit 1; fi
done
"$CAPAUDIT" profile --store "$DB" storm.service >"$T/form"
"$CAPAUDIT" advise --store "$DB" --json >>"$T/form"
if grep -Eq 'ffffffff[0-9a-f]{8}' "$T/form" "$T/prom/capaudit.prom"; then
	echo "raw kernel address in profile, advise or the Prometheus file"; exit 1
fi
