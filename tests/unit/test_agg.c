// SPDX-License-Identifier: GPL-2.0
/* test_agg.c: unit tests of agg.c: counting by key, interning, overflow, resets, stacks. */
#include <errno.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "agg.h"

#define ROWS_MAX 4096
#include "rows.h"

static struct rows *rows_of(const struct agg *agg)
{
	struct rows *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	assert_int_equal(agg__for_each(agg, rows__collect, r), 0);
	return r;
}

static bool str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* The row of a key, NULL if there is none */
static const struct agg_row *find(const struct rows *r, __u32 cap, __u32 granted,
				  const char *call_site, const char *syscall,
				  const char *workload, __u64 stack_hash)
{
	int i;

	for (i = 0; i < r->nr; i++) {
		const struct agg_row *row = &r->row[i];

		if (row->cap == cap && row->granted == granted && row->stack_hash == stack_hash &&
		    str_eq(row->call_site, call_site) && str_eq(row->syscall, syscall) &&
		    str_eq(row->workload, workload))
			return row;
	}
	return NULL;
}

static struct check mk(__u64 ts, __u32 cap, __u32 granted, const char *site, const char *sc,
		       const char *wl)
{
	struct check c = {
		.ts_ns = ts, .tid = 1, .cap = cap, .granted = granted, .audit = CHECK_AUDITED,
		.stack_hash = 0, .call_site = site, .syscall = sc, .workload = wl,
		.comm = "comm",
	};
	return c;
}

static void test_counts_by_key(void **state)
{
	struct agg *agg = agg__new(NULL);
	struct check a = mk(100, 21, 1, "sethostname", "sethostname", "a.service");
	struct check b = mk(50, 21, 0, "sethostname", "sethostname", "a.service");
	struct check k = mk(70, 21, 1, "cap_vm_enough_memory", NULL, "a.service");
	const struct agg_row *row;
	struct rows *r;

	(void)state;
	assert_non_null(agg);
	assert_int_equal(agg__add(agg, &a), 0);
	a.ts_ns = 300;
	assert_int_equal(agg__add(agg, &a), 0);
	a.ts_ns = 10;
	assert_int_equal(agg__add(agg, &a), 0);
	assert_int_equal(agg__add(agg, &b), 0);
	k.audit = CHECK_NOAUDIT;
	assert_int_equal(agg__add(agg, &k), 0);
	k.audit = CHECK_AUDITED;
	assert_int_equal(agg__add(agg, &k), 0);
	k.stack_hash = 42;
	assert_int_equal(agg__add(agg, &k), 0);
	assert_int_equal(agg__nr_keys(agg), 5);

	r = rows_of(agg);
	assert_int_equal(r->nr, 5);
	assert_int_equal(rows__sum(r), 7);
	row = find(r, 21, 1, "sethostname", "sethostname", "a.service", 0);
	assert_non_null(row);
	assert_int_equal(row->count, 3);
	assert_int_equal(row->first_ns, 10);
	assert_int_equal(row->last_ns, 300);
	assert_int_equal(row->audit, CHECK_AUDITED);
	assert_string_equal(row->comm, "comm");
	row = find(r, 21, 0, "sethostname", "sethostname", "a.service", 0);
	assert_non_null(row);
	assert_int_equal(row->count, 1);
	assert_int_equal(row->first_ns, 50);
	/* NULL syscall kept NULL, audit and stack hash part of the key */
	row = find(r, 21, 1, "cap_vm_enough_memory", NULL, "a.service", 42);
	assert_non_null(row);
	assert_int_equal(row->count, 1);
	assert_int_equal(agg__overflow(agg), 0);
	free(r);
	agg__free(agg);
}

