// SPDX-License-Identifier: GPL-2.0
/*
 * bpfmap: create one BPF hash map and exit.  With unprivileged BPF off
 * (the 6.1 default), __sys_bpf() asks bpf_capable(): CAP_BPF, falling back
 * to CAP_SYS_ADMIN, the fallback pattern capaudit's advisor learns.  (An
 * array map would also ask perfmon_capable() in array_map_alloc(), for the
 * Spectre v1 bypass: a check that grants an optimisation, not the map.)
 * Exits 0 on success, 1 on EPERM, 2 on any other error.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/bpf.h>

int main(void)
{
	union bpf_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_HASH;
	attr.key_size = 4;
	attr.value_size = 8;
	attr.max_entries = 1;
	fd = syscall(SYS_bpf, BPF_MAP_CREATE, &attr, sizeof(attr));
	if (fd < 0) {
		fprintf(stderr, "bpfmap: BPF_MAP_CREATE: %s\n", strerror(errno));
		return errno == EPERM ? 1 : 2;
	}
	close(fd);
	return 0;
}
