// SPDX-License-Identifier: GPL-2.0
/*
 * test_containers.c: a container's name and image from podman's
 * containers.json and docker's config.v2.json (daemon/containers.c), and
 * what is refused: a name that is not plain (a newline, a space, a
 * semicolon), an id that is not 64 hex digits, a file that is not JSON.
 */
#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "containers.h"
#include "tmpdir.h"

#define ID_A "a27147ff36d400b382c6a9391ca44f6aa885fac5eaf92187653b50131db491e2"
#define ID_B "b27147ff36d400b382c6a9391ca44f6aa885fac5eaf92187653b50131db491e2"
#define ID_C "c27147ff36d400b382c6a9391ca44f6aa885fac5eaf92187653b50131db491e2"
#define ID_D "d27147ff36d400b382c6a9391ca44f6aa885fac5eaf92187653b50131db491e2"

static int setup(void **state)
{
	return tmpdir_setup(state, "x");
}

static void write_file(const char *dir, const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void podman_and_docker(void **state)
{
	struct fixture *fx = *state;
	char name[64], image[128];

	write_file(fx->dir, "var/lib/containers/storage/vfs-containers/containers.json",
		   "[{\"id\": \"" ID_A "\", \"names\": [\"capa-ctr\"],"
		   " \"metadata\": \"{\\\"image-name\\\":\\\"localhost/capa:1\\\",\\\"name\\\":\\\"capa-ctr\\\"}\"},"
		   " {\"id\": \"" ID_B "\", \"names\": [\"evil\\nFAKE 99\"]},"
		   " {\"id\": \"" ID_C "\", \"names\": [\"ok\"], \"metadata\": \"{\\\"image-name\\\":\\\"x y\\\"}\"}]");
	write_file(fx->dir, "var/lib/docker/containers/" ID_D "/config.v2.json",
		   "{\"Name\": \"/web\", \"Config\": {\"Image\": \"nginx:1.25\"}}");

	assert_int_equal(containers__lookup(fx->dir, ID_A, name, sizeof(name), image,
					    sizeof(image)), 0);
	assert_string_equal(name, "capa-ctr");
	assert_string_equal(image, "localhost/capa:1");
	/* a name with a newline is no name: the caller keeps the id */
	assert_int_equal(containers__lookup(fx->dir, ID_B, name, sizeof(name), image,
					    sizeof(image)), -ENOENT);
	/* a plain name with an image that is not plain: the name, no image */
	assert_int_equal(containers__lookup(fx->dir, ID_C, name, sizeof(name), image,
					    sizeof(image)), 0);
	assert_string_equal(name, "ok");
	assert_string_equal(image, "");
	assert_int_equal(containers__lookup(fx->dir, ID_D, name, sizeof(name), image,
					    sizeof(image)), 0);
	assert_string_equal(name, "web");
	assert_string_equal(image, "nginx:1.25");
	/* not 64 hex digits: never a path */
	assert_int_equal(containers__lookup(fx->dir, "../../etc", name, sizeof(name), image,
					    sizeof(image)), -ENOENT);
	assert_int_equal(containers__lookup(fx->dir, "a2714", name, sizeof(name), image,
					    sizeof(image)), -ENOENT);
}

static void not_json(void **state)
{
	struct fixture *fx = *state;
	char name[64], image[128];

	write_file(fx->dir, "var/lib/containers/storage/overlay-containers/containers.json",
		   "[{\"id\": \"" ID_A "\", \"names\": [\"capa");
	assert_int_equal(containers__lookup(fx->dir, ID_A, name, sizeof(name), image,
					    sizeof(image)), -ENOENT);
	/* a name with ';' (folded output's separator) or a space */
	write_file(fx->dir, "var/lib/docker/containers/" ID_D "/config.v2.json",
		   "{\"Name\": \"/a;b c\"}");
	assert_int_equal(containers__lookup(fx->dir, ID_D, name, sizeof(name), image,
					    sizeof(image)), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(podman_and_docker, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(not_json, setup, tmpdir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
