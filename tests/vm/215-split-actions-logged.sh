#!/usr/bin/env bash
# kernels: patched (a split test: it checks what kernel/patches changed, or a historic split beside them)
# tests/vm/215-split-actions-logged.sh: patch 0006: writing kernel.seccomp.actions_logged needs
# CAP_AUDIT_CONTROL; CAP_SYS_ADMIN still works, with one deprecation warning.
# Runs in the guest (vm/run); exit 0 pass, 1 fail, 77 skip.
# shellcheck source-path=SCRIPTDIR source=lib/caps.sh
. "$(dirname "$0")/lib/caps.sh"
[ -e /proc/sys/kernel/seccomp/actions_logged ] || skip 'kernel without CONFIG_SECCOMP'
OP=write-actions-logged NARROW=CAP_AUDIT_CONTROL FALLBACK=1 NARROW_AUDIT=0
SITE_RE='^(write_actions_logged|seccomp_actions_logged_handler)$'
WARN='CAP_SYS_ADMIN used in place of CAP_AUDIT_CONTROL by write_actions_logged ('
split_test
