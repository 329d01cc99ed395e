#!/usr/bin/env bash
# tests/host/080-unit.sh: capaudit.service passes `systemd-analyze verify`,
# keeps the exposure score README.md documents, grants no CAP_SYS_ADMIN and
# only what it documents; etc/capaudit.conf names every option of capaudit
# record and parses; `make install`/`uninstall` into a DESTDIR put the files
# in place with the installed paths and take them away again.  Only reads
# the unit (no systemd is started).  Prints PASS/FAIL lines for tests/run.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd -P)
capaudit=${CAPAUDIT:-$repo/build/capaudit}
unit=$repo/capaudit.service
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
failed=0
pass() { printf 'PASS %s\n' "$1"; }
fail() { printf 'FAIL %s\n' "$1"; failed=1; }

if ! command -v systemd-analyze >/dev/null; then
	printf 'SKIP capaudit.service (no systemd-analyze)\n'
	exit 0
fi

# verify needs ExecStart's binary and the Documentation= man page to exist
mkdir -p "$t/man/man8"
cp "$repo/docs/capaudit.8" "$t/man/man8/"
sed "s|^ExecStart=/usr/local/bin/capaudit |ExecStart=$capaudit |" "$unit" >"$t/capaudit.service"
if MANPATH=$t/man systemd-analyze verify "$t/capaudit.service" >"$t/verify" 2>&1 &&
	! [ -s "$t/verify" ]; then
	pass "systemd-analyze verify capaudit.service is clean"
else
	fail "systemd-analyze verify capaudit.service is clean"
	sed 's/^/  /' "$t/verify"
fi

documented=$(sed -n 's/.*exposure score[^0-9]*\([0-9]\+\.[0-9]\).*/\1/p' "$repo/README.md" | head -1)
score=$(systemd-analyze security --offline=yes "$t/capaudit.service" 2>/dev/null |
	sed -n 's/.*Overall exposure level for capaudit.service: \([0-9.]*\).*/\1/p')
if [ -n "$documented" ] && [ -n "$score" ] &&
	awk -v s="$score" -v d="$documented" 'BEGIN { exit !(s <= d && d <= 2.0) }'; then
	pass "exposure score $score <= $documented (README.md) <= 2.0"
else
	fail "exposure score '${score}' <= '${documented}' (README.md) <= 2.0"
fi

# the capabilities: exactly the documented four, in both sets
grep -n 'CAP_SYS_ADMIN' "$unit" | grep -v '^[0-9]*:#' >"$t/admin"
for key in CapabilityBoundingSet AmbientCapabilities; do
	caps=$(sed -n "s/^$key=//p" "$unit" | tr ' ' '\n' | sort | tr '\n' ' ')
	if [ "$caps" = "CAP_BPF CAP_DAC_READ_SEARCH CAP_PERFMON CAP_SYSLOG " ] && ! [ -s "$t/admin" ]; then
		pass "$key= is CAP_BPF CAP_DAC_READ_SEARCH CAP_PERFMON CAP_SYSLOG, no CAP_SYS_ADMIN"
	else
		fail "$key= is CAP_BPF CAP_DAC_READ_SEARCH CAP_PERFMON CAP_SYSLOG, no CAP_SYS_ADMIN (got '$caps')"
		sed 's/^/  /' "$t/admin"
	fi
done
# ...and the unit systemd would run agrees
systemd-analyze security --offline=yes --json=short "$t/capaudit.service" >"$t/sec.json" 2>/dev/null
if python3 - "$t/sec.json" <<'PY'; then
import json, sys
rows = {r["name"]: r for r in json.load(open(sys.argv[1]))}
sys.exit(0 if rows["CapabilityBoundingSet=~CAP_SYS_ADMIN"]["set"] else 1)
PY
	pass "systemd-analyze: no CAP_SYS_ADMIN in the bounding set"
else
	fail "systemd-analyze: no CAP_SYS_ADMIN in the bounding set"
fi

# etc/capaudit.conf: every record option, and each of its lines parses
conf=$repo/etc/capaudit.conf
"$capaudit" record --help | sed -n 's/^ *\(-., \)\?--\([a-z-]*\).*/\2/p' |
	grep -vx -e config -e help -e version | sort >"$t/opts"
sed -n 's/^#\([a-z][a-z-]*\)\( .*\)\?$/\1/p' "$conf" | sort >"$t/conf-opts"
if [ -s "$t/opts" ] && diff "$t/opts" "$t/conf-opts" >"$t/diff"; then
	pass "capaudit.conf shows every record option"
else
	fail "capaudit.conf shows every record option"
	sed 's/^/  /' "$t/diff"
fi
# --help after --config: the file is parsed, nothing is loaded
sed -n 's/^#\([a-z][a-z-]*\( .*\)\?\)$/\1/p' "$conf" >"$t/all.conf"
if "$capaudit" record --config "$t/all.conf" --help >/dev/null 2>"$t/err"; then
	pass "capaudit.conf with every option uncommented parses"
else
	fail "capaudit.conf with every option uncommented parses"
	sed 's/^/  /' "$t/err"
fi
echo 'flush-interval 0' >"$t/bad.conf"
"$capaudit" record --config "$t/bad.conf" --help >/dev/null 2>&1
[ $? = 2 ] && pass "a bad configuration value is a usage error" ||
	fail "a bad configuration value is a usage error"

# make install / uninstall into a DESTDIR, with another PREFIX, built in a
# copy of build/ (only what names the paths is rebuilt; build/ is untouched)
d=$t/root
b=$t/build
mkdir -p "$b"
(cd "$repo/build" && cp -a obj .deps vmlinux.h capaudit.bpf.o capaudit.skel.h syscall_names.h \
	libcapaudit.a capaudit "$b/") 2>/dev/null
inst() { make -s -C "$repo" BUILD="$b" PREFIX=/usr DESTDIR="$d" "$@"; }
if inst install >"$t/install" 2>&1 &&
	[ -x "$d/usr/bin/capaudit" ] && [ -f "$d/usr/share/capaudit/capaudit.rules" ] &&
	[ -f "$d/usr/share/man/man8/capaudit.8" ] && [ -f "$d/etc/capaudit/capaudit.conf" ] &&
	grep -qx 'ExecStart=/usr/bin/capaudit record' "$d/usr/lib/systemd/system/capaudit.service" &&
	grep -q '^#rules /usr/share/capaudit/capaudit.rules$' "$d/etc/capaudit/capaudit.conf" &&
	strings "$d/usr/bin/capaudit" | grep -c '^/usr/share/capaudit/capaudit.rules$' >/dev/null; then
	pass "make install PREFIX=/usr DESTDIR=... installs with the installed paths"
else
	fail "make install PREFIX=/usr DESTDIR=... installs with the installed paths"
	sed 's/^/  /' "$t/install"
fi
echo 'flush-interval 10' >>"$d/etc/capaudit/capaudit.conf"
inst install >/dev/null 2>&1
if grep -qx 'flush-interval 10' "$d/etc/capaudit/capaudit.conf"; then
	pass "make install keeps an existing configuration"
else
	fail "make install keeps an existing configuration"
fi
inst uninstall >/dev/null 2>&1
left=$(cd "$d" && find . -type f | sort | tr '\n' ' ')
if [ "$left" = "./etc/capaudit/capaudit.conf " ]; then
	pass "make uninstall removes all but the edited configuration"
else
	fail "make uninstall removes all but the edited configuration (left: $left)"
fi
exit $failed
