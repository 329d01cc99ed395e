// SPDX-License-Identifier: GPL-2.0
/*
 * capstorm: make exactly N capability checks, as fast as possible, so that
 * a tracer's delivered + lost can be compared with what was made.
 *
 * Each sethostname() to the current name is one ns_capable(CAP_SYS_ADMIN)
 * check and one cap_capable() call.  With --wait, the burst starts only when
 * a line arrives on stdin, so a tracer can be attached to our pid first.
 *   capstorm [--wait] [--threads T] N
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char name[256];
static size_t name_len;
static unsigned long per_thread;

static void *burst(void *arg)
{
	unsigned long i, *failed = arg;

	for (i = 0; i < per_thread; i++)
		if (sethostname(name, name_len))
			(*failed)++;
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned long n, failed[64] = {}, total_failed = 0;
	int i, threads = 1, wait = 0;
	pthread_t tids[64];
	double t0, t1;
	char line[16];

	for (i = 1; i < argc - 1; i++) {
		if (!strcmp(argv[i], "--wait"))
			wait = 1;
		else if (!strcmp(argv[i], "--threads") && i + 1 < argc - 1)
			threads = atoi(argv[++i]);
	}
	if (argc < 2 || threads < 1 || threads > 64 || !(n = strtoul(argv[argc - 1], NULL, 10))) {
		fprintf(stderr, "usage: capstorm [--wait] [--threads 1..64] N\n");
		return 2;
	}
	if (gethostname(name, sizeof(name) - 1))
		return perror("gethostname"), 1;
	name_len = strlen(name);
	per_thread = n / threads;
	printf("capstorm: pid %d, %lu checks in %d threads\n", getpid(), per_thread * threads, threads);
	fflush(stdout);
	if (wait && !fgets(line, sizeof(line), stdin))
		return 1;
	t0 = now();
	for (i = 0; i < threads; i++)
		pthread_create(&tids[i], NULL, burst, &failed[i]);
	for (i = 0; i < threads; i++) {
		pthread_join(tids[i], NULL);
		total_failed += failed[i];
	}
	t1 = now();
	printf("capstorm: %lu checks, %lu failed, %.0f checks/s, %.0f ns/check\n",
	       per_thread * threads, total_failed, per_thread * threads / (t1 - t0),
	       (t1 - t0) * 1e9 / (per_thread * threads));
	return total_failed ? 1 : 0;
}
