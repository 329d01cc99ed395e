#!/usr/bin/env bash
# kernels: patched (a split test: it checks what kernel/patches changed, or a historic split beside them)
# tests/vm/201-split-syslog.sh: historic split (Define CAP_SYSLOG): syslog(SYSLOG_ACTION_CLEAR), as dmesg -c,
# works with CAP_SYSLOG, with CAP_SYS_ADMIN (one warning per boot), not with neither.
# Runs in the guest (vm/run); exit 0 pass, 1 fail, 77 skip.
# shellcheck source-path=SCRIPTDIR source=lib/caps.sh
. "$(dirname "$0")/lib/caps.sh"
OP=syslog-clear NARROW=CAP_SYSLOG FALLBACK=1 NARROW_AUDIT=1 HISTORIC=1
SITE_RE='^(check_syslog_permissions|do_syslog)$'
WARN='Attempt to access syslog with CAP_SYS_ADMIN but no CAP_SYSLOG (deprecated)'
split_test
