// SPDX-License-Identifier: GPL-2.0
/* test_fallback.c: unit tests of the fallback-pattern detector (fallback.c) on synthetic check streams. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <linux/capability.h>

#include "fallback.h"

#define SITE_PERF	"perf_event_open_check"
#define SITE_BPF	"bpf_prog_load"
#define SITE_SYSLOG	"check_syslog_permissions"
#define SITE_OTHER	"security_file_ioctl_helper"

/* A clock that advances 1 us per check, so consecutive checks are close */
static __u64 now_ns;

static struct check mk(__u32 tid, __u32 cap, __u32 granted, const char *site, const char *sys)
{
	struct check c = {
		.ts_ns = (now_ns += 1000),
		.tid = tid,
		.cap = cap,
		.granted = granted,
		.audit = CHECK_AUDITED,
		.stack_hash = 1,
		.call_site = site,
		.syscall = sys,
		.workload = "test.service",
		.comm = "test",
	};
	return c;
}

static void feed(struct fallback *fb, __u32 tid, __u32 cap, __u32 granted, const char *site,
		 const char *sys)
{
	struct check c = mk(tid, cap, granted, site, sys);

	assert_int_equal(fallback__feed(fb, &c), 0);
}

/* A denied narrow check, then CAP_SYS_ADMIN, same task, syscall and site */
static void feed_pattern(struct fallback *fb, __u32 tid, __u32 narrow, const char *site,
			 const char *sys)
{
	feed(fb, tid, narrow, 0, site, sys);
	feed(fb, tid, CAP_SYS_ADMIN, 1, site, sys);
}

static int setup(void **state)
{
	*state = fallback__new();
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	fallback__free(*state);
	return 0;
}

struct seen {
	const char *site[8];
	unsigned int cap[8];
	__u64 times[8];
	int nr;
	int stop_at;	/* return 42 on this call (1-based), 0: never */
};

static int collect(const char *call_site, unsigned int narrow_cap, __u64 times, void *ctx)
{
	struct seen *s = ctx;

	if (s->nr < 8) {
		s->site[s->nr] = call_site;
		s->cap[s->nr] = narrow_cap;
		s->times[s->nr] = times;
	}
	s->nr++;
	return s->nr == s->stop_at ? 42 : 0;
}

static int count_pairs(const struct fallback *fb)
{
	struct seen s = { 0 };

	assert_int_equal(fallback__for_each(fb, collect, &s), 0);
	return s.nr;
}

static void test_pattern_learned(void **state)
{
	struct fallback *fb = *state;
	unsigned int cap = 999;
	struct seen s = { 0 };

	assert_false(fallback__accepts(fb, SITE_PERF, &cap));
	feed_pattern(fb, 100, CAP_PERFMON, SITE_PERF, "perf_event_open");
	assert_true(fallback__accepts(fb, SITE_PERF, &cap));
	assert_int_equal(cap, CAP_PERFMON);
	assert_true(fallback__accepts(fb, SITE_PERF, NULL));
	assert_false(fallback__accepts(fb, SITE_BPF, NULL));

	feed_pattern(fb, 100, CAP_PERFMON, SITE_PERF, "perf_event_open");
	feed_pattern(fb, 101, CAP_PERFMON, SITE_PERF, "perf_event_open");
	assert_int_equal(fallback__for_each(fb, collect, &s), 0);
	assert_int_equal(s.nr, 1);
	assert_string_equal(s.site[0], SITE_PERF);
	assert_int_equal(s.cap[0], CAP_PERFMON);
	assert_int_equal(s.times[0], 3);
}

/* The fallback pattern with CAP_SYS_ADMIN also denied (a task with neither) */
static void test_pattern_both_denied(void **state)
{
	struct fallback *fb = *state;
	unsigned int cap = 0;

	feed(fb, 7, CAP_SYSLOG, 0, SITE_SYSLOG, "syslog");
	feed(fb, 7, CAP_SYS_ADMIN, 0, SITE_SYSLOG, "syslog");
	assert_true(fallback__accepts(fb, SITE_SYSLOG, &cap));
	assert_int_equal(cap, CAP_SYSLOG);
}

