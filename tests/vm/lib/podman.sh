# shellcheck shell=bash
# tests/vm/lib/podman.sh: a local image for Debian's podman, nothing pulled.
#   podman_image IMAGE   vfs storage on the guest's root, an image of
#                        busybox-static imported as IMAGE; 1 with a message
podman_image() {
	local img
	command -v podman >/dev/null || { echo "podman is not installed (scripts/deps installs it)" >&2; return 1; }
	# vfs: no overlay-on-overlay; the guest's root is an overlay on a tmpfs
	mkdir -p /etc/containers
	printf '[storage]\ndriver = "vfs"\nrunroot = "/run/containers/storage"\ngraphroot = "/var/lib/containers/storage"\n' \
		>/etc/containers/storage.conf
	img=$(mktemp -d)
	mkdir -p "$img/bin" "$img/tmp" "$img/etc" "$img/proc" "$img/sys" "$img/dev"
	cp /bin/busybox "$img/bin/" || { echo "no /bin/busybox (busybox-static)" >&2; return 1; }
	for a in sh hostname chown mknod touch true; do ln -s busybox "$img/bin/$a"; done
	tar -C "$img" -cf "$img.tar" . || return 1
	podman import -q "$img.tar" "$1" >/dev/null || { echo "podman import failed" >&2; return 1; }
	rm -rf "$img" "$img.tar"
}
