# shellcheck shell=bash
# tests/vm/lib/caps.sh: shared by the split tests (tests/vm/2NN-split-*.sh),
# sourced inside the guest.  Runs a command as root with exactly the named
# capabilities, reads the kernel log, runs `capaudit trace` (lib/trace.sh)
# and `capaudit record` (lib/record.sh, for the advisor) around the
# operations, and checks one split: narrow capability only, CAP_SYS_ADMIN
# only (twice: one deprecation warning), neither.
#
# Environment: REPO (the checkout, default: two levels above this file),
# CAPAUDIT ($REPO/build/capaudit), CAPOP ($REPO/build/progs/capop).

: "${REPO:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)}"
: "${CAPAUDIT:=$REPO/build/capaudit}"
: "${CAPOP:=$REPO/build/progs/capop}"
export REPO CAPAUDIT
# shellcheck source-path=SCRIPTDIR source=trace.sh
. "$REPO/tests/vm/lib/trace.sh"
# shellcheck source-path=SCRIPTDIR source=record.sh
. "$REPO/tests/vm/lib/record.sh"
CAPS_TMP=$(mktemp -d /tmp/capsplit.XXXXXX)
CAPS_FAILED=0
trap 'caps__cleanup' EXIT

caps__cleanup() {
	[ -z "${CAPS_TRACE_PID:-}" ] || kill -INT "$CAPS_TRACE_PID" 2>/dev/null
	[ -z "${CAPS_RECORD_PID:-}" ] || kill -TERM "$CAPS_RECORD_PID" 2>/dev/null
	[ -z "${AFTER_RUNS:-}" ] || "$AFTER_RUNS"
	rm -rf "$CAPS_TMP"
}

say() { printf '%s: %s\n' "${0##*/}" "$*"; }
fail() { say "FAIL: $*"; CAPS_FAILED=1; }
skip() { say "SKIP: $*"; exit 77; }

