// SPDX-License-Identifier: GPL-2.0
/*
 * test_loader.c: the start-up check of what the BPF program needs of the
 * kernel (loader__check_btf), against kernels' BTF made here: one without
 * the ring buffer, one without bpf_get_current_task_btf(), one without
 * cap_capable(), one whose cap_capable() takes "int audit" (before 5.1),
 * and one with everything.  Nothing is loaded.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>
#include <bpf/btf.h>

#include "loader.h"

/* A kernel's BTF: the enums with the values given, cap_capable() if arg4 */
static struct btf *kernel_btf(const char *const *map_types, const char *const *func_ids,
			      const char *arg4)
{
	struct btf *btf = btf__new_empty();
	int i, u32, ptr, proto;

	assert_non_null(btf);
	assert_true(btf__add_enum(btf, "bpf_map_type", 4) > 0);
	for (i = 0; map_types[i]; i++)
		assert_int_equal(btf__add_enum_value(btf, map_types[i], i), 0);
	assert_true(btf__add_enum(btf, "bpf_func_id", 4) > 0);
	for (i = 0; func_ids[i]; i++)
		assert_int_equal(btf__add_enum_value(btf, func_ids[i], i), 0);
	if (!arg4)
		return btf;
	u32 = btf__add_int(btf, "unsigned int", 4, 0);
	ptr = btf__add_ptr(btf, 0);
	proto = btf__add_func_proto(btf, u32);
	assert_true(u32 > 0 && ptr > 0 && proto > 0);
	assert_int_equal(btf__add_func_param(btf, "cred", ptr), 0);
	assert_int_equal(btf__add_func_param(btf, "targ_ns", ptr), 0);
	assert_int_equal(btf__add_func_param(btf, "cap", u32), 0);
	assert_int_equal(btf__add_func_param(btf, arg4, u32), 0);
	assert_true(btf__add_func(btf, "cap_capable", BTF_FUNC_GLOBAL, proto) > 0);
	return btf;
}

static const char *const all_maps[] = { "BPF_MAP_TYPE_HASH", "BPF_MAP_TYPE_RINGBUF", NULL };
static const char *const old_maps[] = { "BPF_MAP_TYPE_HASH", NULL };
static const char *const all_funcs[] = { "BPF_FUNC_get_stack", "BPF_FUNC_probe_read_kernel",
					 "BPF_FUNC_get_current_task_btf", NULL };
static const char *const old_funcs[] = { "BPF_FUNC_get_stack", "BPF_FUNC_probe_read_kernel",
					 NULL };

static void check(const char *const *maps, const char *const *funcs, const char *arg4, int want)
{
	struct btf *btf = kernel_btf(maps, funcs, arg4);
	int got = loader__check_btf(btf);

	btf__free(btf);
	if (want > 0)
		assert_true(got > 0);
	else
		assert_int_equal(got, want);
}

static void test_needs(void **state)
{
	(void)state;
	check(all_maps, all_funcs, "opts", 1);
	check(old_maps, all_funcs, "opts", -ENOTSUP);	/* no ring buffer (< 5.8) */
	check(all_maps, old_funcs, "opts", -ENOTSUP);	/* no task BTF helper (< 5.11) */
	check(all_maps, all_funcs, NULL, -ENOENT);	/* no cap_capable() */
	check(all_maps, all_funcs, "audit", -ENOTSUP);	/* int audit (< 5.1) */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_needs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
