#!/bin/sh
# timeout: 600
# kernels: patched (advise --source joins our kernel's tree and vmlinux with the checks of the running kernel)
# capaudit advise --source: `hostname` and `mount` recorded, then the static
# CAP_SYS_ADMIN call sites of the kernel's tree joined with the observed ones
# through vmlinux's DWARF: sethostname's site in kernel/sys.c and the mount
# site in fs/namespace.c observed, with their workloads; coverage below 100%.
. "$REPO/tests/vm/lib/record.sh"
TREE=/var/cache/capaudit/src-6.1.192-3
VMLINUX=$("$REPO/vm/build-kernel" --print-dir)/vmlinux
[ -d "$TREE" ] || { echo "no kernel tree at $TREE (run make kernel)"; exit 77; }
[ -r "$VMLINUX" ] || { echo "no $VMLINUX (run make kernel)"; exit 77; }
T=$(mktemp -d)
DB=$T/capaudit.db

record_start "$DB" --flush-interval 1 || exit 1
in_cgroup host.service hostname capaudit-x || exit 1
mkdir -p "$T/mnt"
in_cgroup mnt.service mount -t tmpfs none "$T/mnt" || exit 1
umount "$T/mnt"
sleep 1.5
record_stop TERM
[ "$RECORD_RC" = 0 ] || { echo "record exited $RECORD_RC"; cat "$RECORD_LOG"; exit 1; }

start=$(date +%s)
"$CAPAUDIT" advise --store "$DB" --source "$TREE" --vmlinux "$VMLINUX" --json >"$T/cov.json" 2>"$T/cov.err" ||
	{ echo "advise --source failed"; cat "$T/cov.err"; exit 1; }
# the guest runs the kernel that vmlinux belongs to
if grep -q 'build IDs differ' "$T/cov.err"; then cat "$T/cov.err"; exit 1; fi
echo "advise --source --json took $(($(date +%s) - start)) s"
python3 - "$T/cov.json" <<'PY' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
assert r["schema"] == "capaudit-coverage" and r["version"] == 1, r.get("schema")
sites = r["sites"]
assert r["static_sites"] == len(sites) > 100, r["static_sites"]
seen = [s for s in sites if s["observed"]]
assert r["observed_sites"] == len(seen) > 0
assert 0 < r["coverage_percent"] < 100, r["coverage_percent"]
for s in seen:
    print("observed %s:%d %s %s checks=%d %s %s" % (s["file"], s["line"], s["function"],
          s["helper"], s["checks"], s["workloads"], s["frames"]))
for u in r["unmatched"]:
    print("unmatched", u)
def find(file, fn, workload):
    return [s for s in seen if s["file"] == file and fn in s["function"]
            and workload in s["workloads"] and s["checks"] > 0]
assert find("kernel/sys.c", "sethostname", "host.service"), "sethostname's site not observed"
assert [s for s in seen if s["file"] == "fs/namespace.c" and "mnt.service" in s["workloads"]], \
    "no fs/namespace.c site observed for mount"
# mount_capable() tail-calls ns_capable(): reached through path_mount's frame
assert [s for s in seen if s["file"] == "fs/super.c" and s["function"] == "mount_capable"
        and "mnt.service" in s["workloads"] and "mount_capable" in s["via"]], \
    "fs/super.c mount_capable (a tail call) not observed"
assert all(s["checks"] == 0 and not s["workloads"] for s in sites if not s["observed"])
print("coverage: %d of %d static CAP_SYS_ADMIN sites (%.2f%%)" % (
      r["observed_sites"], r["static_sites"], r["coverage_percent"]))
PY

# text, on a small copy of the tree (a full scan over 9p takes long here):
# exactly its sites are listed, the observed ones with their workloads
mkdir -p "$T/tree/include/uapi/linux" "$T/tree/kernel" "$T/tree/fs"
cp "$TREE/include/uapi/linux/capability.h" "$T/tree/include/uapi/linux/"
cp "$TREE/kernel/sys.c" "$T/tree/kernel/"
cp "$TREE/fs/namespace.c" "$TREE/fs/super.c" "$T/tree/fs/"
"$CAPAUDIT" advise --store "$DB" --source "$T/tree" --vmlinux "$VMLINUX" >"$T/cov.txt" || exit 1
cat "$T/cov.txt"
n=$("$CAPAUDIT" scan --csv --table sites "$T/tree" | grep -c ',CAP_SYS_ADMIN,')
grep -Eq "^static CAP_SYS_ADMIN call sites: $n, observed: [1-9][0-9]* \(coverage [0-9.]+%\)\$" "$T/cov.txt" ||
	{ echo "expected $n static sites"; exit 1; }
grep -Eq '^kernel/sys.c:[0-9]+ +sys_sethostname .* yes +[1-9][0-9]* .*host.service' "$T/cov.txt" ||
	{ echo "sethostname not observed in the text form"; exit 1; }
grep -Eq '^kernel/sys.c:[0-9]+ +sys_setdomainname .* no +0 -$' "$T/cov.txt" ||
	{ echo "setdomainname should be never observed"; exit 1; }

# what is missing says what to do
if "$CAPAUDIT" advise --store "$DB" --source "$TREE" --vmlinux /etc/hostname 2>"$T/err"; then
	echo "a vmlinux that is no ELF file accepted"; exit 1
fi
grep -q 'not an ELF file.*--vmlinux' "$T/err" || { cat "$T/err"; exit 1; }
if "$CAPAUDIT" advise --store "$DB" --source "$T/nosuch" --vmlinux "$VMLINUX" 2>"$T/err"; then
	echo "a missing tree accepted"; exit 1
fi
grep -q "nosuch.*pass the source tree" "$T/err" || { cat "$T/err"; exit 1; }
exit 0
