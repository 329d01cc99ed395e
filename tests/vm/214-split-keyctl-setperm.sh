#!/usr/bin/env bash
# kernels: patched (a split test: it checks what kernel/patches changed, or a historic split beside them)
# tests/vm/214-split-keyctl-setperm.sh: patch 0005: KEYCTL_SETPERM on a key owned by another
# user needs CAP_FOWNER; CAP_SYS_ADMIN still works, with one deprecation warning.
# Runs in the guest (vm/run); exit 0 pass, 1 fail, 77 skip.
# shellcheck source-path=SCRIPTDIR source=lib/caps.sh
. "$(dirname "$0")/lib/caps.sh"
[ -e /proc/keys ] || skip 'kernel without CONFIG_KEYS'
"$CAPOP" keyctl-setperm-setup || { say 'FAIL: capop keyctl-setperm-setup (full capabilities)'; exit 1; }
OP=keyctl-setperm NARROW=CAP_FOWNER FALLBACK=1 NARROW_AUDIT=0
SITE_RE='^keyctl_setperm_key$'
WARN='CAP_SYS_ADMIN used in place of CAP_FOWNER by keyctl_setperm_key ('
split_test
