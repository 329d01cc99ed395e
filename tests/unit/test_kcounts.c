// SPDX-License-Identifier: GPL-2.0
/*
 * test_kcounts.c: the parts of the in-kernel counting that need no kernel:
 * the call-site slot found in a LEARN record's window, the decoding of the
 * record kinds (events.c), and the collection of the per-CPU rows of
 * "counts" (a plain array here).  The maps themselves are exercised in the
 * guest (tests/vm/120-record-counts.sh).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "agg.h"
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

/* A record's frames follow it: its size says how many, and no more than a stack holds */
static void test_decode_frames(void **state)
{
	struct capaudit_record r = {};
	struct capaudit_event e;
	size_t size = sizeof(r.e) + 3 * sizeof(__u64);

	(void)state;
	r.e.kind = CAPAUDIT_REC_KEY;
	r.e.nr_kframes = 3;
	r.data[2] = SITE;
	assert_int_equal(events__decode(&r, size, &e), 0);
	assert_int_equal(e.nr_kframes, 3);
	assert_ptr_equal(events__kstack(&r, size), r.data);
	assert_true(events__kstack(&r, size)[2] == SITE);
	assert_int_equal(events__decode(&r, size - 8, &e), -EINVAL);
	assert_int_equal(events__decode(&r, size + 8, &e), -EINVAL);
	assert_null(events__kstack(&r, size + 8));
	/* a LEARN record's frames come after its window */
	r.e.kind = CAPAUDIT_REC_LEARN;
	size = sizeof(struct capaudit_learn) + 3 * sizeof(__u64);
	assert_int_equal(events__decode(&r, size, &e), 0);
	assert_ptr_equal(events__kstack(&r, size), r.data + CAPAUDIT_WINDOW_SLOTS);
	assert_ptr_equal(events__window(&r, size), r.data);
	/* no frames: no stack */
	r.e.nr_kframes = 0;
	assert_null(events__kstack(&r, sizeof(struct capaudit_learn)));
	/* more frames than a stack holds, whatever the size */
	r.e.kind = CAPAUDIT_REC_CHECK;
	r.e.nr_kframes = CAPAUDIT_MAX_STACK + 1;
	assert_int_equal(events__decode(&r, sizeof(r.e) + (CAPAUDIT_MAX_STACK + 1) * 8, &e),
			 -EINVAL);
}

static __u64 rows[2][CAPAUDIT_COUNT_KEYS];

/* Each key's growth over both CPUs' rows, once; an index a row cannot hold is refused */
static void test_collect_rows(void **state)
{
	struct kcounts_maps maps = { .counts = &rows[0][0], .ncpus = 2, .sites_fd = -1 };
	struct check c = { .cap = 21, .granted = 1, .call_site = "do_sys", .comm = "x" };
	struct capaudit_event e = { .kind = CAPAUDIT_REC_KEY, .key_idx = 7 };
	struct agg *agg = agg__new(NULL);
	struct kcounts *kc = kcounts__new(&maps);

	(void)state;
	assert_non_null(agg);
	assert_non_null(kc);
	rows[0][7] = 5;
	rows[1][7] = 3;
	rows[1][9] = 100;	/* index 9: no KEY record yet, so not counted */
	assert_int_equal(kcounts__add_key(kc, &e, &c, NULL), 0);
	assert_int_equal(kcounts__add_key(kc, &e, &c, NULL), -EEXIST);
	assert_int_equal(kcounts__collect(kc, agg, 1), 8);
	assert_int_equal(kcounts__collect(kc, agg, 2), 0);
	rows[0][7] += 2;
	assert_int_equal(kcounts__collect(kc, agg, 3), 2);
	e.key_idx = 9;
	assert_int_equal(kcounts__add_key(kc, &e, &c, NULL), 0);
	assert_int_equal(kcounts__collect(kc, agg, 4), 100);
	e.key_idx = CAPAUDIT_COUNT_KEYS;
	assert_int_equal(kcounts__add_key(kc, &e, &c, NULL), -ERANGE);
	kcounts__free(kc);
	agg__free(agg);
	/* no rows, no kcounts */
	maps.counts = NULL;
	assert_null(kcounts__new(&maps));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find_slot),
		cmocka_unit_test(test_decode_kinds),
		cmocka_unit_test(test_decode_frames),
		cmocka_unit_test(test_collect_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
