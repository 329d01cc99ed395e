// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c: `capaudit trace`, a live stream of capability checks.
 *
 * One epoll loop over the ring buffer, a signalfd (SIGINT, SIGTERM) and a
 * timerfd (--duration).  Each record is decoded (events.c), its stack
 * symbolized once per distinct stack (stacks.c), and printed as a text line or a
 * JSON object.  At exit the programs are detached, the ring buffer drained
 * and the kernel-side counters read, so the summary accounts for every check.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <json-c/json.h>

#include "capnames.h"
#include "cli.h"
#include "commands.h"
#include "events.h"
#include "evloop.h"
#include "ksyms.h"
#include "loader.h"
#include "privs.h"
#include "rbconsumer.h"
#include "stacks.h"
#include "syscalls.h"
#include "outfmt.h"
#include "tracejson.h"

struct trace {
	struct loader_opts lopts;
	const char *kallsyms_path;
	bool json;
	bool print_kstack;
	unsigned int duration;
	struct loader *loader;
	struct ksyms *ksyms;
	struct stacks *stacks;
	__u64 delivered;
	__u64 undecodable;
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: capaudit trace [OPTIONS]\n"
		"Print every capability check as it happens.\n\n"
		"  -p, --pid PID          only this process (thread group)\n"
		"  -c, --cgroup PATH      only tasks in this cgroup v2 directory and below\n"
		"      --caps LIST        only these capabilities (CAP_SYS_ADMIN,sys_module,21,...)\n"
		"      --denied-only      only denied checks\n"
		"      --audit-only       only audited checks (skip no-audit probes)\n"
		"  -K, --kernel-stack     print the kernel stack under each line\n"
		"  -U, --user-stack       capture and print the user stack too\n"
		"      --no-stack         do not capture kernel stacks (no call site)\n"
		"  -d, --duration S       stop after S seconds\n"
		"  -j, --json             one JSON object per line\n"
		"      --ringbuf-size N   ring buffer bytes (power of two, default 4194304)\n"
		"      --kprobe           use kprobe + kretprobe even when fexit works\n"
		"      --kallsyms FILE    kernel symbols (default /proc/kallsyms)\n"
		"                         (a kernel without BTF; implies --kprobe)\n"
		"  -v, --verbose          libbpf debug output\n"
		"  -h, --help             this text\n"
		"      --version          capaudit's version\n");
}

static int parse_uint(const char *arg, const char *what, unsigned long max, unsigned long *ret)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || v > max) {
		fprintf(stderr, "capaudit trace: invalid %s '%s' (a number up to %lu)\n", what, arg,
			max);
		return -EINVAL;
	}
	*ret = v;
	return 0;
}

enum {
	OPT_CAPS = 256, OPT_DENIED, OPT_AUDIT, OPT_NOSTACK, OPT_RINGBUF, OPT_KPROBE, OPT_KALLSYMS,
};

static const struct option long_opts[] = {
	{ "pid", required_argument, NULL, 'p' },
	{ "cgroup", required_argument, NULL, 'c' },
	{ "caps", required_argument, NULL, OPT_CAPS },
	{ "denied-only", no_argument, NULL, OPT_DENIED },
	{ "audit-only", no_argument, NULL, OPT_AUDIT },
	{ "kernel-stack", no_argument, NULL, 'K' },
	{ "user-stack", no_argument, NULL, 'U' },
	{ "no-stack", no_argument, NULL, OPT_NOSTACK },
	{ "duration", required_argument, NULL, 'd' },
	{ "json", no_argument, NULL, 'j' },
	{ "ringbuf-size", required_argument, NULL, OPT_RINGBUF },
	{ "kprobe", no_argument, NULL, OPT_KPROBE },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{},
};

static int parse_ringbuf(const char *arg, __u32 *ret)
{
	unsigned long v;

	if (parse_uint(arg, "ring buffer size", 1ul << 30, &v))
		return -EINVAL;
	if (v < 4096 || (v & (v - 1))) {
		fprintf(stderr, "capaudit trace: --ringbuf-size must be a power of two >= 4096\n");
		return -EINVAL;
	}
	*ret = v;
	return 0;
}

