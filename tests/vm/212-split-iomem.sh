#!/usr/bin/env bash
# kernels: patched (a split test: it checks what kernel/patches changed, or a historic split beside them)
# tests/vm/212-split-iomem.sh: patch 0003: /proc/iomem shows real addresses to an opener
# with CAP_SYSLOG (or CAP_SYS_ADMIN, with a warning), zeros to one with neither.
# Runs in the guest (vm/run); exit 0 pass, 1 fail, 77 skip.
# shellcheck source-path=SCRIPTDIR source=lib/caps.sh
. "$(dirname "$0")/lib/caps.sh"
OP=read-iomem NARROW=CAP_SYSLOG FALLBACK=1 NARROW_AUDIT=0
SITE_RE='^r_show$'
WARN='CAP_SYS_ADMIN used in place of CAP_SYSLOG by r_show ('
split_test
