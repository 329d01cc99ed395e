#!/bin/sh
# tests/vm/000-boot.sh: the guest vm/run boots is the one the tests expect:
# the kernel $CAPAUDIT_KERNEL names (capaudit's 6.1, or Debian's with its
# modules loadable) with BTF, the mounts vm/init promises, a writable
# overlay that hides the host, and the checkout at its host path.
# timeout: 30
fail() { echo "000-boot: $*"; exit 1; }
. "$REPO/tests/vm/lib/kernel.sh"

# shellcheck disable=SC2254 # the glob is the point
case $(uname -r) in
$(kernel_release_glob)) ;;
*) fail "kernel $(uname -r), want $(kernel_release_glob) ($CAPAUDIT_KERNEL)" ;;
esac
if kernel_is patched; then
	[ -z "$(cat /proc/sys/kernel/modprobe)" ] || fail "kernel.modprobe is set on a kernel without modules"
else
	[ -s "/lib/modules/$(uname -r)/modules.dep" ] || fail "no /lib/modules/$(uname -r)/modules.dep"
	[ "$(cat /proc/sys/kernel/modprobe)" = /sbin/modprobe ] ||
		fail "kernel.modprobe is '$(cat /proc/sys/kernel/modprobe)', want /sbin/modprobe"
	grep -q '^9p ' /proc/modules || fail "9p is not a loaded module"
	# a module that nothing loaded yet, on demand (a request_module())
	grep -q '^dummy ' /proc/modules && fail "dummy is loaded already"
	ip link add capaudit-dummy type dummy || fail "cannot add a dummy link (module autoloading?)"
	grep -q '^dummy ' /proc/modules || fail "the dummy module did not load on demand"
	ip link del capaudit-dummy
fi
[ "$(id -u)" = 0 ] || fail "running as uid $(id -u), want root"
[ "$(hostname)" = capaudit-vm ] || fail "hostname $(hostname), want capaudit-vm"
[ -s /sys/kernel/btf/vmlinux ] || fail "no BTF at /sys/kernel/btf/vmlinux (CONFIG_DEBUG_INFO_BTF)"
kernel_config | grep -qx CONFIG_BPF_SYSCALL=y || fail "CONFIG_BPF_SYSCALL is not set (or no config)"

# Every mount vm/init makes, with its file system type.
for m in /:overlay /proc:proc /sys:sysfs /dev:devtmpfs /run:tmpfs \
	/sys/fs/cgroup:cgroup2 /sys/fs/bpf:bpf /sys/kernel/debug:debugfs \
	/sys/kernel/tracing:tracefs; do
	dir=${m%%:*} type=${m#*:}
	awk -v d="$dir" -v t="$type" '$2 == d && $3 == t { found = 1 } END { exit !found }' \
		/proc/mounts || fail "$dir is not a $type mount: $(grep " $dir " /proc/mounts)"
done

# The overlay takes writes anywhere, the checkout included.
probe=capaudit-boot-probe.$$
for d in / /etc /usr/bin /tmp "$REPO"; do
	echo written >"$d/$probe" || fail "cannot write in $d"
	[ "$(cat "$d/$probe")" = written ] || fail "$d/$probe does not read back"
	rm "$d/$probe" || fail "cannot remove $d/$probe"
done

[ -x "$REPO/vm/init" ] || fail "the checkout is not visible at $REPO"
[ "$CAPAUDIT" = "$REPO/build/capaudit" ] || fail "CAPAUDIT is '$CAPAUDIT', want $REPO/build/capaudit"
[ -c /dev/null ] && [ -e /dev/fd/1 ] || fail "/dev/null or /dev/fd missing"
[ "$(cat /sys/fs/cgroup/cgroup.controllers 2>/dev/null)" != "" ] || fail "cgroup2 has no controllers"
grep -q cap_capable /proc/kallsyms || fail "cap_capable is not in /proc/kallsyms"
exit 0
