// SPDX-License-Identifier: GPL-2.0
/*
 * spawners.c: where service managers and container runtimes live, so that
 * the checks they make while they set a workload up (the mounts of a unit's
 * sandbox, a container's pivot_root, the capability bounding set they drop)
 * are told apart from the workload's own.
 *
 * A task is a spawner's while its executable is one of these: systemd's
 * child keeps systemd's executable until it execs the unit's program, runc's
 * init is runc until it execs the container's entrypoint.  The executable
 * cannot be chosen by the task without an exec (PR_SET_MM_EXE_FILE needs
 * CAP_SYS_RESOURCE), where a comm can.
 */
#include <stddef.h>
#include <sys/stat.h>

#include "array_size.h"
#include "spawners.h"

static const struct {
	const char *path;
	__u32 flag;
} spawners[] = {
	{ "/usr/lib/systemd/systemd", CAPAUDIT_F_SETUP_MANAGER },
	{ "/lib/systemd/systemd", CAPAUDIT_F_SETUP_MANAGER },
	{ "/usr/lib/systemd/systemd-executor", CAPAUDIT_F_SETUP_MANAGER },	/* systemd >= 255 */
	{ "/usr/bin/runc", CAPAUDIT_F_SETUP_RUNTIME },
	{ "/usr/sbin/runc", CAPAUDIT_F_SETUP_RUNTIME },
	{ "/usr/bin/crun", CAPAUDIT_F_SETUP_RUNTIME },
	{ "/usr/bin/conmon", CAPAUDIT_F_SETUP_RUNTIME },
	{ "/usr/libexec/podman/conmon", CAPAUDIT_F_SETUP_RUNTIME },
	{ "/usr/bin/containerd-shim-runc-v2", CAPAUDIT_F_SETUP_RUNTIME },
	{ "/usr/bin/containerd-shim", CAPAUDIT_F_SETUP_RUNTIME },
	{ "/usr/bin/docker-init", CAPAUDIT_F_SETUP_RUNTIME },
};

int spawners__find(struct capaudit_setup_exe *exes, int max)
{
	struct stat st;
	size_t i;
	int n = 0, j;

	for (i = 0; i < ARRAY_SIZE(spawners) && n < max; i++) {
		if (stat(spawners[i].path, &st) || !S_ISREG(st.st_mode))
			continue;
		for (j = 0; j < n; j++)
			if (exes[j].ino == st.st_ino && exes[j].size == (__u64)st.st_size)
				break;
		if (j < n)
			continue;
		exes[n++] = (struct capaudit_setup_exe){
			.ino = st.st_ino,
			.size = st.st_size,
			.flag = spawners[i].flag,
		};
	}
	return n;
}
