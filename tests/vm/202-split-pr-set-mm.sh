#!/usr/bin/env bash
# kernels: patched (a split test: it checks what kernel/patches changed, or a historic split beside them)
# tests/vm/202-split-pr-set-mm.sh: historic split (prctl: Use CAP_SYS_RESOURCE for PR_SET_MM):
# PR_SET_MM needs CAP_SYS_RESOURCE, CAP_SYS_ADMIN alone is refused.
# Runs in the guest (vm/run); exit 0 pass, 1 fail, 77 skip.
# shellcheck source-path=SCRIPTDIR source=lib/caps.sh
. "$(dirname "$0")/lib/caps.sh"
OP=pr-set-mm NARROW=CAP_SYS_RESOURCE FALLBACK=0 NARROW_AUDIT=1 HISTORIC=1
SITE_RE='^(prctl_set_mm|_*(do|se|x64)_sys_prctl)$'
split_test
