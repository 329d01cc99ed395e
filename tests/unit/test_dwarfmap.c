// SPDX-License-Identifier: GPL-2.0
/*
 * test_dwarfmap.c: unit tests of dwarfmap.c on a program built at test time
 * from tests/fixtures/dwarfmap/calls.c (gcc -g -O2): the return addresses
 * it prints map to the lines its comments mark, through an inlined function
 * and a tail call; and the errors of files without DWARF or not ELF.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fixture.h"
#include "dwarfmap.h"

struct env {
	char dir[64];
	char bin[PATH_MAX], nodebug[PATH_MAX], text[PATH_MAX];
	char src[PATH_MAX];
	unsigned long off[3];	/* check()'s return addresses in outer() */
};

/* The line of calls.c that holds the marker @name@ */
static unsigned int marked_line(const struct env *e, const char *name)
{
	char line[512], marker[64];
	unsigned int n = 0;
	FILE *f = fopen(e->src, "r");

	assert_non_null(f);
	snprintf(marker, sizeof(marker), "@%s@", name);
	while (fgets(line, sizeof(line), f)) {
		n++;
		if (strstr(line, marker)) {
			fclose(f);
			return n;
		}
	}
	fclose(f);
	fail_msg("no marker %s in %s", marker, e->src);
	return 0;
}

static int build(const struct env *e, const char *out, const char *flags)
{
	char cmd[3 * PATH_MAX];

	snprintf(cmd, sizeof(cmd), "gcc %s -O2 -fno-ipa-icf -no-pie '%s' -o '%s' 2>&1", flags,
		 e->src, out);
	return system(cmd);
}

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));
	char cmd[PATH_MAX + 8];
	FILE *p, *f;
	int i;

	if (!e)
		return -1;
	snprintf(e->dir, sizeof(e->dir), "/tmp/test_dwarfmap.XXXXXX");
	if (!mkdtemp(e->dir) || !realpath(fixture_path("dwarfmap", "calls.c"), e->src))
		return -1;
	snprintf(e->bin, sizeof(e->bin), "%s/calls", e->dir);
	snprintf(e->nodebug, sizeof(e->nodebug), "%s/calls-nodebug", e->dir);
	snprintf(e->text, sizeof(e->text), "%s/text", e->dir);
	if (build(e, e->bin, "-g") || build(e, e->nodebug, "-g0"))
		return -1;
	f = fopen(e->text, "w");
	if (!f || fputs("not an ELF file\n", f) < 0 || fclose(f))
		return -1;
	snprintf(cmd, sizeof(cmd), "'%s'", e->bin);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	for (i = 0; i < 3; i++)
		if (fscanf(p, "outer+0x%lx\n", &e->off[i]) != 1)
			break;
	pclose(p);
	if (i != 3)
		return -1;
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", e->dir);
	if (system(cmd))
		return -1;
	free(e);
	return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

static void test_inline_chain(void **state)
{
	const struct env *e = *state;
	const struct dwarfmap_result *r;
	struct dwarfmap *m;

	assert_int_equal(dwarfmap__open(e->bin, &m), 0);
	assert_int_equal(dwarfmap__addr2line(m, "outer", e->off[0], true, &r), 0);
	assert_int_equal(r->nr, 2);
	assert_true(ends_with(r->locs[0].file, "/calls.c"));
	assert_int_equal(r->locs[0].line, marked_line(e, "inner"));
	assert_string_equal(r->locs[0].function, "inner");
	assert_true(ends_with(r->locs[1].file, "/calls.c"));
	assert_int_equal(r->locs[1].line, marked_line(e, "outer_inline"));
	assert_string_equal(r->locs[1].function, "outer");
	assert_false(r->ambiguous);
	dwarfmap__free(m);
}

static void test_direct_and_cache(void **state)
{
	const struct env *e = *state;
	const struct dwarfmap_result *r, *again;
	const unsigned char *bits;
	struct dwarfmap *m;

	assert_int_equal(dwarfmap__open(e->bin, &m), 0);
	assert_int_equal(dwarfmap__addr2line(m, "outer", e->off[1], true, &r), 0);
	assert_int_equal(r->nr, 1);
	assert_int_equal(r->locs[0].line, marked_line(e, "outer_direct"));
	assert_string_equal(r->locs[0].function, "outer");
	/* the first call's result is still valid after others were cached */
	assert_int_equal(dwarfmap__addr2line(m, "outer", e->off[0], true, &again), 0);
	assert_int_equal(dwarfmap__addr2line(m, "outer", e->off[1], true, &again), 0);
	assert_ptr_equal(r, again);
	assert_int_equal(r->locs[0].line, marked_line(e, "outer_direct"));
	/* gcc links a GNU build ID (SHA-1) by default */
	assert_int_equal(dwarfmap__build_id(m, &bits), 20);
	dwarfmap__free(m);
}