static void test_interleaved_tasks(void **state)
{
	struct fallback *fb = *state;
	unsigned int cap = 0;

	/* two tasks' fallbacks, interleaved check by check */
	feed(fb, 1, CAP_PERFMON, 0, SITE_PERF, "perf_event_open");
	feed(fb, 2, CAP_BPF, 0, SITE_BPF, "bpf");
	feed(fb, 1, CAP_SYS_ADMIN, 1, SITE_PERF, "perf_event_open");
	feed(fb, 2, CAP_SYS_ADMIN, 1, SITE_BPF, "bpf");
	assert_true(fallback__accepts(fb, SITE_PERF, &cap));
	assert_int_equal(cap, CAP_PERFMON);
	assert_true(fallback__accepts(fb, SITE_BPF, &cap));
	assert_int_equal(cap, CAP_BPF);

	/* a narrow check in one task, CAP_SYS_ADMIN in another: no pattern */
	feed(fb, 3, CAP_SYSLOG, 0, SITE_SYSLOG, "syslog");
	feed(fb, 4, CAP_SYS_ADMIN, 1, SITE_SYSLOG, "syslog");
	assert_false(fallback__accepts(fb, SITE_SYSLOG, NULL));
	assert_int_equal(count_pairs(fb), 2);
}

/* Another check between the two, even of another task's, does not count */
static void test_nested_check(void **state)
{
	struct fallback *fb = *state;

	feed(fb, 5, CAP_SYSLOG, 0, SITE_SYSLOG, "syslog");
	feed(fb, 5, CAP_DAC_OVERRIDE, 0, SITE_OTHER, "syslog");
	feed(fb, 5, CAP_SYS_ADMIN, 1, SITE_SYSLOG, "syslog");
	assert_false(fallback__accepts(fb, SITE_SYSLOG, NULL));

	/* a nested CAP_SYS_ADMIN check from another site is no pattern either */
	feed(fb, 5, CAP_SYSLOG, 0, SITE_SYSLOG, "syslog");
	feed(fb, 5, CAP_SYS_ADMIN, 1, SITE_OTHER, "syslog");
	feed(fb, 5, CAP_SYS_ADMIN, 1, SITE_SYSLOG, "syslog");
	assert_false(fallback__accepts(fb, SITE_SYSLOG, NULL));
	assert_false(fallback__accepts(fb, SITE_OTHER, NULL));

	/* the interloper being another task's check does not break it */
	feed(fb, 5, CAP_SYSLOG, 0, SITE_SYSLOG, "syslog");
	feed(fb, 6, CAP_DAC_OVERRIDE, 0, SITE_OTHER, "read");
	feed(fb, 5, CAP_SYS_ADMIN, 1, SITE_SYSLOG, "syslog");
	assert_true(fallback__accepts(fb, SITE_SYSLOG, NULL));
	assert_int_equal(count_pairs(fb), 1);
}

static void test_granted_narrow(void **state)
{
	struct fallback *fb = *state;
	unsigned int cap = 0;
	struct seen s = { 0 };

	/* granted narrow check, no CAP_SYS_ADMIN after it: nothing to learn */
	feed(fb, 9, CAP_BPF, 1, SITE_BPF, "bpf");
	feed(fb, 9, CAP_NET_ADMIN, 1, SITE_OTHER, "bpf");
	assert_false(fallback__accepts(fb, SITE_BPF, NULL));

	/* "narrow && CAP_SYS_ADMIN" (granted, then CAP_SYS_ADMIN) is no fallback */
	feed(fb, 9, CAP_BPF, 1, SITE_BPF, "bpf");
	feed(fb, 9, CAP_SYS_ADMIN, 1, SITE_BPF, "bpf");
	assert_false(fallback__accepts(fb, SITE_BPF, NULL));

	/* learned once (a task with CAP_SYS_ADMIN only) ... */
	feed_pattern(fb, 10, CAP_BPF, SITE_BPF, "bpf");
	/* ... stays learned while tasks with the narrow cap are granted */
	feed(fb, 11, CAP_BPF, 1, SITE_BPF, "bpf");
	feed(fb, 11, CAP_BPF, 1, SITE_BPF, "bpf");
	feed(fb, 11, CAP_PERFMON, 1, SITE_PERF, "bpf");
	assert_true(fallback__accepts(fb, SITE_BPF, &cap));
	assert_int_equal(cap, CAP_BPF);
	assert_int_equal(fallback__for_each(fb, collect, &s), 0);
	assert_int_equal(s.nr, 1);
	assert_int_equal(s.times[0], 1);
}

