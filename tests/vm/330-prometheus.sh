#!/bin/bash
# timeout: 300
# kernels: patched debian-6.12 (Prometheus and node_exporter are the host's; two kernels keep make test in its budget)
# Fleet metrics in a real Prometheus: `capaudit record --prometheus DIR`
# writes the text file, Debian's prometheus-node-exporter serves it
# (--collector.textfile.directory), Debian's prometheus scrapes it on the
# loopback, and PromQL over its HTTP API returns the counts the store holds:
# checks per capability and verdict, checks seen and every loss counter.
# The example queries of docs/metrics.md are run too.
. "$REPO/tests/vm/lib/record.sh"
fail() { echo "FAIL: $*" >&2; [ -z "${T:-}" ] || tail -n 5 "$T"/*.log >&2; exit 1; }
T=$(mktemp -d /tmp/prom.XXXXXX)
command -v prometheus >/dev/null && command -v prometheus-node-exporter >/dev/null ||
	fail "prometheus and prometheus-node-exporter are not installed (scripts/deps installs them)"
ip link set lo up

mkdir -p "$T/textfile"
record_start "$T/capaudit.db" --prometheus "$T/textfile" --flush-interval 1 || fail "record"
in_cgroup prom-a.service "$REPO/build/progs/capstorm" 700 >/dev/null || fail capstorm
in_cgroup prom-b.service hostname capaudit-prom || fail hostname
hostname capaudit-vm
sysctl -q kernel.dmesg_restrict=1
in_cgroup prom-c.service dmesg >/dev/null 2>&1
record_stop
[ "$RECORD_RC" = 0 ] || fail "record exited $RECORD_RC"
[ -s "$T/textfile/capaudit.prom" ] || fail "no capaudit.prom written"

prometheus-node-exporter --collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$T/textfile" --web.listen-address=127.0.0.1:19100 \
	>"$T/node.log" 2>&1 &
node_pid=$!
cat >"$T/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: capaudit
    static_configs:
      - targets: ['127.0.0.1:19100']
EOF
prometheus --config.file="$T/prometheus.yml" --storage.tsdb.path="$T/tsdb" \
	--web.listen-address=127.0.0.1:19090 >"$T/prometheus.log" 2>&1 &
prom_pid=$!
trap 'kill $node_pid $prom_pid 2>/dev/null' EXIT

# query EXPR: the instant vector as "labels value" lines, sorted
query() {
	python3 - "$1" <<'EOF'
import json, sys, urllib.parse, urllib.request
url = "http://127.0.0.1:19090/api/v1/query?" + urllib.parse.urlencode({"query": sys.argv[1]})
d = json.load(urllib.request.urlopen(url, timeout=5))
assert d["status"] == "success", d
out = []
for r in d["data"]["result"]:
    m = {k: v for k, v in r["metric"].items() if k not in ("instance", "job", "__name__")}
    out.append("%s %s" % (",".join("%s=%s" % kv for kv in sorted(m.items())), r["value"][1]))
print("\n".join(sorted(out)))
EOF
}

for _ in $(seq 1 120); do
	[ -n "$(query 'capaudit_kernel_checks_total' 2>/dev/null)" ] && break
	sleep 0.5
done
[ -n "$(query 'capaudit_kernel_checks_total' 2>/dev/null)" ] || fail "Prometheus never scraped capaudit's counters"

# what the store says, in the same form
"$CAPAUDIT" report --store "$T/capaudit.db" --json >"$T/report.json" || fail "report --json"
python3 - "$T/report.json" >"$T/want" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
sums = {}
for r in d["rows"]:
    k = (r["cap"], r["verdict"])
    sums[k] = sums.get(k, 0) + r["count"]
for (cap, verdict), n in sums.items():
    print("cap=%s,verdict=%s %d" % (cap, verdict, n))
EOF
sort -o "$T/want" "$T/want"
query 'sum by (cap, verdict) (capaudit_checks_total)' >"$T/got" || fail "PromQL sum by (cap, verdict)"
diff "$T/want" "$T/got" || fail "Prometheus' checks per capability and verdict differ from the store's"
echo "result: checks per capability and verdict in Prometheus = the store's ($(wc -l <"$T/got") series)"
grep -q '^cap=CAP_SYS_ADMIN,verdict=granted ' "$T/got" || fail "no granted CAP_SYS_ADMIN series"

python3 - "$T/report.json" >"$T/want" <<'EOF'
import json, sys
k = json.load(open(sys.argv[1]))["kernel"]
print("%d" % k["seen"])
for cause, key in (("entry_exit_mismatch", "mismatch"), ("no_stack", "lost_stack"),
                   ("recursion", "missed_recursion"), ("ringbuf_full", "lost_ringbuf")):
    print("cause=%s %d" % (cause, k[key]))
EOF
{ query 'capaudit_kernel_checks_total' | sed 's/^ //'; query 'capaudit_lost_total'; } >"$T/got"
diff "$T/want" "$T/got" || fail "Prometheus' seen and lost counters differ from the store's"
echo "result: checks seen $(head -n 1 "$T/got"), losses $(tail -n 4 "$T/got" | tr '\n' ' ')"

# the example queries of docs/metrics.md give an answer
sed -n 's/^    \(.*capaudit_.*\)$/\1/p' "$REPO/docs/metrics.md" >"$T/examples"
[ "$(wc -l <"$T/examples")" -ge 3 ] || fail "docs/metrics.md has fewer than three example queries"
while IFS= read -r q; do
	[ -n "$(query "$q")" ] || fail "the example query '$q' returns nothing"
	echo "example query ok: $q"
done <"$T/examples"
kill "$node_pid" "$prom_pid"
wait "$node_pid" "$prom_pid" 2>/dev/null
trap - EXIT