static void test_interning(void **state)
{
	struct agg *agg = agg__new(NULL);
	char site[32], wl[32];
	struct check c;
	struct rows *r;
	int i;

	(void)state;
	/* the same contents from other buffers are the same key */
	for (i = 0; i < 3; i++) {
		snprintf(site, sizeof(site), "do_mount");
		snprintf(wl, sizeof(wl), "x.service");
		c = mk(i, 21, 1, site, "mount", wl);
		assert_int_equal(agg__add(agg, &c), 0);
	}
	/* the agg copied them: the caller's buffers may change */
	snprintf(site, sizeof(site), "CHANGED");
	snprintf(wl, sizeof(wl), "CHANGED");
	c = mk(5, 19, 1, "syslog_action", "syslog", "x.service");
	assert_int_equal(agg__add(agg, &c), 0);
	assert_int_equal(agg__nr_keys(agg), 2);

	r = rows_of(agg);
	assert_int_equal(r->nr, 2);
	assert_non_null(find(r, 21, 1, "do_mount", "mount", "x.service", 0));
	assert_int_equal(find(r, 21, 1, "do_mount", "mount", "x.service", 0)->count, 3);
	/* one copy of "x.service" for both keys */
	assert_ptr_equal(r->orig_workload[0], r->orig_workload[1]);
	assert_ptr_not_equal(r->orig_workload[0], wl);
	/* a NULL string is not "": two keys */
	c = mk(6, 19, 1, "syslog_action", "", "x.service");
	assert_int_equal(agg__add(agg, &c), 0);
	assert_int_equal(agg__nr_keys(agg), 3);
	free(r);
	agg__free(agg);
}

static void test_overflow_accounting(void **state)
{
	struct agg_limits lim = { .max_keys = 3, .max_stacks = 2 };
	struct agg *agg = agg__new(&lim);
	struct agg_overflow tot, delta;
	const struct agg_row *row;
	char wl[32];
	struct check c;
	struct rows *r;
	__u64 added = 0;
	int i;

	(void)state;
	assert_non_null(agg);
	/* 10 workloads, each 1 + i checks: three fit, seven overflow */
	for (i = 0; i < 10; i++) {
		int n;

		snprintf(wl, sizeof(wl), "w%d", i);
		for (n = 0; n <= i; n++) {
			c = mk(1000 + i * 10 + n, i < 5 ? 21 : 39, i & 1, "site", "sc", wl);
			assert_int_equal(agg__add(agg, &c), 0);
			added++;
		}
	}
	assert_int_equal(agg__nr_keys(agg), 3);
	r = rows_of(agg);
	assert_int_equal(rows__sum(r), added);
	/* w0..w2 fit: 1 + 2 + 3 checks; the rest, 49, overflowed */
	assert_int_equal(agg__overflow(agg), added - 6);
	agg__overflow_counts(agg, &tot, &delta);
	assert_int_equal(tot.checks, added - 6);
	assert_int_equal(delta.checks, added - 6);
	/* overflow rows keep cap and verdict: w3..w4 cap 21, w5..w9 cap 39, odd i granted */
	row = find(r, 21, 1, AGG_OVERFLOW, AGG_OVERFLOW, AGG_OVERFLOW, 0);
	assert_non_null(row);
	assert_int_equal(row->count, 4);	/* w3 */
	assert_int_equal(row->first_ns, 1030);
	assert_int_equal(row->last_ns, 1033);
	row = find(r, 21, 0, AGG_OVERFLOW, AGG_OVERFLOW, AGG_OVERFLOW, 0);
	assert_int_equal(row->count, 5);	/* w4 */
	row = find(r, 39, 1, AGG_OVERFLOW, AGG_OVERFLOW, AGG_OVERFLOW, 0);
	assert_int_equal(row->count, 6 + 8 + 10);	/* w5, w7, w9 */
	row = find(r, 39, 0, AGG_OVERFLOW, AGG_OVERFLOW, AGG_OVERFLOW, 0);
	assert_int_equal(row->count, 7 + 9);	/* w6, w8 */
	assert_string_equal(row->comm, AGG_OVERFLOW);
	assert_int_equal(r->nr, 3 + 4);
	/* a known key still counts in its own row when the table is full */
	c = mk(5, 21, 0, "site", "sc", "w0");
	assert_int_equal(agg__add(agg, &c), 0);
	free(r);
	r = rows_of(agg);
	assert_int_equal(find(r, 21, 0, "site", "sc", "w0", 0)->count, 2);
	assert_int_equal(agg__overflow(agg), added - 6);
	/* a cap beyond the overflow table is bounded, and still counted */
	c = mk(5, 1000, 1, "site", "sc", "new");
	assert_int_equal(agg__add(agg, &c), 0);
	free(r);
	r = rows_of(agg);
	assert_int_equal(find(r, AGG_OTHER, 1, AGG_OVERFLOW, AGG_OVERFLOW, AGG_OVERFLOW, 0)->count, 1);
	assert_int_equal(rows__sum(r), added + 2);
	free(r);
	agg__free(agg);
}