static void test_same_cap(void **state)
{
	struct fallback *fb = *state;

	/* capable(CAP_SYS_ADMIN) twice from one site is no narrower capability */
	feed(fb, 12, CAP_SYS_ADMIN, 0, SITE_OTHER, "ioctl");
	feed(fb, 12, CAP_SYS_ADMIN, 0, SITE_OTHER, "ioctl");
	feed(fb, 12, CAP_SYS_ADMIN, 1, SITE_OTHER, "ioctl");
	assert_false(fallback__accepts(fb, SITE_OTHER, NULL));
	/* nor is a narrow check followed by the same narrow check */
	feed(fb, 12, CAP_SYSLOG, 0, SITE_SYSLOG, "syslog");
	feed(fb, 12, CAP_SYSLOG, 0, SITE_SYSLOG, "syslog");
	assert_false(fallback__accepts(fb, SITE_SYSLOG, NULL));
	assert_int_equal(count_pairs(fb), 0);
}

static void test_different_syscall(void **state)
{
	struct fallback *fb = *state;
	struct check c;

	feed(fb, 20, CAP_SYSLOG, 0, SITE_SYSLOG, "syslog");
	feed(fb, 20, CAP_SYS_ADMIN, 1, SITE_SYSLOG, "read");
	assert_false(fallback__accepts(fb, SITE_SYSLOG, NULL));

	/* in a syscall, then outside any, and the other way round */
	feed(fb, 20, CAP_SYSLOG, 0, SITE_SYSLOG, "syslog");
	feed(fb, 20, CAP_SYS_ADMIN, 1, SITE_SYSLOG, NULL);
	feed(fb, 20, CAP_SYSLOG, 0, SITE_SYSLOG, NULL);
	feed(fb, 20, CAP_SYS_ADMIN, 1, SITE_SYSLOG, "syslog");
	assert_false(fallback__accepts(fb, SITE_SYSLOG, NULL));

	/* same syscall name, but long after: another invocation */
	feed(fb, 20, CAP_SYSLOG, 0, SITE_SYSLOG, "syslog");
	c = mk(20, CAP_SYS_ADMIN, 1, SITE_SYSLOG, "syslog");
	c.ts_ns += FALLBACK_MAX_GAP_NS + 1;
	assert_int_equal(fallback__feed(fb, &c), 0);
	assert_false(fallback__accepts(fb, SITE_SYSLOG, NULL));

	/* a clock going backwards is not trusted either */
	now_ns += 10 * 1000;
	feed(fb, 20, CAP_SYSLOG, 0, SITE_SYSLOG, "syslog");
	c = mk(20, CAP_SYS_ADMIN, 1, SITE_SYSLOG, "syslog");
	c.ts_ns -= 5 * 1000;
	assert_int_equal(fallback__feed(fb, &c), 0);
	assert_false(fallback__accepts(fb, SITE_SYSLOG, NULL));

	/* both outside a syscall (a kernel thread), close together: a pattern */
	feed(fb, 20, CAP_SYSLOG, 0, SITE_SYSLOG, NULL);
	c = mk(20, CAP_SYS_ADMIN, 1, SITE_SYSLOG, NULL);
	c.ts_ns += FALLBACK_MAX_GAP_NS - 1000;
	assert_int_equal(fallback__feed(fb, &c), 0);
	assert_true(fallback__accepts(fb, SITE_SYSLOG, NULL));
}

