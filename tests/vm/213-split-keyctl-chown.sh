#!/usr/bin/env bash
# kernels: patched (a split test: it checks what kernel/patches changed, or a historic split beside them)
# tests/vm/213-split-keyctl-chown.sh: patch 0004: KEYCTL_CHOWN of a key to another user needs
# CAP_CHOWN; CAP_SYS_ADMIN still works, with one deprecation warning.
# Runs in the guest (vm/run); exit 0 pass, 1 fail, 77 skip.
# shellcheck source-path=SCRIPTDIR source=lib/caps.sh
. "$(dirname "$0")/lib/caps.sh"
[ -e /proc/keys ] || skip 'kernel without CONFIG_KEYS'
OP=keyctl-chown NARROW=CAP_CHOWN FALLBACK=1 NARROW_AUDIT=0
SITE_RE='^keyctl_chown_key$'
WARN='CAP_SYS_ADMIN used in place of CAP_CHOWN by keyctl_chown_key ('
split_test
