// SPDX-License-Identifier: GPL-2.0
/* test_stacks.c: unit tests of stacks.c: stacks by their frames, bounded, over tests/fixtures/kallsyms/callsite.txt. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <linux/types.h>
#include "capaudit.h"
#include "fixture.h"
#include "ksyms.h"
#include "stacks.h"

/* Addresses in callsite.txt (see test_callsite.c) */
#define BPF_TRAMPOLINE		0xffffffffc0101040UL
#define CAP_CAPABLE		0xffffffff81100005UL
#define SECURITY_CAPABLE	0xffffffff81100130UL
#define CAPABLE			0xffffffff81100408UL
#define DO_SYS_SETHOSTNAME	0xffffffff81200040UL
#define BPF_PROG_LOAD		0xffffffff81200140UL
#define DO_SYSCALL_64		0xffffffff81200230UL

static int setup(void **state)
{
	struct ksyms *ksyms = NULL;

	if (ksyms__load(fixture_path("kallsyms", "callsite.txt"), &ksyms))
		return -1;
	*state = ksyms;
	return 0;
}

static int teardown(void **state)
{
	ksyms__free(*state);
	return 0;
}

/* A stack with the tracer's frame first, then a call site, then depth frames */
static void make_stack(__u64 *ips, __u64 site, __u64 depth)
{
	ips[0] = BPF_TRAMPOLINE;
	ips[1] = CAP_CAPABLE;
	ips[2] = SECURITY_CAPABLE;
	ips[3] = CAPABLE;
	ips[4] = site;
	ips[5] = DO_SYSCALL_64 + depth;	/* a different caller per depth */
}

static void test_same_frames_same_stack(void **state)
{
	struct stacks *s = stacks__new(*state, 0);
	__u64 a[6], b[6];
	struct stack_info *x, *y;

	assert_non_null(s);
	make_stack(a, DO_SYS_SETHOSTNAME, 0);
	memcpy(b, a, sizeof(a));
	x = stacks__get(s, a, 6);
	assert_non_null(x);
	a[5] = 0;	/* the record's buffer, reused: the stack kept its own copy */
	y = stacks__get(s, b, 6);
	assert_ptr_equal(x, y);
	assert_int_equal(stacks__nr(s), 1);
	/* the tracer's frame is dropped from the symbolized frames */
	assert_int_equal(x->nr_frames, 5);
	assert_string_equal(x->call_site, "__do_sys_sethostname");
	assert_int_equal(x->call_site_ip, DO_SYS_SETHOSTNAME);
	stacks__free(s);
}

static void test_distinct_stacks(void **state)
{
	struct stacks *s = stacks__new(*state, 0);
	struct stack_info *first, *si;
	__u64 ips[6];
	int i;

	assert_non_null(s);
	make_stack(ips, BPF_PROG_LOAD, 0);
	first = stacks__get(s, ips, 6);
	/* 10^4 stacks above one call site: more than a stack map's collisions allow */
	for (i = 1; i < 10000; i++) {
		make_stack(ips, BPF_PROG_LOAD, i);
		si = stacks__get(s, ips, 6);
		assert_non_null(si);
		assert_string_equal(si->call_site, "bpf_prog_load");
	}
	assert_int_equal(stacks__nr(s), 10000);
	assert_int_equal(stacks__nr_dropped(s), 0);
	make_stack(ips, BPF_PROG_LOAD, 0);
	assert_ptr_equal(stacks__get(s, ips, 6), first);
	/* a shorter stack with the same first frames is another stack */
	assert_ptr_not_equal(stacks__get(s, ips, 5), first);
	assert_int_equal(stacks__nr(s), 10001);
	stacks__free(s);
}

static void test_bounded(void **state)
{
	struct stacks *s = stacks__new(*state, 3);
	struct stack_info *si;
	__u64 ips[6];
	int i;

	assert_non_null(s);
	for (i = 0; i < 5; i++) {
		make_stack(ips, DO_SYS_SETHOSTNAME, i);
		si = stacks__get(s, ips, 6);
		/* beyond the bound a stack is still symbolized for its record */
		assert_non_null(si);
		assert_string_equal(si->call_site, "__do_sys_sethostname");
	}
	assert_int_equal(stacks__nr(s), 3);
	assert_int_equal(stacks__nr_dropped(s), 2);
	make_stack(ips, DO_SYS_SETHOSTNAME, 1);
	si = stacks__get(s, ips, 6);
	assert_int_equal(stacks__nr_dropped(s), 2);	/* a kept one */
	assert_non_null(si);
	stacks__free(s);
}

/* The text taken (by the recorder, for agg): the stack stays, with no frames */
static void test_take_frames(void **state)
{
	struct stacks *s = stacks__new(*state, 0);
	struct stack_info *si;
	__u64 ips[6], hash;
	char **frames;

	assert_non_null(s);
	make_stack(ips, DO_SYS_SETHOSTNAME, 0);
	si = stacks__get(s, ips, 6);
	assert_non_null(si);
	hash = si->hash;
	frames = stacks__take_frames(si);
	assert_non_null(frames);
	assert_string_equal(frames[0], "cap_capable+0x5");
	assert_string_equal(frames[3], "__do_sys_sethostname+0x40");
	assert_null(si->frames);
	assert_int_equal(si->nr_frames, 0);
	free(frames);	/* one block */
	/* seen again: the same stack, its hash and call site, no text */
	assert_ptr_equal(stacks__get(s, ips, 6), si);
	assert_int_equal(si->hash, hash);
	assert_string_equal(si->call_site, "__do_sys_sethostname");
	stacks__free(s);
}

static void test_no_frames(void **state)
{
	struct stacks *s = stacks__new(*state, 0);
	__u64 ips[CAPAUDIT_MAX_STACK + 8] = { 0 };
	struct stack_info *si;

	assert_non_null(s);
	assert_null(stacks__get(s, NULL, 3));
	assert_null(stacks__get(s, ips, 0));
	/* more frames than a record holds: taken as CAPAUDIT_MAX_STACK */
	make_stack(ips, DO_SYS_SETHOSTNAME, 0);
	si = stacks__get(s, ips, CAPAUDIT_MAX_STACK + 8);
	assert_non_null(si);
	assert_int_equal(si->nr_ips, CAPAUDIT_MAX_STACK);
	stacks__free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_frames_same_stack),
		cmocka_unit_test(test_distinct_stacks),
		cmocka_unit_test(test_bounded),
		cmocka_unit_test(test_no_frames),
		cmocka_unit_test(test_take_frames),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
