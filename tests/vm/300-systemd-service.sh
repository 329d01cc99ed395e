#!/bin/sh
# vm: systemd
# timeout: 400
# capaudit.service under systemd (vm/run --systemd starts it at boot):
# active only once attached (Type=notify); no CAP_SYS_ADMIN, nothing but what
# the unit grants; checks made in transient units are reported under their
# names; stop flushes, restart keeps the counts, reload rereads the rules
# (and works right after boot);
# systemd-analyze verify is clean on the installed unit.
fail() { echo "FAIL: $*" >&2; journalctl -u capaudit --no-pager | tail -n 20 >&2; exit 1; }
DB=/var/lib/capaudit/capaudit.db
CAPAUDIT=/usr/local/bin/capaudit

[ "$(systemctl is-active capaudit)" = active ] || fail "capaudit.service is not active at boot"
# reload right after boot, before anything restarted the service (it once
# failed here: the command's fresh /tmp hid the service's PrivateTmp=)
systemctl reload capaudit || fail "reload right after boot"

# Type=notify: `systemctl start` returns once the BPF link exists
systemctl stop capaudit || fail "stop"
systemctl start capaudit || fail "start"
pid=$(systemctl show -p MainPID --value capaudit)
links=$(ls -l "/proc/$pid/fd" 2>/dev/null | grep -c 'anon_inode:bpf_link')
echo "capaudit.service active, main pid $pid, $links BPF link(s)"
[ "$links" -ge 1 ] || fail "active before the BPF programs were attached"
systemctl show -p StatusText --value capaudit | grep -q 'attached' || fail "no STATUS= after READY=1"

# capabilities: none beyond the unit's, never CAP_SYS_ADMIN
grep -E '^Cap(Eff|Prm|Bnd|Amb):' "/proc/$pid/status"
eff=$(sed -n 's/^CapEff:[[:space:]]*//p' "/proc/$pid/status")
bnd=$(sed -n 's/^CapBnd:[[:space:]]*//p' "/proc/$pid/status")
prm=$(sed -n 's/^CapPrm:[[:space:]]*//p' "/proc/$pid/status")
# CAP_DAC_READ_SEARCH 2, CAP_SYSLOG 34, CAP_PERFMON 38, CAP_BPF 39; CAP_SYS_ADMIN 21
granted=$(( (1 << 2) | (1 << 34) | (1 << 38) | (1 << 39) ))
[ $(( 0x$eff & ~granted )) = 0 ] || fail "CapEff $eff holds more than the unit grants"
[ $(( 0x$eff & (1 << 21) )) = 0 ] || fail "CapEff holds CAP_SYS_ADMIN"
[ $(( 0x$bnd )) = $granted ] || fail "CapBnd $bnd is not CAP_BPF CAP_DAC_READ_SEARCH CAP_PERFMON CAP_SYSLOG"
# attached: only CAP_DAC_READ_SEARCH is left, permitted and not effective
[ $(( 0x$eff )) = 0 ] || fail "CapEff $eff: a capability is still effective after attaching"
[ $(( 0x$prm )) = $(( 1 << 2 )) ] || fail "CapPrm $prm: not CAP_DAC_READ_SEARCH alone after attaching"

# workloads in transient units
sysctl -q kernel.dmesg_restrict=1
systemd-run --wait -q --unit=probe-hostname hostname capaudit-probe || fail "probe-hostname"
systemd-run --wait -q --unit=probe-dmesg dmesg >/dev/null || fail "probe-dmesg"
systemd-run --wait -q --unit=probe-storm "$REPO/build/progs/capstorm" 300 || fail "probe-storm"
hostname capaudit-vm
systemctl stop capaudit || fail "stop"

count() {
	"$CAPAUDIT" report --store "$DB" --json | python3 -c '
import json, sys
unit, cap = sys.argv[1:3]
print(sum(r["count"] for r in json.load(sys.stdin)["rows"]
          if r["workload"] == unit and r["cap"] == cap and r["verdict"] == "granted"))' "$1" "$2"
}
n=$(count probe-hostname.service CAP_SYS_ADMIN)
echo "probe-hostname.service: $n granted CAP_SYS_ADMIN checks"
[ "$n" -ge 1 ] || { "$CAPAUDIT" report --store "$DB"; fail "hostname not under probe-hostname.service"; }
n=$(count probe-dmesg.service CAP_SYSLOG)
echo "probe-dmesg.service: $n granted CAP_SYSLOG checks"
[ "$n" -ge 1 ] || { "$CAPAUDIT" report --store "$DB"; fail "dmesg not under probe-dmesg.service"; }
n=$(count probe-storm.service CAP_SYS_ADMIN)
echo "after stop: probe-storm.service: $n"
[ "$n" = 300 ] || fail "stop did not flush every check: $n of 300"

# structured journal fields: what the daemon logs can be selected on
journalctl -u capaudit CAPAUDIT_EVENT=attached -o export --no-pager | grep -q '^CAPAUDIT_ATTACH=fexit$' ||
	fail "no CAPAUDIT_EVENT=attached entry with CAPAUDIT_ATTACH=fexit in the journal"
journalctl -u capaudit CAPAUDIT_EVENT=stopped -o export --no-pager | grep -q '^CAPAUDIT_LOST=0$' ||
	fail "no CAPAUDIT_EVENT=stopped entry with CAPAUDIT_LOST=0 in the journal"

# restart keeps the counts
systemctl start capaudit || fail "start again"
systemd-run --wait -q --unit=probe-storm2 "$REPO/build/progs/capstorm" 200 || fail "probe-storm2"
systemctl restart capaudit || fail "restart"
systemd-run --wait -q --unit=probe-storm2 "$REPO/build/progs/capstorm" 100 || fail "probe-storm2 again"
systemctl stop capaudit
n=$(count probe-storm.service CAP_SYS_ADMIN)
m=$(count probe-storm2.service CAP_SYS_ADMIN)
echo "after restart: probe-storm.service $n, probe-storm2.service $m"
[ "$n" = 300 ] && [ "$m" = 300 ] || fail "restart lost counts"

# reload rereads the rules: a bad one is refused, the daemon keeps running
# (five starts in 30 s so far: StartLimitBurst=; an operator's reset)
systemctl reset-failed capaudit
cp /usr/local/share/capaudit/capaudit.rules /etc/capaudit/test.rules
echo "rules /etc/capaudit/test.rules" >>/etc/capaudit/capaudit.conf
systemctl start capaudit || fail "start with rules"
echo 'bad_rule CAP_NOPE "x" y' >>/etc/capaudit/test.rules
systemctl reload capaudit || fail "reload"
sleep 2
journalctl -u capaudit --no-pager | grep -q 'keeping the previous rules' || fail "reload did not reread the rules"
[ "$(systemctl is-active capaudit)" = active ] || fail "a bad reload stopped the daemon"
sed -i '$d' /etc/capaudit/test.rules
systemctl reload capaudit || fail "reload"
sleep 2
journalctl -u capaudit --no-pager | grep -q 'configuration and rules reloaded' || fail "no reload message"

# the installed unit verifies cleanly
systemd-analyze verify /usr/local/lib/systemd/system/capaudit.service 2>&1 | tee /tmp/verify
[ ! -s /tmp/verify ] || fail "systemd-analyze verify is not clean"
