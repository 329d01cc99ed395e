// SPDX-License-Identifier: GPL-2.0
/* test_syscalls.c: unit tests of syscalls.c over the generated x86_64 table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "syscalls.h"
#include "capaudit.h"	/* after syscalls.h: it needs <linux/types.h> */

/* x86_64 numbers are ABI: they never change */
static void test_known(void **state)
{
	(void)state;
	assert_string_equal(syscalls__name(170), "sethostname");
	assert_string_equal(syscalls__name(0), "read");
	assert_string_equal(syscalls__name(59), "execve");
	assert_string_equal(syscalls__name(126), "capset");
	assert_string_equal(syscalls__name(165), "mount");
	assert_string_equal(syscalls__name(334), "rseq");
	assert_string_equal(syscalls__name(424), "pidfd_send_signal");
}

static void test_unknown(void **state)
{
	(void)state;
	assert_null(syscalls__name(335));		/* hole before 424 */
	assert_null(syscalls__name(423));
	assert_null(syscalls__name(100000));
	assert_null(syscalls__name(1ULL << 32));
	assert_null(syscalls__name(0x40000000ULL | 170));	/* x32 */
	assert_null(syscalls__name(CAPAUDIT_NO_SYSCALL));
	assert_null(syscalls__name(UINT64_MAX - 1));
}

/* Names are C identifiers; the table ends at its last name */
static void test_table(void **state)
{
	const char *name;
	__u64 nr, last = 0;
	int named = 0;

	(void)state;
	for (nr = 0; nr < 4096; nr++) {
		name = syscalls__name(nr);
		if (!name)
			continue;
		assert_true(name[0] != '\0');
		assert_int_equal(strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_"),
				 strlen(name));
		last = nr;
		named++;
	}
	assert_true(named > 300);
	assert_true(last >= 424);
	assert_null(syscalls__name(last + 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
