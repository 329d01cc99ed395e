// SPDX-License-Identifier: GPL-2.0
/*
 * capbench.c: the benchmark workload (and, built as capstorm, the guest
 * tests' burst of checks): N capability checks
 * through cheap system calls, from T threads, and the rate they ran at.
 *
 *   capbench [--threads T] [--sites LIST] [--comms K] [--stacks K] [--seconds S]
 *            [--wait] N
 *
 * Each call makes exactly one cap_capable() check and changes nothing:
 *   hostname    sethostname() to the current name: CAP_SYS_ADMIN in
 *               __do_sys_sethostname
 *   domainname  setdomainname() to the current name: CAP_SYS_ADMIN in
 *               __do_sys_setdomainname
 *   prsetmm     prctl(PR_SET_MM, PR_SET_MM_START_CODE, 0): CAP_SYS_RESOURCE
 *               in prctl_set_mm, then EINVAL for the address
 *   capstack    write() of a path number to the capstack test module's
 *               /sys/kernel/debug/capstack/check (tests/bench/capstack):
 *               CAP_SYS_ADMIN in capstack_leaf, from one of 10^4 stacks
 * LIST (default "hostname") is used in turn, call after call.  With --wait
 * the calls start when a line arrives on stdin (attach a tracer first).
 * --seconds S: stop after S seconds, or at N checks if sooner (the line says
 * how many were made).  --comms K: before each call, the thread names itself
 * "cb<i % K>" (PR_SET_NAME, no capability check), so that the checks fall in
 * K times as many keys.  --stacks K (capstack, default 10000): call i takes
 * path i % K, so that the checks come from K distinct kernel stacks.
 * Prints one line: "capbench: N checks T threads S s R checks/s X ns/check".
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "array_size.h"

#define MAX_THREADS 64
#define MAX_SITES 8

#define CAPSTACK_FILE "/sys/kernel/debug/capstack/check"
#define CAPSTACK_PATHS 10000

enum site { SITE_HOSTNAME, SITE_DOMAINNAME, SITE_PRSETMM, SITE_CAPSTACK };

static const char *const site_names[] = { "hostname", "domainname", "prsetmm", "capstack" };

static enum site sites[MAX_SITES];
static int nr_sites;
static unsigned long per_thread;
static unsigned long nr_comms;
static unsigned long nr_stacks = CAPSTACK_PATHS;
static int capstack_fd = -1;	/* opened once: open() makes checks of its own */
static double deadline;		/* 0: none */
static struct utsname uts;

struct worker {
	unsigned long done, failed;
};

static double now(void);

/* One write of path i % nr_stacks, one check in the module */
static int capstack_check(unsigned long i)
{
	char path[16];
	int len = snprintf(path, sizeof(path), "%lu", i % nr_stacks);

	return write(capstack_fd, path, len) == len ? 0 : -1;
}

/* One call, one check: 0, or -1 when the call did not behave as expected */
static int one_check(enum site s, unsigned long i)
{
	switch (s) {
	case SITE_CAPSTACK:
		return capstack_check(i);
	case SITE_HOSTNAME:
		return sethostname(uts.nodename, strlen(uts.nodename));
	case SITE_DOMAINNAME:
		return setdomainname(uts.domainname, strlen(uts.domainname));
	case SITE_PRSETMM:
		return prctl(PR_SET_MM, PR_SET_MM_START_CODE, 0, 0, 0) == -1 && errno == EINVAL ?
			       0 : -1;
	}
	return -1;
}

static void set_comm(unsigned long i)
{
	char name[16];

	snprintf(name, sizeof(name), "cb%u", (unsigned int)(i % nr_comms % 100000000));
	prctl(PR_SET_NAME, name, 0, 0, 0);
}

static void *burst(void *arg)
{
	struct worker *w = arg;
	unsigned long i;

	for (i = 0; i < per_thread; i++) {
		if (deadline && !(i & 1023) && now() >= deadline)
			break;
		if (nr_comms)
			set_comm(i);
		if (one_check(sites[i % nr_sites], i))
			w->failed++;
	}
	w->done = i;
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int parse_sites(char *list)
{
	char *name, *save;
	size_t i;

	nr_sites = 0;
	for (name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < ARRAY_SIZE(site_names); i++)
			if (!strcmp(name, site_names[i]))
				break;
		if (i == ARRAY_SIZE(site_names) || nr_sites == MAX_SITES)
			return -1;
		sites[nr_sites++] = i;
	}
	return nr_sites ? 0 : -1;
}

static int uses_capstack(void)
{
	int i;

	for (i = 0; i < nr_sites; i++)
		if (sites[i] == SITE_CAPSTACK)
			return 1;
	return 0;
}

static int open_capstack(void)
{
	if (!uses_capstack())
		return 0;
	capstack_fd = open(CAPSTACK_FILE, O_WRONLY | O_CLOEXEC);
	if (capstack_fd < 0) {
		fprintf(stderr, "capbench: cannot open %s: %s (load the test module in the guest: "
				"insmod build/capstack/capstack.ko, built by make capstack)\n",
			CAPSTACK_FILE, strerror(errno));
		return -1;
	}
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: capbench [--threads 1..%d] "
			"[--sites hostname,domainname,prsetmm,capstack] [--comms K] "
			"[--stacks 1..%d] [--seconds S] [--wait] N\n",
		MAX_THREADS, CAPSTACK_PATHS);
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long n = 0, total_failed = 0;
	struct worker workers[MAX_THREADS] = {};
	int i, threads = 1, wait = 0;
	double seconds = 0;
	pthread_t tids[MAX_THREADS];
	char line[16], *end;
	double t0, t1;

	sites[nr_sites++] = SITE_HOSTNAME;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--wait"))
			wait = 1;
		else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
			threads = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			seconds = atof(argv[++i]);
		else if (!strcmp(argv[i], "--comms") && i + 1 < argc)
			nr_comms = strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--stacks") && i + 1 < argc)
			nr_stacks = strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--sites") && i + 1 < argc) {
			if (parse_sites(argv[++i]))
				return usage();
		} else if (argv[i][0] != '-' && !n)
			n = strtoul(argv[i], &end, 10), n = *end ? 0 : n;
		else
			return usage();
	}
	if (!n || threads < 1 || threads > MAX_THREADS || seconds < 0 || !nr_stacks ||
	    nr_stacks > CAPSTACK_PATHS)
		return usage();
	if (open_capstack())
		return 1;
	if (uname(&uts))
		return perror("uname"), 1;
	per_thread = n / threads;
	n = per_thread * threads;
	printf("%s: pid %d\n", program_invocation_short_name, getpid());
	fflush(stdout);
	if (wait && !fgets(line, sizeof(line), stdin))
		return 1;
	t0 = now();
	if (seconds > 0)
		deadline = t0 + seconds;
	for (i = 0; i < threads; i++)
		pthread_create(&tids[i], NULL, burst, &workers[i]);
	n = 0;
	for (i = 0; i < threads; i++) {
		pthread_join(tids[i], NULL);
		total_failed += workers[i].failed;
		n += workers[i].done;
	}
	t1 = now();
	printf("%s: %lu checks %d threads %.3f s %.0f checks/s %.1f ns/check\n",
	       program_invocation_short_name, n, threads,
	       t1 - t0, n / (t1 - t0), (t1 - t0) * 1e9 / n * threads);
	if (total_failed)
		fprintf(stderr, "%s: %lu calls failed\n", program_invocation_short_name, total_failed);
	return total_failed ? 1 : 0;
}
