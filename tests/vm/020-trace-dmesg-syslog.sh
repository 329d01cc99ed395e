#!/bin/sh
# kernels: patched debian-6.1 (6.12 dropped the CAP_SYS_ADMIN fallback of syslog(2): CAP_SYSLOG or nothing)
# dmesg -c without CAP_SYSLOG but with CAP_SYS_ADMIN: the historic CAP_SYSLOG
# split in 6.1: CAP_SYSLOG denied, then CAP_SYS_ADMIN granted, both from
# check_syslog_permissions, and the deprecation warning in the kernel log.
. "$REPO/tests/vm/lib/trace.sh"
T=$(mktemp -d)
trace_start "$T/out" --json --caps CAP_SYSLOG,CAP_SYS_ADMIN || exit 1
setpriv --bounding-set -syslog -- dmesg -c >/dev/null || exit 1
trace_stop || exit 1
trace_assert '
[(a["cap"], a["verdict"], b["cap"], b["verdict"]) for a, b in zip(ev, ev[1:])
 if a["comm"] == b["comm"] == "dmesg" and a["tid"] == b["tid"]
 and a["syscall"] == b["syscall"] == "syslog"
 and a["call_site"] == b["call_site"] == "check_syslog_permissions"
 and a["cap"] == "CAP_SYSLOG" and a["verdict"] == "denied"
 and b["cap"] == "CAP_SYS_ADMIN" and b["verdict"] == "granted"]' || exit 1
# /dev/kmsg, not dmesg(1): after dmesg -c, dmesg(1) shows nothing older
dd if=/dev/kmsg iflag=nonblock bs=8192 2>/dev/null |
	grep -q 'dmesg ([0-9]*): Attempt to access syslog with CAP_SYS_ADMIN but no CAP_SYSLOG' || {
	echo "no CAP_SYSLOG deprecation warning in the kernel log" >&2
	exit 1
}
