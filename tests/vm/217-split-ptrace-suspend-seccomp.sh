#!/usr/bin/env bash
# kernels: patched (a split test: it checks what kernel/patches changed, or a historic split beside them)
# tests/vm/217-split-ptrace-suspend-seccomp.sh: patch 0008: PTRACE_O_SUSPEND_SECCOMP needs
# CAP_CHECKPOINT_RESTORE; CAP_SYS_ADMIN still works, with one deprecation warning.
# Runs in the guest (vm/run); exit 0 pass, 1 fail, 77 skip.
# shellcheck source-path=SCRIPTDIR source=lib/caps.sh
. "$(dirname "$0")/lib/caps.sh"
OP=ptrace-suspend-seccomp NARROW=CAP_CHECKPOINT_RESTORE FALLBACK=1 NARROW_AUDIT=0
SITE_RE='^(check_ptrace_options|ptrace_attach|ptrace_setoptions|ptrace_request|_*(do|se|x64)_sys_ptrace)$'
WARN='CAP_SYS_ADMIN used in place of CAP_CHECKPOINT_RESTORE by check_ptrace_options ('
split_test