static void test_reset_deltas(void **state)
{
	struct agg_limits lim = { .max_keys = 2 };
	struct agg *agg = agg__new(&lim);
	struct check a = mk(1, 21, 1, "a", "sc", "wa");
	struct check b = mk(2, 21, 1, "b", "sc", "wb");
	struct check x = mk(3, 21, 1, "x", "sc", "wx");
	struct agg_overflow delta;
	struct rows *r;

	(void)state;
	/* b first: its strings, dropped later, come before a's in the table */
	assert_int_equal(agg__add(agg, &b), 0);
	assert_int_equal(agg__add(agg, &a), 0);
	assert_int_equal(agg__add(agg, &x), 0);	/* overflow */
	assert_int_equal(agg__overflow(agg), 1);
	agg__reset_deltas(agg);
	r = rows_of(agg);
	assert_int_equal(r->nr, 0);	/* counts restart at 0, overflow rows too */
	free(r);
	agg__overflow_counts(agg, NULL, &delta);
	assert_int_equal(delta.checks, 0);
	assert_int_equal(agg__overflow(agg), 1);	/* the total stays */
	assert_int_equal(agg__nr_keys(agg), 2);	/* used in the interval: kept */

	/* interval 2: only a is used; b is forgotten at the next reset */
	a.ts_ns = 7;
	assert_int_equal(agg__add(agg, &a), 0);
	assert_int_equal(agg__nr_keys(agg), 2);
	r = rows_of(agg);
	assert_int_equal(r->nr, 1);
	assert_int_equal(r->row[0].count, 1);
	assert_int_equal(r->row[0].first_ns, 7);
	assert_string_equal(r->row[0].workload, "wa");
	free(r);
	agg__reset_deltas(agg);
	assert_int_equal(agg__nr_keys(agg), 1);

	/* the room b left is x's now: no overflow, and a's strings survived */
	assert_int_equal(agg__add(agg, &x), 0);
	assert_int_equal(agg__add(agg, &a), 0);
	assert_int_equal(agg__nr_keys(agg), 2);
	assert_int_equal(agg__overflow(agg), 1);
	r = rows_of(agg);
	assert_int_equal(r->nr, 2);
	assert_non_null(find(r, 21, 1, "x", "sc", "wx", 0));
	assert_non_null(find(r, 21, 1, "a", "sc", "wa", 0));
	free(r);
	agg__free(agg);
}

static void test_hash_frames_stable(void **state)
{
	const char *const frames[] = { "cap_capable+0x0", "ns_capable+0x2d", "__x64_sys_sethostname+0x3e" };
	const char *const ab_c[] = { "ab", "c" }, *const a_bc[] = { "a", "bc" };
	const char *const rev[] = { frames[2], frames[1], frames[0] };
	const char *const a[] = { "a" };

	(void)state;
	/*
	 * FNV-1a 64 of "frame\n"...: values computed independently, so a
	 * change of the hash (which would split every stored stack) fails
	 */
	assert_int_equal(agg__hash_frames(frames, 3), 0x45531f987bd4bae9ull);
	assert_int_equal(agg__hash_frames(a, 1), 0x089bdc07b544e7b2ull);
	assert_int_not_equal(agg__hash_frames(frames, 3), agg__hash_frames(rev, 3));
	assert_int_not_equal(agg__hash_frames(ab_c, 2), agg__hash_frames(a_bc, 2));
	assert_int_not_equal(agg__hash_frames(frames, 2), agg__hash_frames(frames, 3));
	assert_int_equal(agg__hash_frames(frames, 0), 0);
}

struct stack_seen {
	int nr;
	__u64 hash[16];
	int nr_frames[16];
	char first[16][64];
	const char *frames0[16];	/* where the first frame's text is */
};

static int collect_stack(__u64 stack_hash, const char *const *frames, int nr, void *ctx)
{
	struct stack_seen *s = ctx;

	assert_true(s->nr < 16);
	s->hash[s->nr] = stack_hash;
	s->nr_frames[s->nr] = nr;
	s->frames0[s->nr] = frames[0];
	snprintf(s->first[s->nr], 64, "%s|%s", frames[0], frames[nr - 1]);
	s->nr++;
	return 0;
}

