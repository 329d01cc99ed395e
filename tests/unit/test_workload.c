// SPDX-License-Identifier: GPL-2.0
/* test_workload.c: cgroup paths and ids to workload names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "workload.h"

static const char *name_of(const char *path)
{
	static char buf[256];

	return workload__from_cgroup_path(path, buf, sizeof(buf));
}

static void test_units(void **state)
{
	(void)state;
	assert_string_equal(name_of("/system.slice/probe-hostname.service"),
			    "probe-hostname.service");
	assert_string_equal(name_of("/system.slice/run-u12.scope"), "run-u12.scope");
	assert_string_equal(name_of("/user.slice/user-0.slice/session-3.scope"),
			    "session-3.scope");
	/* a sub-cgroup inside a unit belongs to the unit */
	assert_string_equal(name_of("/system.slice/nginx.service/worker"), "nginx.service");
}

static void test_containers(void **state)
{
	const char *id = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
	char path[256];

	(void)state;
	snprintf(path, sizeof(path), "/system.slice/docker-%s.scope", id);
	assert_string_equal(name_of(path), "container:0123456789ab");
	snprintf(path, sizeof(path), "/kubepods/besteffort/pod1234/%s", id);
	assert_string_equal(name_of(path), "container:0123456789ab");
	snprintf(path, sizeof(path), "/machine.slice/libpod-%s.scope/container", id);
	assert_string_equal(name_of(path), "container:0123456789ab");
}

static void test_neither(void **state)
{
	(void)state;
	assert_string_equal(name_of("/"), "");
	assert_string_equal(name_of(""), "");
	assert_string_equal(name_of("/system.slice"), "");
	assert_string_equal(name_of("/mygroup/sub"), "");
	assert_string_equal(name_of("/docker-xyz.scopex"), "");
}

/* A fake cgroup mount: directories' inode numbers are their ids. */
static void test_ids_from_a_tree(void **state)
{
	char root[] = "/tmp/capaudit-wl-XXXXXX", dir[512];
	struct workloads *w;
	struct stat st;
	__u64 unit_id, plain_id, root_id;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(dir, sizeof(dir), "%s/system.slice", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(dir, sizeof(dir), "%s/system.slice/probe-dmesg.service", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(stat(dir, &st), 0);
	unit_id = st.st_ino;
	snprintf(dir, sizeof(dir), "%s/plain", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(stat(dir, &st), 0);
	plain_id = st.st_ino;
	assert_int_equal(stat(root, &st), 0);
	root_id = st.st_ino;

	w = workloads__new(root);
	assert_non_null(w);
	assert_string_equal(workloads__name(w, unit_id, 1, "x"), "probe-dmesg.service");
	assert_string_equal(workloads__cgroup_path(w, unit_id),
			    "/system.slice/probe-dmesg.service");
	assert_string_equal(workloads__name(w, plain_id, 1, "x"), "/plain");
	/* the root cgroup: the executable (pid 1 may be unreadable: then comm) */
	assert_non_null(workloads__name(w, root_id, getpid(), "me"));
	assert_true(strstr(workloads__name(w, root_id, getpid(), "me"), "test_workload") != NULL);
	assert_string_equal(workloads__name(w, root_id, 0x7ffffff0, "gone"), "gone");
	workloads__free(w);
	snprintf(dir, sizeof(dir), "rm -rf %s", root);
	assert_int_equal(system(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_containers),
		cmocka_unit_test(test_neither),
		cmocka_unit_test(test_ids_from_a_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
