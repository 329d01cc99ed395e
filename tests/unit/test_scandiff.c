// SPDX-License-Identifier: GPL-2.0
/*
 * test_scandiff.c: capability uses added, removed and changed between two
 * fixture trees (tests/fixtures/scan/diff/{a,b}) and by unified diffs (the
 * same change as a patch, a hunk that starts inside a comment, a malformed
 * diff).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "array_size.h"
#include "capdefs.h"
#include "fixture.h"
#include "scan_fixture.h"
#include "srcdiff.h"
#include "srcscan.h"

struct want_change {
	enum srcdiff_kind kind;
	const char *file;
	unsigned int line;
	const char *function;
	const char *old_cap;
	const char *new_cap;
};

static void check_changes(const struct srcdiff *d, const struct want_change *want, size_t n_want)
{
	const struct srcdiff_change *c;
	size_t i, n;

	c = srcdiff__changes(d, &n);
	for (i = 0; i < n && i < n_want; i++) {
		assert_int_equal(c[i].kind, want[i].kind);
		assert_string_equal(c[i].file, want[i].file);
		assert_int_equal(c[i].new_line ? c[i].new_line : c[i].old_line, want[i].line);
		assert_string_equal(c[i].function, want[i].function);
		if (want[i].old_cap)
			assert_string_equal(c[i].old_cap, want[i].old_cap);
		else
			assert_null(c[i].old_cap);
		if (want[i].new_cap)
			assert_string_equal(c[i].new_cap, want[i].new_cap);
		else
			assert_null(c[i].new_cap);
	}
	assert_int_equal(n, n_want);
}

static const struct srcdiff_sum *sum(const struct srcdiff *d, const char *cap)
{
	const struct srcdiff_sum *s;
	size_t i, n;

	s = srcdiff__sums(d, &n);
	for (i = 0; i < n; i++)
		if (!strcmp(s[i].cap, cap))
			return &s[i];
	fail_msg("no sum for %s", cap);
	return NULL;
}

static void test_diff_trees(void **state)
{
	/* per function, the trees' sites are compared as multisets */
	static const struct want_change want[] = {
		{ SRCDIFF_REMOVED, "fs/gone.c", 4, "gone", "CAP_SYS_ADMIN", NULL },
		{ SRCDIFF_ADDED, "kernel/printk.c", 4, "do_syslog", NULL, "CAP_SYSLOG" },
		{ SRCDIFF_ADDED, "net/new.c", 4, "added", NULL, "CAP_NET_ADMIN" },
		{ SRCDIFF_ADDED, "net/new.c", 4, "added", NULL, "CAP_SYS_ADMIN" },
	};
	struct srcscan *a = scan_fixture("diff/a", 0, 0, 2), *b = scan_fixture("diff/b", 0, 0, 2);
	struct srcdiff *d;

	(void)state;
	assert_int_equal(srcdiff__scans(a, b, &d), 0);
	check_changes(d, want, ARRAY_SIZE(want));
	assert_int_equal(sum(d, "CAP_SYS_ADMIN")->added, 1);
	assert_int_equal(sum(d, "CAP_SYS_ADMIN")->removed, 1);
	assert_int_equal(sum(d, "CAP_SYSLOG")->added, 1);
	srcdiff__free(d);

	/* a tree against itself: nothing */
	assert_int_equal(srcdiff__scans(a, a, &d), 0);
	check_changes(d, NULL, 0);
	srcdiff__free(d);
	free_scan(a);
	free_scan(b);
}

static struct srcdiff *patch(const char *name, const char *tree)
{
	struct capdefs *defs;
	struct srcdiff *d;
	char err[512];

	assert_int_equal(capdefs__load(fixture_path("scan", tree), &defs, err, sizeof(err)), 0);
	assert_int_equal(srcdiff__patch(fixture_path("scan", name), defs, 0, &d, err, sizeof(err)), 0);
	capdefs__free(defs);
	return d;
}

static void test_diff_patch(void **state)
{
	/* the same change as a diff: the changed line pairs with the line it replaces */
	static const struct want_change want[] = {
		{ SRCDIFF_REMOVED, "fs/gone.c", 4, "gone", "CAP_SYS_ADMIN", NULL },
		{ SRCDIFF_CHANGED, "kernel/printk.c", 4, "do_syslog", "CAP_SYS_ADMIN", "CAP_SYSLOG" },
		{ SRCDIFF_ADDED, "kernel/printk.c", 5, "do_syslog", NULL, "CAP_SYS_ADMIN" },
		{ SRCDIFF_ADDED, "net/new.c", 4, "added", NULL, "CAP_NET_ADMIN" },
		{ SRCDIFF_ADDED, "net/new.c", 4, "added", NULL, "CAP_SYS_ADMIN" },
	};
	struct srcdiff *d;

	(void)state;
	/* diff/a's header lacks CAP_SYSLOG: the diff's own header hunk adds it */
	d = patch("ab.diff", "diff/a");
	check_changes(d, want, ARRAY_SIZE(want));
	assert_int_equal(sum(d, "CAP_SYS_ADMIN")->changed_from, 1);
	assert_int_equal(sum(d, "CAP_SYSLOG")->changed_to, 1);
	srcdiff__free(d);
}

static void test_diff_patch_comment(void **state)
{
	struct srcdiff *d;

	(void)state;
	/* names in a comment the hunk starts inside, and unchanged uses on changed lines */
	d = patch("comment.diff", "diff/a");
	check_changes(d, NULL, 0);
	srcdiff__free(d);
}

static void test_diff_patch_errors(void **state)
{
	struct capdefs *defs;
	struct srcdiff *d;
	char err[512];

	(void)state;
	assert_int_equal(capdefs__load(fixture_path("scan", "diff/a"), &defs, err, sizeof(err)), 0);
	assert_int_equal(srcdiff__patch(fixture_path("scan", "malformed.diff"), defs, 0, &d, err,
					sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "malformed.diff:5: not a unified diff"));
	/*
	 * found by fuzz_patch: a hunk header cut after "+0" was taken for one
	 * whose new side starts at line 0, and a '+' line got line 0
	 */
	assert_int_equal(srcdiff__patch(fixture_path("scan", "bad-hunk.diff"), defs, 0, &d, err,
					sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "bad-hunk.diff:4:"));
	assert_int_equal(srcdiff__patch(fixture_path("scan", "none.diff"), defs, 0, &d, err,
					sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "none.diff: No such file or directory"));
	capdefs__free(defs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diff_trees),
		cmocka_unit_test(test_diff_patch),
		cmocka_unit_test(test_diff_patch_comment),
		cmocka_unit_test(test_diff_patch_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
