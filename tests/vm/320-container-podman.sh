#!/bin/bash
# vm: systemd
# timeout: 600
# kernels: patched debian-6.12 (podman and crun are the host's Debian packages; two kernels keep make test in its budget)
# A real container runtime: Debian's podman (with crun) runs a container of
# an image built here (busybox-static, `podman import`; nothing is pulled)
# while capaudit.service records.  The container is a workload named by its
# name; `capaudit profile NAME` gives a --cap-add set without the runtime's
# set-up; the container rerun with --cap-drop=ALL plus exactly that set
# works, and fails with each capability of the set removed in turn.  The
# Kubernetes snippet is the same set, as YAML that parses.
fail() { echo "FAIL: $*" >&2; exit 1; }
DB=/var/lib/capaudit/capaudit.db
CAPAUDIT=/usr/local/bin/capaudit
NAME=capa-ctr
IMAGE=localhost/capaudit-test:1

# recording (an earlier test of this boot may have stopped it)
systemctl start capaudit || fail "capaudit.service does not start"
. "$REPO/tests/vm/lib/podman.sh"

podman_image "$IMAGE" || fail "no image $IMAGE"

# the work: CAP_SYS_ADMIN (sethostname in its UTS namespace), CAP_CHOWN,
# CAP_MKNOD; podman's default set has CAP_CHOWN, not the other two
work='hostname capa-ctr-host && touch /tmp/f && chown 1:1 /tmp/f && mknod /tmp/null c 1 3'
run() {
	podman run --rm --network=none --name "$NAME" "$@" "$IMAGE" /bin/sh -c "$work"
}
run --cap-add=SYS_ADMIN,MKNOD || fail "the container does not work with podman's defaults + SYS_ADMIN,MKNOD"
systemctl stop capaudit || fail "stop capaudit (to flush)"

"$CAPAUDIT" report --store "$DB" --json | python3 -c '
import json, sys
w = sorted({r["workload"] for r in json.load(sys.stdin)["rows"] if r["workload"].startswith("container:")})
print("container workloads:", w)
sys.exit(0 if "container:'"$NAME"'" in w else 1)' || fail "no workload container:$NAME (named by its id only?)"

out=$("$CAPAUDIT" profile --store "$DB" --json "$NAME") || fail "profile $NAME"
read -r set setup < <(printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(",".join(c[4:] for c in d["capabilities"]) or "-",
      ",".join(e["cap"] for e in d["setup_runtime"] + d["setup_manager"]) or "-")')
echo "result: $NAME: --cap-add {$set}; set-up by the runtime {$setup}"
[ "$set" != - ] || fail "$NAME: an empty set"
[ "$setup" != - ] || fail "$NAME: no set-up checks of crun/conmon seen"

# the snippets: docker's flags and Kubernetes' YAML say the same set
"$CAPAUDIT" profile --store "$DB" "$NAME" >/tmp/profile.txt || fail "profile $NAME (text)"
dock=$(sed -n 's/^  docker run --cap-drop=ALL\(.*\) IMAGE$/\1/p' /tmp/profile.txt |
	tr ' ' '\n' | sed -n 's/^--cap-add=//p' | sort | paste -sd,)
[ "$dock" = "$(tr ',' '\n' <<<"$set" | sort | paste -sd,)" ] ||
	{ cat /tmp/profile.txt; fail "docker snippet {$dock} is not {$set}"; }
sed -n '/^Kubernetes:/,$p' /tmp/profile.txt | tail -n +2 | python3 -c '
import sys, yaml
d = yaml.safe_load(sys.stdin)
c = d["securityContext"]["capabilities"]
assert c["drop"] == ["ALL"], c
print(",".join(sorted(c["add"])))' >/tmp/k8s || { cat /tmp/profile.txt; fail "the Kubernetes snippet is not valid YAML"; }
[ "$(cat /tmp/k8s)" = "$(tr ',' '\n' <<<"$set" | sort | paste -sd,)" ] ||
	fail "Kubernetes add $(cat /tmp/k8s) is not {$set}"

run --cap-drop=ALL --cap-add="$set" || fail "$NAME fails with --cap-drop=ALL --cap-add=$set"
echo "  --cap-drop=ALL --cap-add=$set: works"
for c in ${set//,/ }; do
	less=$(tr ',' '\n' <<<"$set" | grep -vx "$c" | paste -sd,)
	if run --cap-drop=ALL ${less:+--cap-add="$less"} 2>/dev/null; then
		fail "$NAME still works without $c: {$set} is not minimal"
	fi
	echo "  without $c: fails"
done
echo "container $NAME: --cap-add set sufficient and minimal"