# "CAP_SYSLOG,CAP_SYS_ADMIN" -> "-all,+syslog,+sys_admin"; "none" -> "-all"
caps__setpriv_list() {
	local list=-all c
	[ "$1" = none ] && { echo "$list"; return; }
	for c in ${1//,/ }; do
		c=${c,,}
		list+=",+${c#cap_}"
	done
	echo "$list"
}

# caps_run CAPS CMD [ARG...]: run CMD as root (uid 0 kept) with exactly CAPS
# ("none" for no capability) in its permitted, effective, inheritable,
# ambient and bounding sets.  Root's exec gives it the bounding set, so the
# bounding set is what limits it.  Sets CAPS_PID (CMD's pid: setpriv execs
# it) and returns CMD's exit status.
caps_run() {
	local caps list
	caps=$1
	shift
	list=$(caps__setpriv_list "$caps")
	setpriv --inh-caps="$list" --ambient-caps="$list" --bounding-set="$list" -- "$@" &
	CAPS_PID=$!
	wait "$CAPS_PID"
}

# klog_lines STRING: the kernel log lines containing STRING, read from
# /dev/kmsg.  Not dmesg: util-linux dmesg reads through syslog(2), which
# shows nothing older than the last SYSLOG_ACTION_CLEAR (dmesg -c, and
# capop syslog-clear); /dev/kmsg keeps the whole ring buffer.
klog_lines() {
	python3 - "$1" <<'EOF'
import os, sys
want = sys.argv[1].encode()
fd = os.open("/dev/kmsg", os.O_RDONLY | os.O_NONBLOCK)
while True:
    try:
        rec = os.read(fd, 8192)
    except BlockingIOError:
        break
    except BrokenPipeError:     # overwritten while reading: go on
        continue
    text = rec.split(b";", 1)[-1].split(b"\n", 1)[0]
    if want in text:
        sys.stdout.write(text.decode(errors="replace") + "\n")
EOF
}

# True when the booted kernel carries kernel/patches (patch 1's helper).
series_booted() {
	grep -q ' __ns_capable_or_sys_admin$' /proc/kallsyms
}

# split_trace_start CAPS: trace.sh's trace_start with --json --caps CAPS;
# 2 when capaudit has no trace subcommand (the trace part is then skipped).
split_trace_start() {
	[ -x "$CAPAUDIT" ] || { say "no $CAPAUDIT: run make"; return 2; }
	"$CAPAUDIT" trace --help >/dev/null 2>&1 || { say "$CAPAUDIT has no working 'trace'"; return 2; }
	trace_start "$CAPS_TMP/trace.json" --json --caps "$1" || return 1
	CAPS_TRACE_PID=$TRACE_PID
}

# trace_check NARROW SITE_RE NARROW_AUDIT FALLBACK NARROW_PID ADMIN_PID NONE_PID
# Checks the recorded checks of each run at a call site matching SITE_RE:
#  narrow-only: NARROW granted, no CAP_SYS_ADMIN;
#  CAP_SYS_ADMIN-only: NARROW denied directly followed (same thread, same
#    syscall) by CAP_SYS_ADMIN granted when FALLBACK is 1, no CAP_SYS_ADMIN
#    check there when FALLBACK is 0;
#  neither: NARROW denied (then CAP_SYS_ADMIN denied when FALLBACK is 1).
# The narrow check's audit flag must equal NARROW_AUDIT (0: no-audit probe).
trace_check() {
	python3 - "$TRACE_OUT" "$@" <<'EOF'
import json, re, sys
path, narrow, site_re, narrow_audit, fallback, *pids = sys.argv[1:]
narrow_audit, fallback = narrow_audit == "1", fallback == "1"
site = re.compile(site_re)
pid_narrow, pid_admin, pid_none = (int(p) for p in pids)
events, bad = [], 0
with open(path) as f:
    for n, line in enumerate(f, 1):
        line = line.strip()
        if not line:
            continue
        try:
            events.append(json.loads(line))
        except ValueError:
            print(f"trace: line {n} is not JSON: {line[:80]}")
            bad += 1
def at(e):
    """e's call site without a compiler suffix (write_actions_logged.constprop.0)"""
    return site.search(e.get("call_site", "").split(".")[0])
def at_site(pid):
    return [e for e in events if e.get("pid") == pid and at(e)]
def show(evs):
    return "; ".join(f'{e["cap"]} {e["verdict"]} audit={e["audit"]} {e["call_site"]} {e["syscall"]}' for e in evs[:6]) or "none"
errors = []
def expect(cond, what, evs):
    if not cond:
        errors.append(f"{what} (saw: {show(evs)})")

def pairs(pid, verdict):
    """narrow denied directly followed, in the same thread, by CAP_SYS_ADMIN."""
    found = []
    last = {}
    for e in events:
        if e.get("pid") != pid:
            continue
        prev = last.get(e["tid"])
        last[e["tid"]] = e
        if (prev and prev["cap"] == narrow and prev["verdict"] == "denied"
                and at(prev) and e["cap"] == "CAP_SYS_ADMIN" and at(e)
                and e.get("syscall") == prev.get("syscall")):
            found.append((prev, e))
    return [p for p in found if p[1]["verdict"] == verdict]

evs = at_site(pid_narrow)
expect(any(e["cap"] == narrow and e["verdict"] == "granted" for e in evs),
       f"narrow-only run: no granted {narrow} check at {site_re}", evs)
expect(not any(e["cap"] == "CAP_SYS_ADMIN" for e in evs),
       f"narrow-only run: a CAP_SYS_ADMIN check at {site_re}", evs)
expect(all(bool(e["audit"]) == narrow_audit for e in evs if e["cap"] == narrow),
       f"narrow-only run: {narrow} audit flag is not {narrow_audit}", evs)

evs = at_site(pid_admin)
expect(any(e["cap"] == narrow and e["verdict"] == "denied" for e in evs),
       f"CAP_SYS_ADMIN-only run: no denied {narrow} check at {site_re}", evs)
if fallback:
    p = pairs(pid_admin, "granted")
    expect(p, f"CAP_SYS_ADMIN-only run: no '{narrow} denied, then CAP_SYS_ADMIN granted' at {site_re}", evs)
    expect(all(bool(b["audit"]) for a, b in p), "CAP_SYS_ADMIN fallback check is not audited", evs)
else:
    expect(not any(e["cap"] == "CAP_SYS_ADMIN" for e in evs),
           f"CAP_SYS_ADMIN-only run: a CAP_SYS_ADMIN check at {site_re} (no fallback expected)", evs)

evs = at_site(pid_none)
expect(any(e["cap"] == narrow and e["verdict"] == "denied" for e in evs),
       f"no-capability run: no denied {narrow} check at {site_re}", evs)
if fallback:
    expect(pairs(pid_none, "denied"),
           f"no-capability run: no '{narrow} denied, then CAP_SYS_ADMIN denied' at {site_re}", evs)

for e in errors:
    print("trace: " + e)
if errors:
    print(f"trace: runs: narrow-only pid {pid_narrow}, CAP_SYS_ADMIN-only pid {pid_admin}, neither pid {pid_none}; the events:")
    for e in events[:40]:
        print("trace:   " + " ".join(str(e.get(k)) for k in ("pid", "tid", "comm", "cap", "verdict", "audit", "syscall", "call_site")))
print(f"trace: {len(events)} events, {len(errors)} problems")
sys.exit(1 if errors or bad or not events else 0)
EOF
}

# advise_check NARROW SITE_RE: the advisor, over the store recorded during
# the runs, puts the call site in the class "narrower capability already
# accepted by this kernel" (narrower-accepted) with NARROW.
advise_check() {
	"$CAPAUDIT" advise --store "$RECORD_STORE" --rules "$REPO/rules/capaudit.rules" --json \
		>"$CAPS_TMP/advise.json" 2>"$CAPS_TMP/advise.err" ||
		{ say "capaudit advise failed: $(cat "$CAPS_TMP/advise.err")"; return 1; }
	python3 - "$CAPS_TMP/advise.json" "$1" "$2" <<'EOF'
import json, re, sys
path, narrow, site_re = sys.argv[1:]
site = re.compile(site_re)
sites = [s for s in json.load(open(path))["call_sites"]
         if site.search(s["call_site"].split(".")[0])]
ok = [s for s in sites if s["class"] == "narrower-accepted" and s["proposed_cap"] == narrow]
for s in sites:
    print(f'advise: {s["call_site"]}: {s["class"]} {s["proposed_cap"]} (fallbacks seen {s["fallbacks_seen"]})')
if not ok:
    print(f"advise: no call site matching {site_re} in class narrower-accepted with {narrow}")
sys.exit(0 if ok else 1)
EOF
}

# capop_expect WANT CAPS OP: run capop OP with CAPS, fail unless it exits WANT
# (0 done, 1 denied).  Leaves the pid in CAPS_PID.
capop_expect() {
	local want=$1 caps=$2 op=$3 rc out
	# not in $(...): CAPS_PID must reach the caller
	caps_run "$caps" "$CAPOP" "$op" >"$CAPS_TMP/capop.out" 2>&1
	rc=$?
	out=$(cat "$CAPS_TMP/capop.out")
	if [ "$rc" = "$want" ]; then
		say "ok: $op with $caps exits $rc: ${out##*$'\n'}"
	else
		fail "$op with $caps exits $rc, want $want: $out"
	fi
}

# split_test: the whole check of one split, from these variables:
#   OP           capop operation
#   NARROW       the capability the check moved to (CAP_SYSLOG)
#   SITE_RE      regex of the call site capaudit reports (the function that
#                calls the check, or its caller when the compiler inlined it)
#   WARN         the deprecation warning's text (fixed string)
#   FALLBACK     1: CAP_SYS_ADMIN alone still works, with WARN; 0: it does not
#   NARROW_AUDIT 0: the narrow check is a no-audit probe (the helper), 1: audited
#   HISTORIC     1: the split is in 6.1 already, no need for kernel/patches
#   AFTER_RUNS   optional: a function that undoes the test's setup, run after
#                the capop runs (and on exit)
# Exits 0 pass, 1 fail, 77 skip.
split_test() {
	local trace=0 rc pid_narrow pid_admin pid_none n
	[ -x "$CAPOP" ] || skip "no $CAPOP: run 'make progs'"
	command -v setpriv >/dev/null || skip "no setpriv (util-linux)"
	[ "$(id -u)" = 0 ] || skip "must run as root"
	[ "${HISTORIC:-0}" = 1 ] || series_booted ||
		skip "the booted kernel lacks kernel/patches (no __ns_capable_or_sys_admin): run make kernel"

	split_trace_start "$NARROW,CAP_SYS_ADMIN"
	rc=$?
	case $rc in
	0) trace=1 ;;
	2) say "trace part skipped" ;;
	*) fail "capaudit trace" ;;
	esac

	if [ $trace = 1 ] && [ "$FALLBACK" = 1 ] && "$CAPAUDIT" advise --help >/dev/null 2>&1; then
		if record_start "$CAPS_TMP/capaudit.db" --flush-interval 1; then
			CAPS_RECORD_PID=$RECORD_PID
		else
			fail "capaudit record did not start"
		fi
	fi

	capop_expect 0 "$NARROW" "$OP"
	pid_narrow=$CAPS_PID
	if [ "$FALLBACK" = 1 ]; then
		capop_expect 0 CAP_SYS_ADMIN "$OP"
		pid_admin=$CAPS_PID
		capop_expect 0 CAP_SYS_ADMIN "$OP"
	else
		capop_expect 1 CAP_SYS_ADMIN "$OP"
		pid_admin=$CAPS_PID
	fi
	capop_expect 1 none "$OP"
	pid_none=$CAPS_PID
	if [ -n "${AFTER_RUNS:-}" ]; then
		"$AFTER_RUNS"
		AFTER_RUNS=
	fi

	if [ "$FALLBACK" = 1 ]; then
		klog_lines "$WARN" >"$CAPS_TMP/warn"
		n=$(wc -l <"$CAPS_TMP/warn")
		if [ "$n" = 1 ]; then
			say "ok: deprecation warning logged once: $(cat "$CAPS_TMP/warn")"
			grep -q 'capop (' "$CAPS_TMP/warn" ||
				say "note: the warning names another task (triggered earlier in this boot)"
		else
			fail "deprecation warning '$WARN' logged $n times, want exactly 1"
		fi
	fi

	if [ $trace = 1 ]; then
		trace_stop || fail "capaudit trace did not stop cleanly"
		CAPS_TRACE_PID=
		if trace_check "$NARROW" "$SITE_RE" "$NARROW_AUDIT" "$FALLBACK" \
			"$pid_narrow" "$pid_admin" "$pid_none"; then
			say "ok: trace shows the expected checks at $SITE_RE"
		else
			cp "$TRACE_OUT" "/tmp/${0##*/}.trace.json"
			fail "trace: JSON kept in /tmp/${0##*/}.trace.json"
		fi
	fi

	if [ -n "${CAPS_RECORD_PID:-}" ]; then
		record_stop TERM
		CAPS_RECORD_PID=
		if [ "$RECORD_RC" != 0 ]; then
			fail "capaudit record exited $RECORD_RC: $(tail -n 5 "$RECORD_STORE.log")"
		elif advise_check "$NARROW" "$SITE_RE"; then
			say "ok: the advisor classes $SITE_RE narrower-accepted with $NARROW"
		else
			fail "advisor"
		fi
	fi

	[ $CAPS_FAILED = 0 ] && { say PASS; exit 0; }
	say FAIL
	exit 1
}
