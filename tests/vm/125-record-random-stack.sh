#!/bin/sh
# timeout: 240
# capaudit record on a kernel stack whose offset changes at every system
# call (randomize_kstack_offset: on by default in Debian's kernels, and the
# patched kernel's plain guest is booted with it on): every check counted
# exactly and attributed to its call site, syscall and workload, each call
# site learned once (not once per stack offset), the hops table far from
# full, and only the checks made while a call site was being learned keyed
# by stack.  A test that cannot see a randomised stack fails: it would
# prove nothing.
. "$REPO/tests/vm/lib/record.sh"
T=$(mktemp -d)
N=30000		# per capbench run: 2 threads, three call sites in turn
WARM=300	# a first run, while the call sites are learned

fail() { echo "FAIL: $*" >&2; [ -z "${RECORD_LOG:-}" ] || cat "$RECORD_LOG" >&2; exit 1; }

# Is the stack offset randomised?  The command line says so, or Debian's
# config (beside the modules vm/run hands the guest) makes it the default.
randomised() {
	grep -qw 'randomize_kstack_offset=on' /proc/cmdline && return 0
	grep -qw 'randomize_kstack_offset=off' /proc/cmdline && return 1
	mods=$(sed -n 's/.*capaudit\.modules=\([^ ]*\).*/\1/p' /proc/cmdline)
	[ -n "$mods" ] || return 1
	cfg=${mods%/lib/modules/*}/boot/config-$(uname -r)
	grep -qx 'CONFIG_RANDOMIZE_KSTACK_OFFSET_DEFAULT=y' "$cfg" 2>/dev/null
}
randomised || fail "the kernel stack offset is not randomised on ${CAPAUDIT_KERNEL:-this kernel} ($(uname -r)): boot with randomize_kstack_offset=on"
echo "kernel ${CAPAUDIT_KERNEL:-?} $(uname -r): stack offset randomised"

bench() {	# N: one capbench run in bench.service
	in_cgroup bench.service "$REPO/build/progs/capbench" --threads 2 \
		--sites hostname,domainname,prsetmm "$1" >/dev/null || fail "capbench $1"
}

record_start "$T/r.db" --flush-interval 1 || exit 1
bench $WARM
sleep 1.5
bench $N
bench $N
record_stop TERM
[ "$RECORD_RC" = 0 ] || fail "record exited $RECORD_RC"
line=$(grep 'checks seen' "$RECORD_LOG")
echo "$line"

# number NAME-REGEX: the figure before NAME in the summary
number() { echo "$line" | sed -n "s/.* \([0-9][0-9]*\) $1.*/\1/p"; }
seen=$(echo "$line" | sed -n 's/.*: \([0-9]*\) checks seen.*/\1/p')
deliv=$(number delivered)
lost=$(echo "$line" | sed -n 's/.* delivered, \([0-9]*\) lost.*/\1/p')
keys=$(echo "$line" | sed -n 's/.*(\([0-9]*\) keys.*/\1/p')
sites=$(number 'call sites learned')
hops=$(echo "$line" | sed -n 's/.* from \([0-9]*\) return addresses.*/\1/p')
conflicts=$(number conflicts)
bystack=$(number 'checks keyed by stack')
[ -n "$seen" ] && [ "$seen" = "$deliv" ] && [ "$lost" = 0 ] ||
	fail "seen $seen, delivered $deliv, lost $lost"
[ "$conflicts" = 0 ] || fail "$conflicts call-site conflicts"
# three call sites of capbench, a few of capaudit's own and the shell's:
# learned once each, not once per stack offset (about 60 of them)
[ -n "$sites" ] && [ "$sites" -ge 3 ] && [ "$sites" -le 40 ] || fail "$sites call sites learned"
[ -n "$hops" ] && [ "$hops" -le 400 ] || fail "$hops return addresses in the hops table"
[ -n "$keys" ] && [ "$keys" -le 60 ] || fail "$keys keys"
# only the checks made while a call site was pending go by stack
[ -n "$bystack" ] && [ "$bystack" -le $(((2 * N + WARM) / 50)) ] ||
	fail "$bystack checks keyed by stack: the walk does not find the call sites"

"$CAPAUDIT" report --store "$T/r.db" --json >"$T/r.json" || fail "report"
python3 - "$T/r.json" $((2 * N + WARM)) <<'PY' || fail "attribution"
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["rows"]
        if r["workload"] == "bench.service" and r["comm"] == "capbench"]
each = int(sys.argv[2]) // 3
want = {("CAP_SYS_ADMIN", "sethostname", "__x64_sys_sethostname"): each,
        ("CAP_SYS_ADMIN", "setdomainname", "__x64_sys_setdomainname"): each,
        ("CAP_SYS_RESOURCE", "prctl", "prctl_set_mm"): each}
got = {}
for r in rows:
    k = (r["cap"], r["syscall"], r["call_site"])
    got[k] = got.get(k, 0) + r["count"]
    assert r["verdict"] == "granted", r
assert got == want, got
print("exact:", got)
PY
echo "ok: $sites call sites from $hops return addresses, $keys keys, $bystack of $seen checks keyed by stack"