static void test_unknown_site(void **state)
{
	struct fallback *fb = *state;

	feed_pattern(fb, 30, CAP_PERFMON, "[unknown]", "perf_event_open");
	feed_pattern(fb, 30, CAP_PERFMON, NULL, "perf_event_open");
	feed_pattern(fb, 30, CAP_PERFMON, "", "perf_event_open");
	assert_false(fallback__accepts(fb, "[unknown]", NULL));
	assert_false(fallback__accepts(fb, "", NULL));
	assert_false(fallback__accepts(fb, NULL, NULL));

	/* known site, then the CAP_SYS_ADMIN check with no stack */
	feed(fb, 30, CAP_PERFMON, 0, SITE_PERF, "perf_event_open");
	feed(fb, 30, CAP_SYS_ADMIN, 1, "[unknown]", "perf_event_open");
	/* an unknown check in between breaks a pattern like any other */
	feed(fb, 30, CAP_PERFMON, 0, SITE_PERF, "perf_event_open");
	feed(fb, 30, CAP_PERFMON, 0, "[unknown]", "perf_event_open");
	feed(fb, 30, CAP_SYS_ADMIN, 1, SITE_PERF, "perf_event_open");
	assert_false(fallback__accepts(fb, SITE_PERF, NULL));
	assert_int_equal(count_pairs(fb), 0);

	assert_int_equal(fallback__learn(fb, "[unknown]", CAP_PERFMON, 1), -EINVAL);
	assert_int_equal(fallback__learn(fb, NULL, CAP_PERFMON, 1), -EINVAL);
	assert_int_equal(fallback__learn(fb, "", CAP_PERFMON, 1), -EINVAL);
}

static void test_eviction(void **state)
{
	struct fallback *fb = fallback__new_sized(4);
	__u32 tid;

	(void)state;
	assert_non_null(fb);
	/* tid 1's narrow check, then 4 other tasks: tid 1 (the oldest) is evicted */
	feed(fb, 1, CAP_SYSLOG, 0, SITE_SYSLOG, "syslog");
	for (tid = 2; tid <= 5; tid++)
		feed(fb, tid, CAP_KILL, 1, SITE_OTHER, "kill");
	feed(fb, 1, CAP_SYS_ADMIN, 1, SITE_SYSLOG, "syslog");
	assert_false(fallback__accepts(fb, SITE_SYSLOG, NULL));

	/* 3 other tasks fit beside it */
	feed(fb, 1, CAP_SYSLOG, 0, SITE_SYSLOG, "syslog");
	for (tid = 6; tid <= 8; tid++)
		feed(fb, tid, CAP_KILL, 1, SITE_OTHER, "kill");
	feed(fb, 1, CAP_SYS_ADMIN, 1, SITE_SYSLOG, "syslog");
	assert_true(fallback__accepts(fb, SITE_SYSLOG, NULL));

	/* recency, not first arrival: tid 9 seen again survives tid 13's arrival */
	for (tid = 9; tid <= 11; tid++)
		feed(fb, tid, CAP_KILL, 1, SITE_OTHER, "kill");
	feed(fb, 9, CAP_BPF, 0, SITE_BPF, "bpf");	/* 9 is now the newest */
	feed(fb, 12, CAP_KILL, 1, SITE_OTHER, "kill");	/* evicts 1 */
	feed(fb, 13, CAP_KILL, 1, SITE_OTHER, "kill");	/* evicts 10 */
	feed(fb, 9, CAP_SYS_ADMIN, 1, SITE_BPF, "bpf");
	assert_true(fallback__accepts(fb, SITE_BPF, NULL));

	/* many more tasks than slots, each with its own fallback */
	for (tid = 1000; tid < 1100; tid++)
		feed_pattern(fb, tid, CAP_PERFMON, SITE_PERF, "perf_event_open");
	assert_true(fallback__accepts(fb, SITE_PERF, NULL));
	fallback__free(fb);

	assert_null(fallback__new_sized(0));
}

