// SPDX-License-Identifier: GPL-2.0
/*
 * test_coverage.c: unit tests of coverage.c: static sites joined with
 * synthetic mapped frames (exact line, a call split over lines, an inline
 * chain, a tail call, syscall wrapper names, a path that only looks alike,
 * frames that match nothing or were not mapped), counts and workloads.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "coverage.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const struct {
	const char *file;
	unsigned int line;
	const char *function, *helper;
} statics[] = {
	{ "kernel/sys.c", 1426, "sys_setdomainname", "ns_capable" },
	{ "kernel/sys.c", 1372, "sys_sethostname", "ns_capable" },
	{ "fs/namespace.c", 1778, "may_mount", "ns_capable" },
	{ "fs/super.c", 540, "mount_capable", "capable" },
	{ "fs/super.c", 542, "mount_capable", "ns_capable" },
	{ "fs/xattr.c", 119, "xattr_permission", "capable" },
	{ "fs/xattr.c", 131, "xattr_permission", "capable" },
	{ "include/linux/x.h", 3, "#define X", NULL },
};

static struct coverage *with_statics(void)
{
	struct coverage *c = coverage__new();
	int i;

	assert_non_null(c);
	for (i = 0; i < N(statics); i++)
		assert_int_equal(coverage__add_static(c, statics[i].file, statics[i].line,
						      statics[i].function, statics[i].helper), 0);
	return c;
}

static const struct coverage_site *site(const struct coverage *c, const char *file,
					unsigned int line)
{
	const struct coverage_site *s;
	size_t i, n;

	s = coverage__sites(c, &n);
	for (i = 0; i < n; i++)
		if (!strcmp(s[i].file, file) && s[i].line == line)
			return &s[i];
	fail_msg("no site %s:%u", file, line);
	return NULL;
}

static const struct coverage_observed *observed(const struct coverage *c, const char *frame)
{
	const struct coverage_observed *o;
	size_t i, n;

	o = coverage__observed(c, &n);
	for (i = 0; i < n; i++)
		if (!strcmp(o[i].frame, frame))
			return &o[i];
	fail_msg("no observed frame %s", frame);
	return NULL;
}

static struct dwarfmap_result one(const char *file, unsigned int line, const char *fn)
{
	struct dwarfmap_result r = { .nr = 1 };

	r.locs[0] = (struct dwarfmap_loc){ file, line, fn };
	return r;
}

static void add(struct coverage *c, const char *frame, const struct dwarfmap_result *res,
		const char *workload, __u64 checks)
{
	struct coverage_frame f = { .frame = frame, .res = res, .helper = "ns_capable" };

	assert_int_equal(coverage__add_observed(c, &f, workload, checks), 0);
}

static void test_exact_line_and_counts(void **state)
{
	struct dwarfmap_result r = one("/src/linux/kernel/sys.c", 1372, "__do_sys_sethostname");
	struct coverage *c = with_statics();
	const struct coverage_site *s;

	(void)state;
	add(c, "__x64_sys_sethostname+0x5b", &r, "a.service", 3);
	add(c, "__x64_sys_sethostname+0x5b", &r, "b.service", 2);
	add(c, "__x64_sys_sethostname+0x5b", &r, "a.service", 1);
	assert_int_equal(coverage__join(c), 0);
	s = site(c, "kernel/sys.c", 1372);
	assert_int_equal(s->checks, 6);
	assert_int_equal(s->nr_workloads, 2);
	assert_string_equal(s->workloads[0], "a.service");
	assert_string_equal(s->workloads[1], "b.service");
	assert_int_equal(s->nr_frames, 1);
	assert_string_equal(s->frames[0], "__x64_sys_sethostname+0x5b");
	assert_int_equal(s->nr_via, 0);
	assert_int_equal(site(c, "kernel/sys.c", 1426)->checks, 0);
	assert_int_equal(coverage__nr_covered(c), 1);
	coverage__free(c);
}

/*
 * The call's line is the one before the CAP_ token's: the nearest site of
 * the same function (the syscall's name as the scan writes it)
 */
static void test_split_call_same_function(void **state)
{
	struct dwarfmap_result r = one("/src/linux/kernel/sys.c", 1425, "__do_sys_setdomainname");
	struct dwarfmap_result x = one("/src/linux/fs/xattr.c", 125, "xattr_permission");
	struct coverage *c = with_statics();

	(void)state;
	add(c, "__x64_sys_setdomainname+0x40", &r, "w", 1);
	/* between two sites of the function, 6 lines from each: the later one */
	add(c, "xattr_permission+0x10", &x, "w", 1);
	assert_int_equal(coverage__join(c), 0);
	assert_int_equal(site(c, "kernel/sys.c", 1426)->checks, 1);
	assert_int_equal(site(c, "kernel/sys.c", 1372)->checks, 0);
	assert_int_equal(site(c, "fs/xattr.c", 131)->checks, 1);
	assert_int_equal(site(c, "fs/xattr.c", 119)->checks, 0);
	coverage__free(c);
}

