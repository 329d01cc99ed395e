#!/bin/bash
# vm: systemd
# timeout: 900
# kernels: patched debian-6.12 (podman, crun, docker and runc are the host's Debian packages; two kernels keep make test in its budget)
# Real container runtimes: Debian's podman (with crun) and docker (with
# containerd and runc) each run a container of an image built here
# (busybox-static, imported; nothing is pulled) while capaudit.service
# records.  The container is a workload named by its name, with its image;
# `capaudit profile NAME` gives a --cap-add set without the runtime's set-up; the
# container rerun with --cap-drop=ALL plus exactly that set works, and fails
# with each capability of the set removed in turn.  The Kubernetes snippet
# is the same set, as YAML that parses.
fail() { echo "FAIL: $*" >&2; exit 1; }
DB=/var/lib/capaudit/capaudit.db
CAPAUDIT=/usr/local/bin/capaudit
. "$REPO/tests/vm/lib/containers.sh"

# the work: CAP_SYS_ADMIN (sethostname in its UTS namespace), CAP_CHOWN,
# CAP_MKNOD; podman's default set has CAP_CHOWN, docker's CAP_CHOWN and
# CAP_MKNOD, neither CAP_SYS_ADMIN
work='hostname capa-ctr-host && touch /tmp/f && chown 1:1 /tmp/f && mknod /tmp/null c 1 3'
# run [--cap-drop=ALL] CAPS: one --cap-add per capability (docker takes no list)
run() {
	local drop=() add=() c
	[ "$1" != --cap-drop=ALL ] || { drop=(--cap-drop=ALL); shift; }
	for c in ${1//,/ }; do add+=(--cap-add="$c"); done
	"$RT" run --rm --network=none --name "$NAME" "${drop[@]}" "${add[@]}" "$IMAGE" /bin/sh -c "$work"
}

for RT in podman docker; do
NAME=capa-$RT
IMAGE=localhost/capaudit-test-$RT:1
container_image "$RT" "$IMAGE" || fail "no $RT image $IMAGE"
# recording (an earlier test of this boot, or runtime, may have stopped it)
systemctl start capaudit || fail "capaudit.service does not start"
run SYS_ADMIN,MKNOD || fail "$NAME does not work with $RT's defaults + SYS_ADMIN,MKNOD"
systemctl stop capaudit || fail "stop capaudit (to flush)"

"$CAPAUDIT" report --store "$DB" --json | python3 -c '
import json, sys
w = sorted({r["workload"] for r in json.load(sys.stdin)["rows"] if r["workload"].startswith("container:")})
print("container workloads:", w)
sys.exit(0 if "container:'"$NAME"'" in w else 1)' || fail "no workload container:$NAME (named by its id only?)"

out=$("$CAPAUDIT" profile --store "$DB" --json "$NAME") || fail "profile $NAME"
read -r set setup image < <(printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(",".join(c[4:] for c in d["capabilities"]) or "-",
      ",".join(e["cap"] for e in d["setup_runtime"] + d["setup_manager"]) or "-", d["image"])')
echo "result: $RT container $NAME (image $image): --cap-add {$set}; set-up by the runtime {$setup}"
[ "$image" = "$IMAGE" ] || fail "$NAME: the profile's image is '$image', not $IMAGE"
[ "$set" != - ] || fail "$NAME: an empty set"
[ "$setup" != - ] || fail "$NAME: no set-up checks of the runtime (crun, runc, conmon, shim) seen"

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

run --cap-drop=ALL "$set" || fail "$NAME fails with --cap-drop=ALL --cap-add=$set"
echo "  --cap-drop=ALL --cap-add=$set: works"
for c in ${set//,/ }; do
	less=$(tr ',' '\n' <<<"$set" | grep -vx "$c" | paste -sd,)
	if run --cap-drop=ALL "$less" 2>/dev/null; then
		fail "$NAME still works without $c: {$set} is not minimal"
	fi
	echo "  without $c: fails"
done
echo "$RT container $NAME: --cap-add set sufficient and minimal"
done