static void test_stacks(void **state)
{
	struct agg_limits lim = { .max_stacks = 2 };
	struct agg *agg = agg__new(&lim);
	const char *const f1[] = { "cap_capable+0x0", "do_mount+0x10" };
	const char *const f2[] = { "cap_capable+0x0", "do_syslog+0x20", "x+0x1" };
	const char *const f3[] = { "cap_capable+0x0", "bpf+0x1" };
	const char *const bad[] = { "a\nb" };
	__u64 h1 = agg__hash_frames(f1, 2), h2 = agg__hash_frames(f2, 3);
	__u64 h3 = agg__hash_frames(f3, 2);
	struct agg_overflow tot, delta;
	struct stack_seen seen = { 0 };
	char buf[32];
	const char *const fb[] = { buf };

	(void)state;
	assert_int_equal(agg__add_stack(agg, h1, f1, 2), 0);
	assert_int_equal(agg__add_stack(agg, h1, f1, 2), 0);	/* known: once */
	assert_int_equal(agg__add_stack(agg, h2, f2, 3), 0);
	assert_int_equal(agg__add_stack(agg, 0, f1, 2), -EINVAL);
	assert_int_equal(agg__add_stack(agg, 5, bad, 1), -EINVAL);
	assert_int_equal(agg__add_stack(agg, 5, f1, 0), -EINVAL);
	assert_int_equal(agg__nr_stacks(agg), 2);
	/* full: the third's frames are not kept, but counted */
	assert_int_equal(agg__add_stack(agg, h3, f3, 2), 0);
	agg__overflow_counts(agg, &tot, &delta);
	assert_int_equal(tot.stacks, 1);
	assert_int_equal(delta.stacks, 1);
	assert_int_equal(tot.checks, 0);

	assert_int_equal(agg__for_each_new_stack(agg, collect_stack, &seen), 0);
	assert_int_equal(seen.nr, 2);
	assert_int_equal(seen.hash[0], h1);
	assert_int_equal(seen.nr_frames[0], 2);
	assert_string_equal(seen.first[0], "cap_capable+0x0|do_mount+0x10");
	assert_int_equal(seen.hash[1], h2);
	assert_string_equal(seen.first[1], "cap_capable+0x0|x+0x1");

	/* flushed: no longer new, the hash kept while it is used */
	agg__reset_deltas(agg);
	seen.nr = 0;
	assert_int_equal(agg__for_each_new_stack(agg, collect_stack, &seen), 0);
	assert_int_equal(seen.nr, 0);
	agg__overflow_counts(agg, &tot, &delta);
	assert_int_equal(delta.stacks, 0);
	assert_int_equal(tot.stacks, 1);
	assert_int_equal(agg__add_stack(agg, h1, f1, 2), 0);
	assert_int_equal(agg__for_each_new_stack(agg, collect_stack, &seen), 0);
	assert_int_equal(seen.nr, 0);
	/* h2 unused for an interval: forgotten, so h3 fits now, frames copied */
	agg__reset_deltas(agg);
	assert_int_equal(agg__nr_stacks(agg), 1);
	snprintf(buf, sizeof(buf), "copied+0x1");
	assert_int_equal(agg__add_stack(agg, h3, fb, 1), 0);
	snprintf(buf, sizeof(buf), "CHANGED");
	assert_int_equal(agg__for_each_new_stack(agg, collect_stack, &seen), 0);
	assert_int_equal(seen.nr, 1);
	assert_int_equal(seen.hash[0], h3);
	assert_string_equal(seen.first[0], "copied+0x1|copied+0x1");
	agg__free(agg);
}

/* A frames block as stacks.c makes it: the pointers, then their text */
static char **block_of(const char *const *frames, int nr)
{
	size_t size = nr * sizeof(char *), off = size;
	char **blk;
	int i;

	for (i = 0; i < nr; i++)
		size += strlen(frames[i]) + 1;
	blk = malloc(size);
	assert_non_null(blk);
	for (i = 0; i < nr; i++) {
		blk[i] = strcpy((char *)blk + off, frames[i]);
		off += strlen(frames[i]) + 1;
	}
	return blk;
}

