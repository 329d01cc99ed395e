#!/usr/bin/env bash
# kernels: patched (a split test: it checks what kernel/patches changed, or a historic split beside them)
# tests/vm/219-split-seccomp-get-metadata.sh: patch 0009: PTRACE_SECCOMP_GET_METADATA needs
# CAP_CHECKPOINT_RESTORE (the denial is EACCES); its own call site, its own warning.
# Runs in the guest (vm/run); exit 0 pass, 1 fail, 77 skip.
# shellcheck source-path=SCRIPTDIR source=lib/caps.sh
. "$(dirname "$0")/lib/caps.sh"
OP=seccomp-get-metadata NARROW=CAP_CHECKPOINT_RESTORE FALLBACK=1 NARROW_AUDIT=0
SITE_RE='^seccomp_get_metadata$'
WARN='CAP_SYS_ADMIN used in place of CAP_CHECKPOINT_RESTORE by seccomp_get_metadata ('
split_test
