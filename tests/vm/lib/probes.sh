# tests/vm/lib/probes.sh: the real programs 110-record-profile.sh records
# and replays; each run_NAME is one privileged operation.
: "${REPO:?}"
run_hostname() { hostname capaudit-rec; }
run_dmesg() { dmesg -c >/dev/null; }
run_mount() { mkdir -p /mnt/rec && mount -t tmpfs none /mnt/rec && umount /mnt/rec; }
run_chown() { chown 65534:65534 /tmp/rec-f && chown 0:0 /tmp/rec-f; }
run_bpfmap() { "$REPO/build/progs/bpfmap"; }
