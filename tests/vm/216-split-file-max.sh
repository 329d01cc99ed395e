#!/usr/bin/env bash
# kernels: patched (a split test: it checks what kernel/patches changed, or a historic split beside them)
# tests/vm/216-split-file-max.sh: patch 0007: going past fs.file-max needs CAP_SYS_RESOURCE
# (the denial is ENFILE); CAP_SYS_ADMIN still works, with one deprecation warning.
# Lowers file-max to 256 above the files in use for the runs, then restores it.
# Runs in the guest (vm/run); exit 0 pass, 1 fail, 77 skip.
# shellcheck source-path=SCRIPTDIR source=lib/caps.sh
. "$(dirname "$0")/lib/caps.sh"
saved_file_max=$(cat /proc/sys/fs/file-max)
# shellcheck disable=SC2317 # called through AFTER_RUNS
restore_file_max() { echo "$saved_file_max" >/proc/sys/fs/file-max; }
AFTER_RUNS=restore_file_max
echo $(($(cut -f1 /proc/sys/fs/file-nr) + 256)) >/proc/sys/fs/file-max ||
	{ say 'FAIL: cannot lower fs.file-max'; exit 1; }
OP=file-max NARROW=CAP_SYS_RESOURCE FALLBACK=1 NARROW_AUDIT=0
SITE_RE='^alloc_empty_file$'
WARN='CAP_SYS_ADMIN used in place of CAP_SYS_RESOURCE by alloc_empty_file ('
split_test
