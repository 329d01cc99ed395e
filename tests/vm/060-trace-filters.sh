#!/bin/sh
# trace's filters: -c CGROUP keeps only tasks in that cgroup (and below),
# --denied-only only denials, -p only that process; -U adds user stacks.
. "$REPO/tests/vm/lib/trace.sh"
T=$(mktemp -d)
CG=/sys/fs/cgroup/filter-test.service
mkdir -p "$CG/sub"

trace_start "$T/out" --json -c "$CG" --caps CAP_SYS_ADMIN -U || exit 1
sh -c 'echo $$ > '"$CG/sub"'/cgroup.procs; exec hostname inside-cg'
hostname outside-cg
trace_stop || exit 1
trace_assert 'any(e["comm"] == "hostname" and e["cgroup_id"] != 1 and e.get("user_stack") for e in ev)' || exit 1
trace_assert 'all(e["cgroup_id"] != 1 for e in ev)' || { echo "-c let the root cgroup through"; exit 1; }
[ "$(grep -c '"comm":"hostname"' "$T/out")" = 1 ] || { echo "want exactly the hostname inside the cgroup"; cat "$T/out"; exit 1; }

trace_start "$T/out2" --json --denied-only || exit 1
setpriv --reuid 65534 --regid 65534 --clear-groups -- hostname nope 2>/dev/null
hostname allowed
trace_stop || exit 1
TRACE_OUT=$T/out2
trace_assert 'ev and all(e["verdict"] == "denied" for e in ev)' || exit 1
trace_assert 'any(e["comm"] == "hostname" and e["uid"] == 65534 and e["cap"] == "CAP_SYS_ADMIN" for e in ev)' || exit 1

# bad filters: a clear message and exit 2 (usage) or 1 (a cgroup that is not one)
"$CAPAUDIT" trace --caps CAP_NOPE 2>"$T/e1"; [ $? = 2 ] && grep -q CAP_NOPE "$T/e1" || { cat "$T/e1"; exit 1; }
"$CAPAUDIT" trace -p 0 2>"$T/e2"; [ $? = 2 ] || { cat "$T/e2"; exit 1; }
"$CAPAUDIT" trace -c /nonexistent --duration 1 2>"$T/e3"; [ $? = 1 ] && grep -q '/nonexistent' "$T/e3" || { cat "$T/e3"; exit 1; }
