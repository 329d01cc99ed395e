#!/bin/sh
# timeout: 300
# Faults on the kernel's side, each a clear message and a non-zero exit,
# never a crash: a kernel without BTF (/sys/kernel/btf/vmlinux hidden), a
# BTF file that cannot be read, types without cap_capable(), types that do
# not match the kernel (libbpf's CO-RE fails, the verifier refuses the
# program); and hidden kernel addresses (kptr_restrict=2): stacks of
# unknown frames with one warning.
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
expect_refusal "no BTF" 'has no BTF.*CONFIG_DEBUG_INFO_BTF=y, or --btf FILE'
umount /sys/kernel/btf/vmlinux

# 2. --btf with a file that is not there, or not BTF
expect_refusal "--btf missing" "cannot read BTF from $T/none: No such file" --btf "$T/none"
echo garbage >"$T/garbage"
expect_refusal "--btf garbage" "cannot read BTF from $T/garbage" --btf "$T/garbage"

# 3. types without cap_capable(): the BPF object's own BTF
expect_refusal "no cap_capable" 'no cap_capable() in its BTF' --btf "$REPO/build/capaudit.bpf.o"

# 4. types of another kernel: CO-RE fails, the verifier refuses
gcc -g -c "$REPO/tests/fixtures/btf/wrong-types.c" -o "$T/wrong.o" &&
	pahole -J "$T/wrong.o" || fail "cannot make the wrong types' BTF"
expect_refusal "verifier" 'cannot load the BPF program' --btf "$T/wrong.o"
grep -q 'verifier log' "$T/err" || fail "verifier: the log's tail is not shown"
grep -qi 'relo\|invalid func\|CO-RE' "$T/err" || fail "verifier: the log does not say why"

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
