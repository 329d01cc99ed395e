#!/usr/bin/env bash
# kernels: patched (a split test: it checks what kernel/patches changed, or a historic split beside them)
# tests/vm/220-split-madv-soft-offline.sh: patch 0010: madvise(MADV_SOFT_OFFLINE) needs CAP_SYS_RAWIO;
# CAP_SYS_ADMIN still works, with one deprecation warning.
# Runs in the guest (vm/run); exit 0 pass, 1 fail, 77 skip.
# shellcheck source-path=SCRIPTDIR source=lib/caps.sh
. "$(dirname "$0")/lib/caps.sh"
grep -q ' soft_offline_page$' /proc/kallsyms || skip 'kernel without CONFIG_MEMORY_FAILURE'
OP=madv-soft-offline NARROW=CAP_SYS_RAWIO FALLBACK=1 NARROW_AUDIT=0
SITE_RE='^(madvise_inject_error|do_madvise)$'
WARN='CAP_SYS_ADMIN used in place of CAP_SYS_RAWIO by madvise_inject_error ('
split_test
