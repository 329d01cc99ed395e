// SPDX-License-Identifier: GPL-2.0
/*
 * test_privs.c: privs__drop_all() in a child process leaves it no
 * capability in any set of /proc/self/status, and a capability-checked
 * operation then fails, whatever the parent held (root or not).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "privs.h"

/* 1 when every Cap* line but CapBnd reads 0 (CapBnd only with CAP_SETPCAP) */
static int no_caps(void)
{
	char line[128];
	int zero = 0, seen = 0;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "Cap", 3) || !strncmp(line, "CapBnd", 6))
			continue;
		seen++;
		zero += !!strstr(line, "\t0000000000000000");
	}
	fclose(f);
	return seen == 4 && zero == 4;
}

static void test_drop_all(void **state)
{
	int status;
	pid_t pid;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		char name[256] = "";

		if (privs__drop_all("test"))
			_exit(10);
		if (!no_caps())
			_exit(11);
		/* CAP_SYS_ADMIN (sethostname, to the name it has) and CAP_SETUID are gone */
		if (gethostname(name, sizeof(name) - 1) ||
		    !sethostname(name, strlen(name)) || errno != EPERM)
			_exit(12);
		if (getuid() == 0 && !setuid(1))
			_exit(13);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drop_all),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