static int parse_opt(struct trace *t, int c, const char *arg)
{
	unsigned long v;

	switch (c) {
	case 'p':
		if (parse_uint(arg, "pid", INT_MAX, &v))
			return -EINVAL;
		if (!v) {
			fprintf(stderr, "capaudit trace: invalid pid '0' (a process id, 1 or more)\n");
			return -EINVAL;
		}
		t->lopts.tgid = v;
		return 0;
	case 'c':
		t->lopts.cgroup_path = arg;
		return 0;
	case OPT_CAPS:
		if (capnames__parse_list(arg, &t->lopts.caps_mask)) {
			fprintf(stderr, "capaudit trace: invalid capability list '%s' "
					"(names like CAP_SYS_ADMIN or sys_admin, or numbers < 64)\n",
				arg);
			return -EINVAL;
		}
		return 0;
	case OPT_DENIED:
		t->lopts.denied_only = true;
		return 0;
	case OPT_AUDIT:
		t->lopts.audit_only = true;
		return 0;
	case 'K':
		t->print_kstack = true;
		return 0;
	case 'U':
		t->lopts.user_stack = true;
		return 0;
	case OPT_NOSTACK:
		t->lopts.kernel_stack = false;
		return 0;
	case 'd':
		if (parse_uint(arg, "duration", 365 * 86400, &v))
			return -EINVAL;
		if (!v) {
			fprintf(stderr, "capaudit trace: invalid duration '0' (seconds, 1 or more)\n");
			return -EINVAL;
		}
		t->duration = v;
		return 0;
	case 'j':
		t->json = true;
		return 0;
	case OPT_RINGBUF:
		return parse_ringbuf(arg, &t->lopts.ringbuf_bytes);
	case OPT_KPROBE:
		t->lopts.attach = LOADER_ATTACH_KPROBE;
		return 0;
	case OPT_KALLSYMS:
		t->kallsyms_path = arg;
		return 0;
	case 'v':
		t->lopts.verbose = true;
		return 0;
	}
	return -EINVAL;
}

