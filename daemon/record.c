// SPDX-License-Identifier: GPL-2.0
/*
 * record.c: `capaudit record`, the recording daemon.
 *
 * One epoll loop over the ring buffer, a signalfd (SIGINT, SIGTERM: flush
 * and exit 0; SIGHUP: reload the configuration and rules) and timerfds (the
 * flush interval, --duration).  Each record goes
 *   events__decode → stacks__get → workloads__name → struct check
 *   → agg__add (counts) and fallback__feed (the fallback pattern)
 * and a KEY or LEARN record also goes to kcounts.c, which at each flush adds
 * the checks the kernel counted without a record (kcounts__collect → agg).
 * Every flush interval store__flush() adds the counts to SQLite in one
 * transaction.  A flush that fails (disk full) keeps the counts in memory
 * for the next one: nothing is dropped, the log says why.
 */
#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <systemd/sd-daemon.h>

#include "agg.h"
#include "capnames.h"
#include "check.h"
#include "commands.h"
#include "events.h"
#include "evloop.h"
#include "fallback.h"
#include "kcounts.h"
#include "ksyms.h"
#include "daemonlog.h"
#include "loader.h"
#include "privs.h"
#include "promfile.h"
#include "rbconsumer.h"
#include "recordopts.h"
#include "rules.h"
#include "stacks.h"
#include "store.h"
#include "syscalls.h"
#include "workload.h"

struct recorder {
	struct record_opts o;
	struct loader *loader;
	struct ksyms *ksyms;
	struct stacks *stacks;
	struct workloads *workloads;
	struct agg *agg;
	struct fallback *fallback;
	struct rules *rules;
	struct store *store;
	struct kcounts *kcounts;
	__u64 delivered;	/* checks handed to the agg: records and kernel counts */
	__u64 undecodable;
	__u64 mono_to_real;	/* CLOCK_REALTIME - CLOCK_MONOTONIC, ns: stored times are wall-clock */
	int flush_errno;	/* last flush's error, logged once per kind */
	int key_errno;		/* a KEY record refused by kcounts, logged once */
	int flush_timer;
};

/* A new key's index; a record whose index cannot be one is said once */
static void add_key(struct recorder *r, const struct capaudit_event *e, const struct check *c,
		    const struct stack_info *si)
{
	int err = kcounts__add_key(r->kcounts, e, c, si);

	if (!err || err == -EEXIST || r->key_errno)
		return;
	r->key_errno = -err;
	daemonlog__event(LOG_WARNING, "key-refused", NULL, 0,
			 "capaudit: a new key's later checks cannot be counted: %s (its first "
			 "check is recorded)",
			 strerror(-err));
}

/* The recorder's whole per-event path: no allocation for a known key. */
static int handle_event(void *ctx, void *data, size_t size)
{
	struct recorder *r = ctx;
	struct capaudit_event e;
	struct stack_info *si;
	struct check c;
	char sysbuf[32];

	if (events__decode(data, size, &e)) {
		r->undecodable++;
		return 0;
	}
	si = stacks__get(r->stacks, events__kstack(data, size), e.nr_kframes);
	if (e.kind == CAPAUDIT_REC_SAMPLE) {
		kcounts__check_sample(r->kcounts, &e, si);
		return 0;
	}
	r->delivered++;
	if (si && !si->recorded && si->frames &&
	    !agg__adopt_stack(r->agg, si->hash, si->frames, si->nr_frames)) {
		stacks__take_frames(si);	/* agg's now, until it is stored */
		si->recorded = true;
	}
	c = (struct check){
		.ts_ns = e.ts_ns + r->mono_to_real,
		.tid = e.tid,
		.cap = e.cap,
		.granted = events__granted(&e),
		.audit = events__audit_class(&e),
		.uid = e.uid,
		.stack_hash = si ? si->hash : 0,
		.call_site = si ? si->call_site : "[unknown]",
		.syscall = syscalls__describe(e.syscall_nr, sysbuf, sizeof(sysbuf)),
		.workload = workloads__name(r->workloads, e.cgroup_id, e.pid, e.comm),
		.comm = e.comm,
	};
	agg__add(r->agg, &c);
	fallback__feed(r->fallback, &c);
	if (e.kind == CAPAUDIT_REC_KEY)
		add_key(r, &e, &c, si);
	else if (e.kind == CAPAUDIT_REC_LEARN)
		kcounts__learn(r->kcounts, &e, events__window(data, size), si);
	return 0;
}

