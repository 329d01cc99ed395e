#!/bin/bash
# vm: systemd
# timeout: 900
# kernels: patched debian-6.12 (the services and systemd are the host's; two kernels keep make test in its budget)
# Real services that Debian ships with systemd, driven through their own
# clients while capaudit.service records: systemd-hostnamed (hostnamectl),
# systemd-timedated (timedatectl), systemd-localed (localectl) and
# systemd-networkd (a .network file for lo and networkctl; it runs as
# systemd-network).  For each, `capaudit profile` gives a set, without what
# systemd needed to set the unit up; the set is applied as a drop-in
# (CapabilityBoundingSet=, and AmbientCapabilities= for the non-root one),
# the service restarted and driven again: it works.  With each capability of
# the set removed in turn, the client sees the failure.  Each service's set
# is printed as a "result:" line (tests/run shows it under PASS).
fail() { echo "FAIL: $*" >&2; exit 1; }
DB=/var/lib/capaudit/capaudit.db
CAPAUDIT=/usr/local/bin/capaudit
services="systemd-hostnamed systemd-timedated systemd-localed systemd-networkd"

# recording (an earlier test of this boot may have stopped it)
systemctl start capaudit || fail "capaudit.service does not start"

# systemd-networkd: an address on lo that each drive changes (lo: our
# kernel has no dummy or veth links).  The guest runs no udev, and networkd
# configures links without it only where /sys is read-only (as in a
# container): a drop-in of the test VM, not of the profile.
mkdir -p /run/systemd/network /run/systemd/system/systemd-networkd.service.d
printf '[Service]\nReadOnlyPaths=/sys\n' \
	>/run/systemd/system/systemd-networkd.service.d/00-guest-without-udev.conf
systemctl daemon-reload
timedatectl set-ntp false 2>/dev/null

n=0
# drive SERVICE: use it through its client; 0 when the change happened
drive() {
	n=$((n + 1))
	case $1 in
	systemd-hostnamed)
		hostnamectl hostname "capa-host-$n" && [ "$(hostname)" = "capa-host-$n" ] ;;
	systemd-timedated)
		timedatectl set-time "2026-12-07 12:00:$((n % 50 + 10))" ;;
	systemd-localed)
		localectl set-locale "LANG=C.UTF-8" "LC_MESSAGES=C.UTF-$n" 2>/dev/null
		localectl set-locale "LANG=C.UTF-8" || return 1
		grep -q '^LANG=C.UTF-8' /etc/default/locale 2>/dev/null ||
			grep -q '^LANG=C.UTF-8' /etc/locale.conf 2>/dev/null ;;
	systemd-networkd)
		printf '[Match]\nName=lo\n[Network]\nAddress=10.77.%d.1/32\n' "$n" \
			>/run/systemd/network/10-capa-lo.network
		systemctl is-active -q systemd-networkd || systemctl start systemd-networkd || return 1
		networkctl reload || return 1
		for _ in $(seq 1 40); do
			ip -br addr show lo 2>/dev/null | grep -q "10\.77\.$n\.1/32" && return 0
			sleep 0.25
		done
		return 1 ;;
	esac
}

# restart SERVICE: with the drop-in just written
restart() {
	systemctl daemon-reload
	systemctl reset-failed "$1" 2>/dev/null
	systemctl restart "$1" || return 1
	[ "$1" != systemd-networkd ] || sleep 1
}

# apply SERVICE CAPS AMBIENT: the drop-in (empty assignments reset the unit's own)
apply() {
	mkdir -p "/run/systemd/system/$1.service.d"
	{
		printf '[Service]\nCapabilityBoundingSet=\nCapabilityBoundingSet=%s\n' "$2"
		[ -z "$3" ] || printf 'AmbientCapabilities=\nAmbientCapabilities=%s\n' "$2"
	} >"/run/systemd/system/$1.service.d/capaudit-profile.conf"
	restart "$1"
}

for s in $services; do
	drive "$s" || fail "$s does not work before any change (drive $n)"
done
systemctl stop capaudit || fail "stop capaudit (to flush)"

for s in $services; do
	out=$("$CAPAUDIT" profile --store "$DB" --json "$s.service") || fail "profile $s.service"
	read -r set root setup < <(printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(",".join(d["capabilities"]) or "-", d["runs_as_root"],
      ",".join(e["cap"] for e in d["setup_manager"]) or "-")')
	[ "$set" = - ] && set=
	echo "result: $s: recommended {${set}} runs_as_root=$root; set-up by systemd {${setup}}"
	[ "$setup" != - ] || fail "$s: no set-up checks seen (systemd's sandboxing of the unit)"
	ambient=
	case $root in
	True) ;;
	False) ambient=yes ;;
	*) fail "$s: the profile does not say whether it ran as root ($root)" ;;
	esac
	# the text snippet says the same
	"$CAPAUDIT" profile --store "$DB" "$s.service" >/tmp/profile.txt || fail "profile $s (text)"
	grep -qx "  CapabilityBoundingSet=${set//,/ }" /tmp/profile.txt ||
		{ cat /tmp/profile.txt; fail "$s: the unit snippet is not CapabilityBoundingSet=$set"; }
	if [ -n "$ambient" ]; then
		grep -qx "  AmbientCapabilities=${set//,/ }" /tmp/profile.txt &&
			grep -q '^  User=' /tmp/profile.txt ||
			{ cat /tmp/profile.txt; fail "$s runs as another user: no User= and AmbientCapabilities="; }
	elif grep -q '^  AmbientCapabilities=\|^  User=' /tmp/profile.txt; then
		cat /tmp/profile.txt
		fail "$s runs as root: the snippet must not say AmbientCapabilities= or User="
	fi

	apply "$s" "${set//,/ }" "$ambient" || fail "$s does not start with its set {$set}"
	drive "$s" || fail "$s fails with its recommended set {$set}"
	echo "  with {$set}: works"
	for c in ${set//,/ }; do
		less=$(printf '%s\n' ${set//,/ } | grep -vx "$c" | tr '\n' ' ')
		if apply "$s" "$less" "$ambient" && drive "$s"; then
			fail "$s still works without $c: the set {$set} is not minimal"
		fi
		echo "  without $c: the client sees the failure"
	done
	rm "/run/systemd/system/$s.service.d/capaudit-profile.conf"
	restart "$s" || fail "$s does not restart without the drop-in"
done
echo "all real services: sets sufficient and minimal"
