# shellcheck shell=sh
# tests/vm/lib/kernel.sh: which kernel the guest runs, sourced inside the
# guest.  tests/run exports CAPAUDIT_KERNEL (patched, debian-6.1,
# debian-6.12: see "# kernels:" in tests/run); without it (vm/run by hand)
# a kernel booted with capaudit.modules= is a Debian one.
#   kernel_is NAME...       true when the guest runs one of the named kernels
#   kernel_release_glob     the uname -r that kernel must have, as a glob
#   kernel_config           the running kernel's configuration, on stdout
#   kernel_modules_dir      a Debian kernel's modules (vm/run's capaudit.modules=)

kernel_modules_dir() {
	sed -n 's/.*[[:space:]]capaudit\.modules=\([^[:space:]]*\).*/\1/p' /proc/cmdline
}

if [ -z "${CAPAUDIT_KERNEL:-}" ]; then
	if [ -n "$(kernel_modules_dir)" ]; then
		case $(uname -r) in
		6.1.*) CAPAUDIT_KERNEL=debian-6.1 ;;
		*) CAPAUDIT_KERNEL=debian-$(uname -r | cut -d. -f1,2) ;;
		esac
	else
		CAPAUDIT_KERNEL=patched
	fi
fi
export CAPAUDIT_KERNEL

kernel_is() {
	for k in "$@"; do
		[ "$CAPAUDIT_KERNEL" = "$k" ] && return 0
	done
	return 1
}

kernel_release_glob() {
	case $CAPAUDIT_KERNEL in
	patched) echo '6.1.*' ;;
	debian-6.1) echo '6.1.0-*-amd64' ;;
	debian-*) echo "${CAPAUDIT_KERNEL#debian-}.*+deb*-amd64" ;;
	*) echo '*' ;;
	esac
}

# Ours has CONFIG_IKCONFIG_PROC; Debian's ship theirs as boot/config-* in
# the package that vm/debian-kernel extracted, beside the modules.
kernel_config() {
	if [ -r /proc/config.gz ]; then
		zcat /proc/config.gz
	else
		cat "$(kernel_modules_dir)/../../../boot/config-$(uname -r)"
	fi
}
