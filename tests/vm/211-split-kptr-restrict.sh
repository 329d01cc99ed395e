#!/usr/bin/env bash
# kernels: patched (a split test: it checks what kernel/patches changed, or a historic split beside them)
# tests/vm/211-split-kptr-restrict.sh: patch 0002: writing kernel.kptr_restrict needs CAP_SYSLOG.
# Same handler, so the same call site as 210: still one warning for both.
# Runs in the guest (vm/run); exit 0 pass, 1 fail, 77 skip.
# shellcheck source-path=SCRIPTDIR source=lib/caps.sh
. "$(dirname "$0")/lib/caps.sh"
OP=write-kptr-restrict NARROW=CAP_SYSLOG FALLBACK=1 NARROW_AUDIT=0
SITE_RE='^proc_dointvec_minmax_syslog$'
WARN='CAP_SYS_ADMIN used in place of CAP_SYSLOG by proc_dointvec_minmax_syslog ('
split_test