/* 0 to run, 1 when --help was printed, -EINVAL on a bad command line */
static int parse_args(struct trace *t, int argc, char **argv)
{
	int c;

	t->lopts.kernel_stack = true;
	t->kallsyms_path = "/proc/kallsyms";
	optind = 1;
	while ((c = getopt_long(argc, argv, "p:c:KUd:jvh", long_opts, NULL)) != -1) {
		if (cli__help_or_version(c, usage))
			return 1;
		if (c == '?' || parse_opt(t, c, optarg)) {
			usage(stderr);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "capaudit trace: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return -EINVAL;
	}
	return 0;
}

static int print_text(struct trace *t, const struct trace_record *r)
{
	const struct capaudit_event *e = r->event;
	char tbuf[16];
	struct tm tm;
	time_t now = time(NULL);
	int i;

	localtime_r(&now, &tm);
	strftime(tbuf, sizeof(tbuf), "%H:%M:%S", &tm);
	printf("%-8s %-6u %-7u %-7u ", tbuf, e->uid, e->pid, e->tid);
	outfmt__text(stdout, e->comm, 16, "-");
	printf(" %-3u %-22s %-7s %-7s ", e->cap, r->cap_name,
	       events__granted(e) ? "granted" : "denied", events__audited(e) ? "audit" : "noaudit");
	outfmt__text(stdout, r->syscall, 16, "-");
	putchar(' ');
	outfmt__text(stdout, r->stack ? r->stack->call_site : NULL, 0, "-");
	putchar('\n');
	if (t->print_kstack && r->stack)
		for (i = 0; i < r->stack->nr_frames; i++)
			printf("\t%s\n", r->stack->frames[i]);
	for (i = 0; i < r->nr_ustack; i++)
		printf("\t0x%llx [user]\n", (unsigned long long)r->ustack[i]);
	return 0;
}

static int print_json(const struct trace_record *r)
{
	json_object *o = trace_record__to_json(r);

	if (!o)
		return -ENOMEM;
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
						       JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	return 0;
}

static int handle_event(void *ctx, void *data, size_t size)
{
	struct trace *t = ctx;
	struct capaudit_event e;
	struct trace_record r = { .event = &e };
	char capbuf[16], sysbuf[32];
	__u64 ustack[CAPAUDIT_MAX_STACK];

	if (events__decode(data, size, &e)) {
		t->undecodable++;
		return 0;
	}
	t->delivered++;
	r.cap_name = capnames__name(e.cap, capbuf, sizeof(capbuf));
	r.syscall = syscalls__describe(e.syscall_nr, sysbuf, sizeof(sysbuf));
	r.stack = stacks__get(t->stacks, events__kstack(data, size), e.nr_kframes);
	if (e.ustack_id != CAPAUDIT_NO_STACK) {
		r.nr_ustack = loader__read_stack(t->loader, e.ustack_id, ustack);
		r.ustack = ustack;
		if (r.nr_ustack < 0)
			r.nr_ustack = 0;
	}
	return t->json ? print_json(&r) : print_text(t, &r);
}

/* Runs until a signal or the timer; returns 0 or -errno. */
static int event_loop(struct trace *t, struct rbconsumer *rb)
{
	int epfd, sigfd, timerfd = -1, rbfd = rbconsumer__epoll_fd(rb);
	struct epoll_event evs[4];
	int err, n, i, more = 0;
	bool stop = false;

	epfd = epoll_create1(EPOLL_CLOEXEC);
	if (epfd < 0)
		return -errno;
	sigfd = evloop__signalfd((const int[]){ SIGINT, SIGTERM }, 2);
	err = evloop__add(epfd, sigfd);
	if (!err && t->duration) {
		timerfd = evloop__timerfd(t->duration, false);
		err = evloop__add(epfd, timerfd);
	}
	if (!err)
		err = evloop__add(epfd, rbfd);
	while (!err && !stop) {
		/* records left from a cut batch: look at the other fds, then go on */
		n = epoll_wait(epfd, evs, 4, more ? 0 : -1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			break;
		}
		if (more && !n)
			evs[n++].data.fd = rbfd;
		for (i = 0; i < n; i++) {
			if (evs[i].data.fd == rbfd) {
				more = rbconsumer__consume(rb);
				err = more < 0 ? more : 0;
				fflush(stdout);
			} else {
				stop = true;
			}
		}
	}
	if (timerfd >= 0)
		close(timerfd);
	if (sigfd >= 0)
		close(sigfd);
	close(epfd);
	return err;
}

static void print_summary(struct trace *t, struct rbconsumer *rb)
{
	loader__detach(t->loader);
	rbconsumer__drain(rb);
	fflush(stdout);
	loader__print_summary(t->loader, t->delivered, "");
	if (t->undecodable)
		fprintf(stderr, "capaudit: %llu records of the wrong size were dropped\n",
			(unsigned long long)t->undecodable);
}

static int load_ksyms(struct trace *t)
{
	int err = ksyms__load(t->kallsyms_path, &t->ksyms);

	if (err) {
		fprintf(stderr, "capaudit: cannot read kernel symbols from %s: %s\n",
			t->kallsyms_path, strerror(-err));
		return err;
	}
	if (ksyms__addrs_hidden(t->ksyms))
		fprintf(stderr, "capaudit: kernel addresses are hidden in %s (needs CAP_SYSLOG, "
				"or kptr_restrict=0): stacks and call sites will show as [unknown]\n",
			t->kallsyms_path);
	return 0;
}

static int run(struct trace *t)
{
	struct rbconsumer *rb = NULL;
	int err;

	/* after the attach: the BPF program's own frames are in kallsyms then */
	err = loader__start(&t->lopts, &t->loader);
	if (err)
		return err;
	err = load_ksyms(t);
	if (!err)
		err = privs__drop_all("trace");
	if (err)
		goto out_free_loader;
	t->stacks = stacks__new(t->ksyms, 0);
	rb = rbconsumer__new(loader__events_fd(t->loader), handle_event, t);
	if (!t->stacks || !rb) {
		err = -ENOMEM;
		goto out_free_stacks;
	}
	fprintf(stderr, "capaudit: attached to cap_capable (%s)\n",
		loader__attach_name(t->loader));
	if (!t->json)
		printf("%-8s %-6s %-7s %-7s %-16s %-3s %-22s %-7s %-7s %-16s %s\n", "TIME", "UID",
		       "PID", "TID", "COMM", "CAP", "NAME", "VERDICT", "AUDIT", "SYSCALL",
		       "CALLSITE");
	err = event_loop(t, rb);
	print_summary(t, rb);
out_free_stacks:
	rbconsumer__free(rb);
	stacks__free(t->stacks);
	ksyms__free(t->ksyms);
out_free_loader:
	loader__free(t->loader);
	return err;
}

int cmd_trace(int argc, char **argv)
{
	struct trace t = {};
	int err;

	err = parse_args(&t, argc, argv);
	if (err)
		return err > 0 ? 0 : 2;
	err = run(&t);
	if (err)
		fprintf(stderr, "capaudit trace: %s\n", strerror(-err));
	return err ? 1 : 0;
}