static void test_learn_and_for_each(void **state)
{
	struct fallback *fb = *state;
	struct seen s = { 0 };
	unsigned int cap = 0;
	char name[32];
	int i;

	assert_int_equal(fallback__learn(fb, SITE_SYSLOG, CAP_SYSLOG, 5), 0);
	assert_int_equal(fallback__learn(fb, SITE_BPF, CAP_BPF, 2), 0);
	assert_int_equal(fallback__learn(fb, SITE_SYSLOG, CAP_SYSLOG, 3), 0);
	assert_int_equal(fallback__learn(fb, SITE_OTHER, CAP_SYS_ADMIN, 1), -EINVAL);
	feed_pattern(fb, 40, CAP_BPF, SITE_BPF, "bpf");

	assert_int_equal(fallback__for_each(fb, collect, &s), 0);
	assert_int_equal(s.nr, 2);
	assert_string_equal(s.site[0], SITE_SYSLOG);
	assert_int_equal(s.cap[0], CAP_SYSLOG);
	assert_int_equal(s.times[0], 8);
	assert_string_equal(s.site[1], SITE_BPF);
	assert_int_equal(s.times[1], 3);
	assert_int_equal(fallback__times(fb, SITE_SYSLOG, CAP_SYSLOG), 8);
	assert_int_equal(fallback__times(fb, SITE_BPF, CAP_BPF), 3);
	assert_int_equal(fallback__times(fb, SITE_SYSLOG, CAP_BPF), 0);
	assert_int_equal(fallback__times(fb, SITE_OTHER, CAP_SYSLOG), 0);
	assert_int_equal(fallback__times(fb, "[unknown]", CAP_SYSLOG), 0);

	/* fn's non-zero return stops the walk and is returned */
	memset(&s, 0, sizeof(s));
	s.stop_at = 1;
	assert_int_equal(fallback__for_each(fb, collect, &s), 42);
	assert_int_equal(s.nr, 1);

	/* counts saturate rather than wrap */
	assert_int_equal(fallback__learn(fb, SITE_BPF, CAP_BPF, UINT64_MAX), 0);
	memset(&s, 0, sizeof(s));
	fallback__for_each(fb, collect, &s);
	assert_true(s.times[1] == UINT64_MAX);

	/* enough pairs to grow the table several times, all still found */
	for (i = 0; i < 200; i++) {
		snprintf(name, sizeof(name), "site_%d", i);
		assert_int_equal(fallback__learn(fb, name, (unsigned int)(i % 20), 1), 0);
	}
	for (i = 0; i < 200; i++) {
		snprintf(name, sizeof(name), "site_%d", i);
		assert_true(fallback__accepts(fb, name, &cap));
		assert_int_equal(cap, (unsigned int)(i % 20));
	}
	assert_int_equal(count_pairs(fb), 202);
}

/* A function calling both bpf_capable() and perfmon_capable() */
static void test_site_with_two_caps(void **state)
{
	struct fallback *fb = *state;
	unsigned int cap = 0;
	int i;

	for (i = 0; i < 3; i++)
		feed_pattern(fb, 50, CAP_PERFMON, SITE_BPF, "bpf");
	feed_pattern(fb, 50, CAP_BPF, SITE_BPF, "bpf");
	assert_true(fallback__accepts(fb, SITE_BPF, &cap));
	assert_int_equal(cap, CAP_PERFMON);	/* seen most */
	for (i = 0; i < 2; i++)
		feed_pattern(fb, 50, CAP_BPF, SITE_BPF, "bpf");
	assert_true(fallback__accepts(fb, SITE_BPF, &cap));
	assert_int_equal(cap, CAP_PERFMON);	/* 3 each: lower number */
	assert_true(CAP_PERFMON < CAP_BPF);
	feed_pattern(fb, 50, CAP_BPF, SITE_BPF, "bpf");
	assert_true(fallback__accepts(fb, SITE_BPF, &cap));
	assert_int_equal(cap, CAP_BPF);
	assert_int_equal(count_pairs(fb), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_pattern_learned, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pattern_both_denied, setup, teardown),
		cmocka_unit_test_setup_teardown(test_interleaved_tasks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nested_check, setup, teardown),
		cmocka_unit_test_setup_teardown(test_granted_narrow, setup, teardown),
		cmocka_unit_test_setup_teardown(test_same_cap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_different_syscall, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_site, setup, teardown),
		cmocka_unit_test(test_eviction),
		cmocka_unit_test_setup_teardown(test_learn_and_for_each, setup, teardown),
		cmocka_unit_test_setup_teardown(test_site_with_two_caps, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
