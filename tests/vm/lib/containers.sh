# shellcheck shell=bash
# tests/vm/lib/containers.sh: a local image for Debian's podman or docker,
# nothing pulled.
#   container_image RUNTIME IMAGE   RUNTIME (podman or docker) set up to run
#                                   on the guest (vfs storage; docker: its
#                                   daemon started, no bridge or iptables),
#                                   and an image of busybox-static imported
#                                   as IMAGE; 1 with a message
container_image() {
	local rt=$1 img
	command -v "$rt" >/dev/null || { echo "$rt is not installed (scripts/deps installs it)" >&2; return 1; }
	# vfs: no overlay-on-overlay; the guest's root is an overlay on a tmpfs
	case $rt in
	podman)
		mkdir -p /etc/containers
		printf '[storage]\ndriver = "vfs"\nrunroot = "/run/containers/storage"\ngraphroot = "/var/lib/containers/storage"\n' \
			>/etc/containers/storage.conf ;;
	docker)
		mkdir -p /etc/docker
		printf '{"storage-driver": "vfs", "iptables": false, "ip6tables": false, "bridge": "none", "ip-forward": false, "ip-masq": false}\n' \
			>/etc/docker/daemon.json
		systemctl start containerd docker || { echo "dockerd does not start" >&2; return 1; } ;;
	*) echo "container_image: unknown runtime $rt" >&2; return 1 ;;
	esac
	img=$(mktemp -d)
	mkdir -p "$img/bin" "$img/tmp" "$img/etc" "$img/proc" "$img/sys" "$img/dev"
	cp /bin/busybox "$img/bin/" || { echo "no /bin/busybox (busybox-static)" >&2; return 1; }
	for a in sh hostname chown mknod touch true; do ln -s busybox "$img/bin/$a"; done
	tar -C "$img" -cf "$img.tar" . || return 1
	"$rt" import "$img.tar" "$2" >/dev/null || { echo "$rt import failed" >&2; return 1; }
	rm -rf "$img" "$img.tar"
}
