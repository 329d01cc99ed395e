// SPDX-License-Identifier: GPL-2.0
/*
 * floor.c: `floor 0|X|S`: attach one of floor.bpf.c's programs to
 * cap_capable, print "attached", and on SIGINT/SIGTERM print the checks it
 * counted ("counted N").  The benchmark's floors; it runs only in the guest.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>

#include "floor.skel.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static long long counted(struct floor_bpf *skel)
{
	int ncpus = libbpf_num_possible_cpus(), cpu;
	__u64 vals[ncpus > 0 ? ncpus : 1];
	long long sum = 0;
	__u32 zero = 0;

	if (ncpus < 1 || bpf_map_lookup_elem(bpf_map__fd(skel->maps.hits), &zero, vals))
		return -1;
	for (cpu = 0; cpu < ncpus; cpu++)
		sum += vals[cpu];
	return sum;
}

int main(int argc, char **argv)
{
	struct floor_bpf *skel;
	int err;

	if (argc != 2 || (strcmp(argv[1], "0") && strcmp(argv[1], "X") && strcmp(argv[1], "S"))) {
		fprintf(stderr, "usage: floor 0|X|S\n"
				"  0: fentry on cap_capable + a per-CPU counter\n"
				"  X: fexit + the same counter\n"
				"  S: fexit + bpf_get_stackid() + a per-CPU counter\n");
		return 2;
	}
	skel = floor_bpf__open();
	if (!skel) {
		fprintf(stderr, "floor: cannot open the BPF object: %s\n", strerror(errno));
		return 1;
	}
	bpf_program__set_autoload(skel->progs.floor_0, argv[1][0] == '0');
	bpf_program__set_autoload(skel->progs.floor_x, argv[1][0] == 'X');
	bpf_program__set_autoload(skel->progs.floor_s, argv[1][0] == 'S');
	err = floor_bpf__load(skel) ?: floor_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "floor: cannot load or attach: %s (run as root in the guest)\n",
			strerror(-err));
		goto out_destroy;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	printf("attached\n");
	fflush(stdout);
	while (!stop)
		pause();
	printf("counted %lld\n", counted(skel));
out_destroy:
	floor_bpf__destroy(skel);
	return err ? 1 : 0;
}
