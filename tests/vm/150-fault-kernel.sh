#!/bin/sh
# timeout: 300
# Faults on the kernel's side, each a clear message and a non-zero exit,
# never a crash: a kernel without BTF (/sys/kernel/btf/vmlinux hidden),
# the --btf option that could not work and is gone; and hidden kernel
# addresses (kptr_restrict=2): stacks of unknown frames with one warning.
. "$REPO/tests/vm/lib/trace.sh"
T=$(mktemp -d)
fail() { echo "FAIL: $*" >&2; exit 1; }

# expect_refusal NAME PATTERN [TRACE OPTIONS]: exit 1, PATTERN in stderr, no crash
expect_refusal() {
	name=$1 pattern=$2
	shift 2
	rc=0
	"$CAPAUDIT" trace --duration 1 "$@" >"$T/out" 2>"$T/err" || rc=$?
	echo "== $name: exit status $rc"
	cat "$T/err"
	[ $rc = 1 ] || fail "$name: exit status $rc, not 1"
	grep -q "$pattern" "$T/err" || fail "$name: no '$pattern' in the message"
}

# 1. no BTF at all: the kernel's file hidden under an empty one
mount --bind /dev/null /sys/kernel/btf/vmlinux || fail "cannot hide /sys/kernel/btf/vmlinux"
expect_refusal "no BTF" 'has no BTF.*CONFIG_DEBUG_INFO_BTF=y'
umount /sys/kernel/btf/vmlinux

# 2. (--btf FILE is gone: the program reads the kernel's structures by the
#    running kernel's own BTF, so no other file can stand in for it)
rc=0
"$CAPAUDIT" trace --btf /sys/kernel/btf/vmlinux >/dev/null 2>"$T/err" || rc=$?
[ $rc = 2 ] && grep -q "unrecognized option '--btf'" "$T/err" || fail "--btf: exit status $rc: $(cat "$T/err")"

# 5. kptr_restrict=2: even root reads zero addresses; one warning, frames unknown
old=$(cat /proc/sys/kernel/kptr_restrict)
echo 2 >/proc/sys/kernel/kptr_restrict
trace_start "$T/trace" --json || { echo $old >/proc/sys/kernel/kptr_restrict; exit 1; }
hostname capaudit-kptr
hostname capaudit-vm
trace_stop
rc=$?
echo "$old" >/proc/sys/kernel/kptr_restrict
[ $rc = 0 ] || fail "trace with hidden addresses exited $rc"
cat "$T/trace.err"
[ "$(grep -c 'addresses are hidden' "$T/trace.err")" = 1 ] || fail "not exactly one warning"
trace_assert '[e for e in ev if e["comm"] == "hostname"] and all(e["call_site"] == "[unknown]" and e["stack"] and all(f == "[unknown]" for f in e["stack"]) for e in ev)' ||
	fail "hidden addresses: frames are not unknown"
! grep -q 'ffffffff' "$T/trace" || fail "a raw kernel address is in the output"
echo "all kernel faults refused clearly"
