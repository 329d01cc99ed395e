// SPDX-License-Identifier: GPL-2.0
/*
 * test_kcounts.c: the parts of the in-kernel counting that need no kernel:
 * the chain of return addresses found in a LEARN record's window and the
 * walk along it (sitechain.c), the decoding of the
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
#include "sitechain.h"

#define SITE 0xffffffff81123456ull

/* A window's return addresses: BPF frame at slot 0, as the program reads it */
#define TRAMP	0xffffffffc0201234ull	/* the BPF trampoline */
#define SECCAP	0xffffffff81400010ull	/* security_capable+0x10 */
#define NSCAP	0xffffffff81080020ull	/* ns_capable+0x20 */
#define FILECAP	0xffffffff81080120ull	/* file_ns_capable+0x20 */
#define SITE2	0xffffffff81654321ull

static void test_chain_find(void **state)
{
	const __u64 ips[] = { 0xffffffffc0000042ull, TRAMP, SECCAP, NSCAP, SITE, 0xdead };
	struct sitechain_link l[CAPAUDIT_MAX_HOPS];
	__u64 w[CAPAUDIT_WINDOW_SLOTS] = {};

	(void)state;
	/* the call site is not in the window: nothing to learn */
	assert_int_equal(sitechain__find(w, CAPAUDIT_WINDOW_SLOTS, ips, 4, l, 8), -ENOENT);
	w[2] = TRAMP;
	w[9] = SECCAP;
	w[14] = NSCAP;
	w[17] = SITE;
	w[40] = 0xdead;
	/* the BPF program's own address is not on the stack: left out */
	assert_int_equal(sitechain__find(w, CAPAUDIT_WINDOW_SLOTS, ips, 4, l, 8), 4);
	assert_true(l[0].addr == TRAMP && l[0].slot == 2);
	assert_true(l[1].addr == SECCAP && l[1].slot == 9);
	assert_true(l[2].addr == NSCAP && l[2].slot == 14);
	assert_true(l[3].addr == SITE && l[3].slot == 17);
	/* stale copies below the real slots, and the call site's above: the chain holds */
	w[5] = SITE;
	w[6] = NSCAP;
	w[12] = SECCAP;
	assert_int_equal(sitechain__find(w, CAPAUDIT_WINDOW_SLOTS, ips, 4, l, 8), 4);
	assert_int_equal(l[1].slot, 12);	/* the highest below NSCAP's slot */
	assert_int_equal(l[3].slot, 17);
	w[30] = SITE;				/* a stack frame above the call site */
	assert_int_equal(sitechain__find(w, CAPAUDIT_WINDOW_SLOTS, ips, 4, l, 8), 4);
	assert_int_equal(l[3].slot, 30);
	/* longer than the room given */
	assert_int_equal(sitechain__find(w, CAPAUDIT_WINDOW_SLOTS, ips, 4, l, 3), -E2BIG);
	assert_int_equal(sitechain__find(NULL, CAPAUDIT_WINDOW_SLOTS, ips, 4, l, 8), -EINVAL);
	assert_int_equal(sitechain__find(w, CAPAUDIT_WINDOW_SLOTS + 1, ips, 4, l, 8), -EINVAL);
}

/* An array of hops for the walk */
struct hoptab {
	__u64 addr[8];
	struct capaudit_hop hop[8];
	int n;
};

static int tab_lookup(void *ctx, __u64 addr, struct capaudit_hop *ret_hop)
{
	const struct hoptab *t = ctx;
	int i;

	for (i = 0; i < t->n; i++) {
		if (t->addr[i] == addr) {
			*ret_hop = t->hop[i];
			return 0;
		}
	}
	return -ENOENT;
}

static void tab_add(struct hoptab *t, __u64 addr, __u32 state, __u32 delta)
{
	t->addr[t->n] = addr;
	t->hop[t->n].state = state;
	t->hop[t->n].delta = delta;
	t->n++;
}

/*
 * The windows of checks from two call sites, each at several stack offsets:
 * the random offset is above the call site, so the frames below it, and the
 * walk, are the same; what lies above differs.
 */
static void test_chain_walk(void **state)
{
	__u64 a[CAPAUDIT_WINDOW_SLOTS] = {}, b[CAPAUDIT_WINDOW_SLOTS] = {};
	struct hoptab t = {};
	int r;

	(void)state;
	tab_add(&t, TRAMP, CAPAUDIT_HOP_NEXT, 7);
	tab_add(&t, SECCAP, CAPAUDIT_HOP_NEXT, 5);
	tab_add(&t, NSCAP, CAPAUDIT_HOP_NEXT, 3);
	tab_add(&t, FILECAP, CAPAUDIT_HOP_NEXT, 6);
	tab_add(&t, SITE, CAPAUDIT_HOP_SITE, 0);
	tab_add(&t, SITE2, CAPAUDIT_HOP_SITE, 0);
	for (r = 0; r < 64; r++) {
		memset(a, 0, sizeof(a));
		memset(b, 0, sizeof(b));
		a[2] = b[2] = TRAMP;
		a[9] = b[9] = SECCAP;
		a[14] = NSCAP;
		a[17] = SITE;
		b[14] = FILECAP;
		b[20] = SITE2;
		/* what the random offset moves: the frames above the call site */
		a[18 + r % 100] = 0x1234 + r;
		b[21 + r % 100] = SITE;
		assert_true(sitechain__walk(a, CAPAUDIT_WINDOW_SLOTS, 2, tab_lookup, &t) == SITE);
		assert_true(sitechain__walk(b, CAPAUDIT_WINDOW_SLOTS, 2, tab_lookup, &t) == SITE2);
	}
	/* an unknown address, a window too short, an unknown start: no site */
	a[14] = 0x77;
	assert_true(sitechain__walk(a, CAPAUDIT_WINDOW_SLOTS, 2, tab_lookup, &t) == 0);
	assert_true(sitechain__walk(b, 20, 2, tab_lookup, &t) == 0);
	assert_true(sitechain__walk(b, CAPAUDIT_WINDOW_SLOTS, 0, tab_lookup, &t) == 0);
	/* an address marked for unwinding stops the walk */
	t.hop[2].state = CAPAUDIT_HOP_UNWIND;
	a[14] = NSCAP;
	assert_true(sitechain__walk(a, CAPAUDIT_WINDOW_SLOTS, 2, tab_lookup, &t) == 0);
	/* a loop of hops ends after CAPAUDIT_MAX_HOPS */
	t.hop[2].state = CAPAUDIT_HOP_NEXT;
	t.hop[2].delta = 1;
	a[15] = NSCAP;
	memset(a + 16, 0, 32);
	for (r = 14; r < 14 + CAPAUDIT_MAX_HOPS + 2; r++)
		a[r] = NSCAP;
	assert_true(sitechain__walk(a, CAPAUDIT_WINDOW_SLOTS, 2, tab_lookup, &t) == 0);
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
	assert_true(events__window(&l, sizeof(l))[5] == SITE);
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
	struct kcounts_maps maps = { .counts = &rows[0][0], .ncpus = 2, .hops_fd = -1 };
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
		cmocka_unit_test(test_chain_find),
		cmocka_unit_test(test_chain_walk),
		cmocka_unit_test(test_decode_kinds),
		cmocka_unit_test(test_decode_frames),
		cmocka_unit_test(test_collect_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