static void test_tail_call(void **state)
{
	const struct env *e = *state;
	const struct dwarfmap_result *r;
	const char *callee;
	struct dwarfmap *m;

	assert_int_equal(dwarfmap__open(e->bin, &m), 0);
	assert_int_equal(dwarfmap__addr2line(m, "outer", e->off[2], true, &r), 0);
	assert_int_equal(r->locs[0].line, marked_line(e, "outer_tail"));
	assert_int_equal(dwarfmap__call_target(m, "outer", e->off[2], &callee), 0);
	assert_string_equal(callee, "tail");
	assert_int_equal(dwarfmap__call_target(m, "outer", e->off[1], &callee), 0);
	assert_string_equal(callee, "check");
	/* the start of tail() is in its definition */
	assert_int_equal(dwarfmap__addr2line(m, "tail", 0, false, &r), 0);
	assert_true(r->locs[0].line <= marked_line(e, "tail"));
	assert_true(r->locs[0].line + 3 > marked_line(e, "tail"));
	/* no call before offset 1 of a function */
	assert_int_equal(dwarfmap__call_target(m, "outer", 1, &callee), -ENOEXEC);
	dwarfmap__free(m);
}

static void test_lookup_errors(void **state)
{
	const struct env *e = *state;
	const struct dwarfmap_result *r = (void *)1;
	struct dwarfmap *m;

	assert_int_equal(dwarfmap__open(e->bin, &m), 0);
	assert_int_equal(dwarfmap__addr2line(m, "no_such_function", 4, true, &r), -ENOENT);
	assert_null(r);
	/* beyond the symbol's size */
	assert_int_equal(dwarfmap__addr2line(m, "outer", 0x100000, true, &r), -ENOENT);
	assert_int_equal(dwarfmap__addr2line(m, NULL, 4, true, &r), -EINVAL);
	dwarfmap__free(m);
}

static void test_open_errors(void **state)
{
	const struct env *e = *state;
	struct dwarfmap *m = NULL;
	char missing[PATH_MAX];

	snprintf(missing, sizeof(missing), "%s/missing", e->dir);
	assert_int_equal(dwarfmap__open(missing, &m), -ENOENT);
	assert_int_equal(dwarfmap__open(e->text, &m), -ENOEXEC);
	assert_int_equal(dwarfmap__open(e->nodebug, &m), -ENODATA);
	assert_null(m);
	assert_non_null(strstr(dwarfmap__strerror(-ENODATA), "CONFIG_DEBUG_INFO"));
	dwarfmap__free(NULL);
}

static void test_parse_frame(void **state)
{
	unsigned long off;
	char func[16];

	(void)state;
	assert_int_equal(dwarfmap__parse_frame("path_mount+0x2c4", func, sizeof(func), &off), 0);
	assert_string_equal(func, "path_mount");
	assert_int_equal(off, 0x2c4);
	assert_int_equal(dwarfmap__parse_frame("f.isra.0+0x10", func, sizeof(func), &off), 0);
	assert_string_equal(func, "f.isra.0");
	assert_int_equal(dwarfmap__parse_frame("[unknown]", func, sizeof(func), &off), -EINVAL);
	assert_int_equal(dwarfmap__parse_frame("+0x10", func, sizeof(func), &off), -EINVAL);
	assert_int_equal(dwarfmap__parse_frame("f+0x", func, sizeof(func), &off), -EINVAL);
	assert_int_equal(dwarfmap__parse_frame("f+0x1z", func, sizeof(func), &off), -EINVAL);
	assert_int_equal(dwarfmap__parse_frame("a_very_long_function_name+0x1", func, sizeof(func),
					       &off), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inline_chain),
		cmocka_unit_test(test_direct_and_cache),
		cmocka_unit_test(test_tail_call),
		cmocka_unit_test(test_lookup_errors),
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_parse_frame),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