/* Another function's line near a site is no match */
static void test_other_function_no_match(void **state)
{
	struct dwarfmap_result r = one("/src/linux/kernel/sys.c", 1374, "override_release");
	struct coverage *c = with_statics();

	(void)state;
	add(c, "override_release+0x8", &r, "w", 1);
	assert_int_equal(coverage__join(c), 0);
	assert_int_equal(observed(c, "override_release+0x8")->site, -1);
	assert_int_equal(coverage__nr_covered(c), 0);
	coverage__free(c);
}

/* Inlined from a header into may_mount(): the outer level matches */
static void test_inline_chain(void **state)
{
	struct dwarfmap_result r = { .nr = 3 };
	struct coverage *c = with_statics();
	const struct coverage_observed *o;

	(void)state;
	r.locs[0] = (struct dwarfmap_loc){ "/src/linux/include/linux/y.h", 10, "y_check" };
	r.locs[1] = (struct dwarfmap_loc){ "/src/linux/fs/namespace.c", 1778, "may_mount" };
	r.locs[2] = (struct dwarfmap_loc){ "/src/linux/fs/namespace.c", 3407, "path_mount" };
	add(c, "path_mount+0xcc", &r, "mnt", 1);
	assert_int_equal(coverage__join(c), 0);
	assert_int_equal(site(c, "fs/namespace.c", 1778)->checks, 1);
	o = observed(c, "path_mount+0xcc");
	assert_true(o->site >= 0);
	assert_int_equal(o->depth, 3);
	assert_string_equal(o->loc.function, "y_check");
	coverage__free(c);
}

/* mount_capable() tail-calls ns_capable(): its ns_capable site, not capable's */
static void test_tail_call(void **state)
{
	struct dwarfmap_result r = one("/src/linux/fs/namespace.c", 3101, "do_new_mount");
	struct dwarfmap_result start = one("/src/linux/fs/super.c", 537, "mount_capable");
	struct coverage_frame f = { .frame = "path_mount+0x2c4", .res = &r, .helper = "ns_capable",
				    .tail_callee = "mount_capable", .callee_res = &start };
	struct coverage_frame g = f;
	struct coverage *c = with_statics();
	const struct coverage_site *s;

	(void)state;
	g.helper = "capable";
	assert_int_equal(coverage__add_observed(c, &f, "mnt", 4), 0);
	assert_int_equal(coverage__add_observed(c, &g, "mnt", 1), 0);
	assert_int_equal(coverage__join(c), 0);
	s = site(c, "fs/super.c", 542);
	assert_int_equal(s->checks, 4);
	assert_int_equal(s->nr_via, 1);
	assert_string_equal(s->via[0], "mount_capable");
	assert_int_equal(site(c, "fs/super.c", 540)->checks, 1);
	coverage__free(c);
}

/* "kernel/sys.c" must end the DWARF path at a '/': xkernel/sys.c is not it */
static void test_path_boundary(void **state)
{
	struct dwarfmap_result r = one("/src/xkernel/sys.c", 1372, "__do_sys_sethostname");
	struct dwarfmap_result rel = one("kernel/sys.c", 1372, "__do_sys_sethostname");
	struct coverage *c = with_statics();

	(void)state;
	add(c, "a+0x1", &r, "w", 1);
	add(c, "b+0x1", &rel, "w", 2);
	assert_int_equal(coverage__join(c), 0);
	assert_int_equal(observed(c, "a+0x1")->site, -1);
	assert_true(observed(c, "b+0x1")->site >= 0);
	assert_int_equal(site(c, "kernel/sys.c", 1372)->checks, 2);
	coverage__free(c);
}

static void test_unmapped_and_sorted(void **state)
{
	struct coverage *c = with_statics();
	const struct coverage_observed *o;
	const struct coverage_site *s;
	size_t i, n;

	(void)state;
	add(c, "__x64_sys_mystery", NULL, "w", 7);
	assert_int_equal(coverage__join(c), 0);
	o = observed(c, "__x64_sys_mystery");
	assert_null(o->loc.file);
	assert_int_equal(o->site, -1);
	assert_int_equal(o->checks, 7);
	assert_int_equal(coverage__nr_covered(c), 0);
	s = coverage__sites(c, &n);
	assert_int_equal(n, N(statics));
	for (i = 1; i < n; i++)
		assert_true(strcmp(s[i - 1].file, s[i].file) < 0 ||
			    (!strcmp(s[i - 1].file, s[i].file) && s[i - 1].line < s[i].line));
	coverage__free(c);
	coverage__free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_line_and_counts),
		cmocka_unit_test(test_split_call_same_function),
		cmocka_unit_test(test_other_function_no_match),
		cmocka_unit_test(test_inline_chain),
		cmocka_unit_test(test_tail_call),
		cmocka_unit_test(test_path_boundary),
		cmocka_unit_test(test_unmapped_and_sorted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