static __u64 clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* The checks counted in the kernel since the last time, into the agg */
static void collect(struct recorder *r)
{
	long long n = kcounts__collect(r->kcounts, r->agg, clock_ns(CLOCK_REALTIME));

	if (n > 0)
		r->delivered += n;
}

/* A store event: CAPAUDIT_STORE= and, for an error, ERRNO= */
static void __attribute__((format(printf, 5, 6)))
log_store(const struct recorder *r, int prio, const char *event, int err, const char *fmt, ...)
{
	struct daemonlog_field f[] = { { "CAPAUDIT_STORE", r->o.store_path }, { "ERRNO", NULL } };
	char errno_buf[16];
	va_list ap;

	snprintf(errno_buf, sizeof(errno_buf), "%d", -err);
	f[1].value = errno_buf;
	va_start(ap, fmt);
	daemonlog__vevent(prio, event, f, err ? 2 : 1, fmt, ap);
	va_end(ap);
}

static int note_container(const char *workload, const char *image, void *ctx)
{
	return store__note_container(ctx, workload, image);
}

static int flush(struct recorder *r)
{
	__u64 cnt[CAPAUDIT_CNT_NR] = {};
	int err;

	collect(r);
	loader__read_counters(r->loader, cnt);
	err = store__flush(r->store, r->agg, cnt, r->fallback);
	if (err) {
		if (err != r->flush_errno)
			log_store(r, LOG_ERR, "store_error", err,
				  "capaudit: cannot write the store %s: %s: counts stay in memory "
				  "and the next flush retries%s",
				  r->o.store_path, strerror(-err),
				  err == -ENOSPC ? " (free space in its file system)" : "");
		r->flush_errno = err;
		return err;
	}
	if (r->flush_errno)
		log_store(r, LOG_NOTICE, "store_ok", 0, "capaudit: the store %s is written again",
			  r->o.store_path);
	r->flush_errno = 0;
	agg__reset_deltas(r->agg);
	/* the images of containers named since: shown by profile */
	workloads__for_each_new_container(r->workloads, note_container, r->store);
	if (r->o.prometheus_dir) {
		err = promfile__write(r->o.prometheus_dir, r->store);
		if (err)
			fprintf(stderr, "capaudit: cannot write %s/capaudit.prom: %s\n",
				r->o.prometheus_dir, strerror(-err));
	}
	sd_notifyf(0, "STATUS=%llu checks recorded, %llu lost (ring buffer full), %llu missed "
		   "(recursion)",
		   (unsigned long long)cnt[CAPAUDIT_CNT_SEEN],
		   (unsigned long long)cnt[CAPAUDIT_CNT_LOST_RINGBUF],
		   (unsigned long long)cnt[CAPAUDIT_CNT_MISSED]);
	return 0;
}

