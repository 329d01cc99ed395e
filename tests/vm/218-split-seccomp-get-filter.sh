#!/usr/bin/env bash
# kernels: patched (a split test: it checks what kernel/patches changed, or a historic split beside them)
# tests/vm/218-split-seccomp-get-filter.sh: patch 0009: PTRACE_SECCOMP_GET_FILTER needs
# CAP_CHECKPOINT_RESTORE (the denial is EACCES); CAP_SYS_ADMIN still works, with a warning.
# Runs in the guest (vm/run); exit 0 pass, 1 fail, 77 skip.
# shellcheck source-path=SCRIPTDIR source=lib/caps.sh
. "$(dirname "$0")/lib/caps.sh"
OP=seccomp-get-filter NARROW=CAP_CHECKPOINT_RESTORE FALLBACK=1 NARROW_AUDIT=0
SITE_RE='^seccomp_get_filter$'
WARN='CAP_SYS_ADMIN used in place of CAP_CHECKPOINT_RESTORE by seccomp_get_filter ('
split_test
