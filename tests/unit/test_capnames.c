// SPDX-License-Identifier: GPL-2.0
/* test_capnames.c: unit tests of capnames.c against libcap's own names. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>
#include <cmocka.h>

#include "array_size.h"
#include "capnames.h"

static void test_known(void **state)
{
	char buf[CAPNAMES_BUF_LEN];

	(void)state;
	assert_string_equal(capnames__name(0, buf, sizeof(buf)), "CAP_CHOWN");
	assert_string_equal(capnames__name(21, buf, sizeof(buf)), "CAP_SYS_ADMIN");
	assert_string_equal(capnames__name(12, buf, sizeof(buf)), "CAP_NET_ADMIN");
	/* a static string, not the caller's buffer; no buffer needed */
	assert_ptr_not_equal(capnames__name(21, buf, sizeof(buf)), buf);
	assert_string_equal(capnames__name(21, NULL, 0), "CAP_SYS_ADMIN");
	assert_ptr_equal(capnames__name(21, NULL, 0), capnames__name(21, buf, sizeof(buf)));
}

/* Every number libcap names comes out as its name in upper case */
static void test_matches_libcap(void **state)
{
	char buf[CAPNAMES_BUF_LEN], upper[64];
	const char *name;
	char *lc;
	int named = 0;
	size_t j;
	unsigned int i;

	(void)state;
	for (i = 0; i < CAPNAMES_MAX; i++) {
		lc = cap_to_name((cap_value_t)i);
		assert_non_null(lc);
		name = capnames__name(i, buf, sizeof(buf));
		if (isdigit((unsigned char)lc[0])) {
			snprintf(upper, sizeof(upper), "CAP_%u", i);
		} else {
			for (j = 0; lc[j] && j < sizeof(upper) - 1; j++)
				upper[j] = (char)toupper((unsigned char)lc[j]);
			upper[j] = '\0';
			named++;
		}
		assert_string_equal(name, upper);
		cap_free(lc);
	}
	/* libcap 2.66 knows CAP_CHOWN (0) to CAP_CHECKPOINT_RESTORE (40) */
	assert_true(named >= 41);
}

static void test_unknown(void **state)
{
	char buf[CAPNAMES_BUF_LEN], small[4];

	(void)state;
	assert_ptr_equal(capnames__name(63, buf, sizeof(buf)), buf);
	assert_string_equal(buf, "CAP_63");
	assert_string_equal(capnames__name(64, buf, sizeof(buf)), "CAP_64");
	assert_string_equal(capnames__name(UINT_MAX, buf, sizeof(buf)), "CAP_4294967295");
	assert_string_equal(capnames__name(63, small, sizeof(small)), "CAP");
	assert_null(capnames__name(63, NULL, 0));
	assert_null(capnames__name(63, buf, 0));
}

static void assert_parses(const char *name, unsigned int want)
{
	unsigned int cap = UINT_MAX;

	if (capnames__parse(name, &cap))
		fail_msg("'%s' does not parse", name);
	assert_int_equal(cap, want);
}

static void test_parse(void **state)
{
	static const char *const invalid[] = {
		"", "CAP_", "cap_", "sys_admi", "CAP_SYS_ADMINX", "SYS ADMIN", "-1", "+21",
		" 21", "21 ", "0x15", "CAP_-1", "CAPSYS_ADMIN", "CAP_CAP_SYS_ADMIN", "all",
	};
	unsigned int cap = 7;
	size_t i;

	(void)state;
	assert_parses("CAP_SYS_ADMIN", 21);
	assert_parses("cap_sys_admin", 21);
	assert_parses("sys_admin", 21);
	assert_parses("Sys_Admin", 21);
	assert_parses("SYS_ADMIN", 21);
	assert_parses("21", 21);
	assert_parses("021", 21);
	assert_parses("CAP_21", 21);
	assert_parses("0", 0);
	assert_parses("chown", 0);
	assert_parses("63", 63);
	assert_parses("CAP_63", 63);
	for (i = 0; i < ARRAY_SIZE(invalid); i++)
		if (capnames__parse(invalid[i], &cap) != -EINVAL)
			fail_msg("'%s' should be -EINVAL", invalid[i]);
	assert_int_equal(cap, 7);
	assert_int_equal(capnames__parse("64", &cap), -ERANGE);
	assert_int_equal(capnames__parse("CAP_64", &cap), -ERANGE);
	assert_int_equal(capnames__parse("99999999999999999999999", &cap), -ERANGE);
	assert_int_equal(cap, 7);
	assert_int_equal(capnames__parse(NULL, &cap), -EINVAL);
}

/* name -> number -> name, for every bit of the mask */
static void test_round_trip(void **state)
{
	char buf[CAPNAMES_BUF_LEN];
	unsigned int i, cap;

	(void)state;
	for (i = 0; i < CAPNAMES_MAX; i++) {
		assert_int_equal(capnames__parse(capnames__name(i, buf, sizeof(buf)), &cap), 0);
		assert_int_equal(cap, i);
	}
}

static void test_parse_list(void **state)
{
	static const char *const invalid[] = {
		"", ",", "CAP_SYS_ADMIN,", ",CAP_SYS_ADMIN", "a,,b", "CAP_SYS_ADMIN,bogus",
		"CAP_SYS_ADMIN;CAP_NET_ADMIN", " , ",
	};
	__u64 mask = 0x5a5a;
	size_t i;

	(void)state;
	assert_int_equal(capnames__parse_list("CAP_SYS_ADMIN", &mask), 0);
	assert_int_equal(mask, 1ULL << 21);
	assert_int_equal(capnames__parse_list("CAP_SYS_ADMIN,CAP_NET_ADMIN", &mask), 0);
	assert_int_equal(mask, (1ULL << 21) | (1ULL << 12));
	assert_int_equal(capnames__parse_list(" sys_admin , net_admin,12,21 ", &mask), 0);
	assert_int_equal(mask, (1ULL << 21) | (1ULL << 12));
	assert_int_equal(capnames__parse_list("63,0", &mask), 0);
	assert_int_equal(mask, (1ULL << 63) | 1ULL);
	mask = 0x5a5a;
	for (i = 0; i < ARRAY_SIZE(invalid); i++)
		if (capnames__parse_list(invalid[i], &mask) != -EINVAL)
			fail_msg("'%s' should be -EINVAL", invalid[i]);
	assert_int_equal(capnames__parse_list("1,64", &mask), -ERANGE);
	assert_int_equal(capnames__parse_list("CAP_SYS_ADMIN,CAP_99", &mask), -ERANGE);
	assert_int_equal(mask, 0x5a5a);
	assert_int_equal(capnames__parse_list(NULL, &mask), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_matches_libcap),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_parse_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