/* adopt: taken without a copy, freed when held already, the caller's on an error */
static void test_adopt_stack(void **state)
{
	struct agg_limits lim = { .max_stacks = 1 };
	struct agg *agg = agg__new(&lim);
	const char *const f1[] = { "cap_capable+0x0", "do_mount+0x10" };
	const char *const f2[] = { "cap_capable+0x0", "bpf+0x1" };
	__u64 h1 = agg__hash_frames(f1, 2), h2 = agg__hash_frames(f2, 2);
	struct stack_seen seen = { 0 };
	struct agg_overflow tot, delta;
	char **b1 = block_of(f1, 2), **again = block_of(f1, 2), **b2 = block_of(f2, 2);

	(void)state;
	assert_int_equal(agg__adopt_stack(agg, h1, b1, 2), 0);
	assert_int_equal(agg__adopt_stack(agg, h1, again, 2), 0);	/* held: freed (ASan) */
	assert_int_equal(agg__nr_stacks(agg), 1);
	/* full: counted, and b2 is still ours */
	assert_int_equal(agg__adopt_stack(agg, h2, b2, 2), -ENOSPC);
	agg__overflow_counts(agg, &tot, &delta);
	assert_int_equal(tot.stacks, 1);
	assert_string_equal(b2[1], "bpf+0x1");
	assert_int_equal(agg__adopt_stack(agg, 0, b2, 2), -EINVAL);
	free(b2);
	assert_int_equal(agg__for_each_new_stack(agg, collect_stack, &seen), 0);
	assert_int_equal(seen.nr, 1);
	assert_int_equal(seen.hash[0], h1);
	assert_string_equal(seen.first[0], "cap_capable+0x0|do_mount+0x10");
	assert_ptr_equal(seen.frames0[0], b1[0]);	/* the block itself, not a copy */
	agg__free(agg);
}

/* Adds up counts without keeping rows (more than MAX_ROWS) */
static int sum_counts(const struct agg_row *row, void *ctx)
{
	*(__u64 *)ctx += row->count;
	return 0;
}

/*
 * Many keys: the tables grow and rehash; every count lands where it belongs,
 * across resets, and rows + overflow always add up to what was added
 */
static void test_many_keys(void **state)
{
	struct agg_limits lim = { .max_keys = 3000 };
	struct agg *agg = agg__new(&lim);
	char site[32], wl[32];
	struct check c;
	int round, i;

	(void)state;
	for (round = 0; round < 3; round++) {
		__u64 added = 0, ov_before = agg__overflow(agg), in_rows;

		/* 4000 distinct keys, key i added (i % 3) + 1 times */
		for (i = 0; i < 4000; i++) {
			int n;

			snprintf(site, sizeof(site), "site%d", i % 700);
			snprintf(wl, sizeof(wl), "wl%d", (i * 7 + round) % 4000);
			c = mk(i, i % 41, i & 1, site, (i % 5) ? "sc" : NULL, wl);
			for (n = 0; n <= i % 3; n++, added++)
				assert_int_equal(agg__add(agg, &c), 0);
		}
		in_rows = 0;
		assert_int_equal(agg__nr_keys(agg), 3000);
		assert_int_equal(agg__for_each(agg, sum_counts, &in_rows), 0);
		assert_int_equal(in_rows, added);
		/*
		 * each round starts with the keys of the last round (the same
		 * sites but workloads shifted) so overflow is what differs
		 */
		assert_true(agg__overflow(agg) - ov_before > 0);
		agg__reset_deltas(agg);
	}
	agg__free(agg);
}

static void test_limits(void **state)
{
	struct agg_limits lim = { .max_keys = AGG_MAX_LIMIT + 1 };

	(void)state;
	errno = 0;
	assert_null(agg__new(&lim));
	assert_int_equal(errno, EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_by_key),
		cmocka_unit_test(test_interning),
		cmocka_unit_test(test_overflow_accounting),
		cmocka_unit_test(test_reset_deltas),
		cmocka_unit_test(test_hash_frames_stable),
		cmocka_unit_test(test_stacks),
		cmocka_unit_test(test_adopt_stack),
		cmocka_unit_test(test_many_keys),
		cmocka_unit_test(test_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
