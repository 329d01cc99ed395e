#!/usr/bin/env bash
# kernels: patched (a split test: it checks what kernel/patches changed, or a historic split beside them)
# tests/vm/210-split-dmesg-restrict.sh: patch 0002: writing kernel.dmesg_restrict needs CAP_SYSLOG;
# CAP_SYS_ADMIN still works, with one deprecation warning.
# Runs in the guest (vm/run); exit 0 pass, 1 fail, 77 skip.
# shellcheck source-path=SCRIPTDIR source=lib/caps.sh
. "$(dirname "$0")/lib/caps.sh"
OP=write-dmesg-restrict NARROW=CAP_SYSLOG FALLBACK=1 NARROW_AUDIT=0
SITE_RE='^proc_dointvec_minmax_syslog$'
WARN='CAP_SYS_ADMIN used in place of CAP_SYSLOG by proc_dointvec_minmax_syslog ('
split_test