static int load_rules(struct recorder *r)
{
	struct rules *rules = NULL;
	char err[512];

	if (!r->o.rules_path)
		return 0;
	if (rules__load(r->o.rules_path, &rules, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -EINVAL;
	}
	rules__free(r->rules);
	r->rules = rules;
	return 0;
}

/* SIGHUP: the configuration file and the rules again; a bad one is kept out. */
static void reload(struct recorder *r)
{
	struct record_opts o = r->o;

	if (record_opts__reload(&o)) {
		daemonlog__event(LOG_WARNING, "reload_refused", NULL, 0,
				 "capaudit: reload: keeping the previous configuration");
		return;
	}
	r->o.flush_interval = o.flush_interval;
	r->o.rules_path = o.rules_path;
	if (load_rules(r))
		daemonlog__event(LOG_WARNING, "rules_refused", NULL, 0,
				 "capaudit: reload: keeping the previous rules");
	evloop__arm(r->flush_timer, r->o.flush_interval, true);
	daemonlog__event(LOG_INFO, "reloaded", NULL, 0,
			 "capaudit: configuration and rules reloaded");
	sd_notify(0, "READY=1");
}

/* true when the loop should stop; *more: records left in the ring buffer */
static bool handle_fd(struct recorder *r, struct rbconsumer *rb, int fd, int sigfd, int endfd,
		      int *more)
{
	struct signalfd_siginfo si;
	__u64 ticks;

	if (fd == rbconsumer__epoll_fd(rb)) {
		*more = rbconsumer__consume(rb) > 0;
		return false;
	}
	if (fd == r->flush_timer) {
		if (read(fd, &ticks, sizeof(ticks)) > 0)
			flush(r);
		return false;
	}
	if (fd == sigfd && read(sigfd, &si, sizeof(si)) == sizeof(si) && si.ssi_signo == SIGHUP) {
		reload(r);
		return false;
	}
	return fd == sigfd || fd == endfd;
}

static int event_loop(struct recorder *r, struct rbconsumer *rb)
{
	static const int signals[] = { SIGINT, SIGTERM, SIGHUP };
	int epfd = epoll_create1(EPOLL_CLOEXEC), sigfd = evloop__signalfd(signals, 3), endfd = -1;
	struct epoll_event evs[8];
	int err, n, i, more = 0;
	bool stop = false;

	r->flush_timer = evloop__timerfd(r->o.flush_interval, true);
	err = epfd < 0 ? -errno : evloop__add(epfd, sigfd);
	if (!err)
		err = evloop__add(epfd, r->flush_timer);
	if (!err && r->o.duration) {
		endfd = evloop__timerfd(r->o.duration, false);
		err = evloop__add(epfd, endfd);
	}
	if (!err)
		err = evloop__add(epfd, rbconsumer__epoll_fd(rb));
	while (!err && !stop) {
		/* records left from a cut batch: look at the other fds, then go on */
		n = epoll_wait(epfd, evs, 8, more ? 0 : -1);
		if (n < 0 && errno != EINTR)
			err = -errno;
		if (more && !n)
			evs[n++].data.fd = rbconsumer__epoll_fd(rb);
		for (i = 0; i < n; i++)
			stop |= handle_fd(r, rb, evs[i].data.fd, sigfd, endfd, &more);
	}
	sd_notify(0, "STOPPING=1");
	if (endfd >= 0)
		close(endfd);
	if (r->flush_timer >= 0)
		close(r->flush_timer);
	if (sigfd >= 0)
		close(sigfd);
	if (epfd >= 0)
		close(epfd);
	return err;
}

/* The last records, then the last flush: a clean stop loses nothing. */
static int drain_and_flush(struct recorder *r, struct rbconsumer *rb)
{
	__u64 cnt[CAPAUDIT_CNT_NR] = {};
	char extra[384], line[832], nums[4][24];
	struct kcounts_stats ks;
	int err;

	loader__detach(r->loader);
	rbconsumer__drain(rb);
	err = flush(r);
	loader__read_counters(r->loader, cnt);
	kcounts__stats(r->kcounts, &ks);
	snprintf(extra, sizeof(extra),
		 "; %llu in overflow rows; %llu counted in the kernel (%llu keys, key table full "
		 "%llu times; %llu call sites learned from %llu return addresses, %llu unwound, "
		 "%llu conflicts; %llu checks keyed by stack); %u stacks kept, %llu beyond "
		 "--max-stacks",
		 (unsigned long long)agg__overflow(r->agg),
		 (unsigned long long)cnt[CAPAUDIT_CNT_COUNTED], (unsigned long long)ks.keys,
		 (unsigned long long)cnt[CAPAUDIT_CNT_KEYS_FULL], (unsigned long long)ks.learned,
		 (unsigned long long)ks.hops, (unsigned long long)ks.unwound,
		 (unsigned long long)ks.conflicts, (unsigned long long)cnt[CAPAUDIT_CNT_BY_STACK],
		 stacks__nr(r->stacks), (unsigned long long)stacks__nr_dropped(r->stacks));
	loader__format_summary(cnt, r->delivered, extra, line, sizeof(line));
	snprintf(nums[0], sizeof(nums[0]), "%llu", (unsigned long long)cnt[CAPAUDIT_CNT_SEEN]);
	snprintf(nums[1], sizeof(nums[1]), "%llu", (unsigned long long)r->delivered);
	snprintf(nums[2], sizeof(nums[2]), "%llu",
		 (unsigned long long)cnt[CAPAUDIT_CNT_LOST_RINGBUF]);
	snprintf(nums[3], sizeof(nums[3]), "%llu", (unsigned long long)agg__overflow(r->agg));
	daemonlog__event(LOG_INFO, "stopped",
			 (const struct daemonlog_field[]){ { "CAPAUDIT_SEEN", nums[0] },
							   { "CAPAUDIT_DELIVERED", nums[1] },
							   { "CAPAUDIT_LOST", nums[2] },
							   { "CAPAUDIT_OVERFLOW", nums[3] } },
			 4, "%s", line);
	return err;
}

/* After the attach, so that the BPF program's own frames are named. */
static int load_ksyms(struct recorder *r)
{
	int err = ksyms__load(r->o.kallsyms_path, &r->ksyms);

	if (err) {
		fprintf(stderr, "capaudit: cannot read kernel symbols from %s: %s\n",
			r->o.kallsyms_path, strerror(-err));
		return err;
	}
	if (ksyms__addrs_hidden(r->ksyms))
		fprintf(stderr, "capaudit: kernel addresses are hidden in %s (needs CAP_SYSLOG): "
				"call sites will be recorded as [unknown]\n",
			r->o.kallsyms_path);
	return 0;
}

static int open_state(struct recorder *r)
{
	struct agg_limits limits = { r->o.max_keys, r->o.max_stacks };
	int err;

	err = store__open(r->o.store_path, true, &r->store);
	if (err) {
		store__explain_error(r->o.store_path, err);
		return err;
	}
	err = store__load_fallbacks(r->store, r->fallback);
	if (err)
		return err;
	r->agg = agg__new(&limits);
	if (!r->agg)
		return -errno ? -errno : -ENOMEM;
	r->workloads = workloads__new(r->o.cgroup_root);
	return r->workloads ? 0 : -ENOMEM;
}

static int run(struct recorder *r)
{
	struct rbconsumer *rb = NULL;
	struct kcounts_maps maps;
	int err;

	r->mono_to_real = clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_MONOTONIC);
	r->fallback = fallback__new();
	err = r->fallback ? load_rules(r) : -ENOMEM;
	if (!err)
		err = open_state(r);
	if (!err)
		err = loader__start(&r->o.loader, &r->loader);
	if (!err)
		err = load_ksyms(r);
	if (!err)
		err = privs__drop_all_but_read("record");
	if (err)
		goto out_free;
	r->stacks = stacks__new(r->ksyms, r->o.max_stacks);
	loader__kcounts_maps(r->loader, &maps);
	r->kcounts = kcounts__new(&maps);
	rb = rbconsumer__new(loader__events_fd(r->loader), handle_event, r);
	if (!r->stacks || !r->kcounts || !rb) {
		err = -ENOMEM;
		goto out_free;
	}
	daemonlog__event(LOG_INFO, "attached",
			 (const struct daemonlog_field[]){
				 { "CAPAUDIT_ATTACH", loader__attach_name(r->loader) },
				 { "CAPAUDIT_STORE", r->o.store_path } },
			 2, "capaudit: attached to cap_capable (%s), recording into %s",
			 loader__attach_name(r->loader), r->o.store_path);
	sd_notify(0, "READY=1\nSTATUS=attached, recording");
	err = event_loop(r, rb);
	err = drain_and_flush(r, rb) ?: err;
out_free:
	rbconsumer__free(rb);
	kcounts__free(r->kcounts);
	stacks__free(r->stacks);
	loader__free(r->loader);
	workloads__free(r->workloads);
	ksyms__free(r->ksyms);
	store__close(r->store);
	agg__free(r->agg);
	rules__free(r->rules);
	fallback__free(r->fallback);
	return err;
}

int cmd_record(int argc, char **argv)
{
	struct recorder r = {};
	int err;

	err = record_opts__parse(&r.o, argc, argv);
	if (err)
		return err > 0 ? 0 : 2;
	err = run(&r);
	record_opts__free(&r.o);
	return err ? 1 : 0;
}
