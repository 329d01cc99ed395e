// SPDX-License-Identifier: GPL-2.0
/*
 * test_kcounts.c: the parts of the in-kernel counting that need no kernel:
 * the call-site slot found in a LEARN record's window, and the decoding of
 * the record kinds (events.c).  The maps themselves are exercised in the
 * guest (tests/vm/120-record-counts.sh).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "events.h"
#include "kcounts.h"

#define SITE 0xffffffff81123456ull

static void test_find_slot(void **state)
{
	__u64 w[CAPAUDIT_WINDOW_SLOTS] = {};

	(void)state;
	assert_int_equal(kcounts__find_slot(w, CAPAUDIT_WINDOW_SLOTS, SITE), -ENOENT);
	w[7] = SITE;
	assert_int_equal(kcounts__find_slot(w, CAPAUDIT_WINDOW_SLOTS, SITE), 7);
	/* a stale copy deeper in a wrapper's frame: the outer one is the return address */
	w[3] = SITE;
	assert_int_equal(kcounts__find_slot(w, CAPAUDIT_WINDOW_SLOTS, SITE), 7);
	w[CAPAUDIT_WINDOW_SLOTS - 1] = SITE;
	assert_int_equal(kcounts__find_slot(w, CAPAUDIT_WINDOW_SLOTS, SITE),
			 CAPAUDIT_WINDOW_SLOTS - 1);
	/* no site (an unwinding without a call site) never matches an empty slot */
	assert_int_equal(kcounts__find_slot(w, CAPAUDIT_WINDOW_SLOTS, 0), -ENOENT);
	assert_int_equal(kcounts__find_slot(NULL, CAPAUDIT_WINDOW_SLOTS, SITE), -ENOENT);
	assert_int_equal(kcounts__find_slot(w, 0, SITE), -ENOENT);
}

static void test_decode_kinds(void **state)
{
	struct capaudit_learn l = {};
	struct capaudit_event e;

	(void)state;
	l.e.kind = CAPAUDIT_REC_KEY;
	l.e.site = SITE;
	assert_int_equal(events__decode(&l.e, sizeof(l.e), &e), 0);
	assert_int_equal(e.kind, CAPAUDIT_REC_KEY);
	assert_true(e.site == SITE);
	assert_null(events__window(&l.e, sizeof(l.e)));
	/* a LEARN record has the window, and only a LEARN record that size */
	assert_int_equal(events__decode(&l, sizeof(l), &e), -EINVAL);
	l.e.kind = CAPAUDIT_REC_LEARN;
	l.window[5] = SITE;
	assert_int_equal(events__decode(&l, sizeof(l), &e), 0);
	assert_ptr_equal(events__window(&l, sizeof(l)), l.window);
	assert_int_equal(kcounts__find_slot(events__window(&l, sizeof(l)), CAPAUDIT_WINDOW_SLOTS,
					    SITE), 5);
	assert_int_equal(events__decode(&l.e, sizeof(l.e), &e), -EINVAL);
	/* an unknown kind is refused whatever its size */
	l.e.kind = CAPAUDIT_REC_SAMPLE + 1;
	assert_int_equal(events__decode(&l.e, sizeof(l.e), &e), -EINVAL);
	assert_int_equal(events__decode(&l, sizeof(l), &e), -EINVAL);
	assert_int_equal(events__decode(&l, sizeof(l) - 8, &e), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find_slot),
		cmocka_unit_test(test_decode_kinds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
