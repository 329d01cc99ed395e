// SPDX-License-Identifier: GPL-2.0
/*
 * test_merge.c: merge.c through its API: the types a report's values must
 * have (each refusal naming the input, the row and the field), sums past
 * 2^64 - 1 refused, and the merged report the same to the byte whatever the
 * order of the inputs.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "array_size.h"
#include "merge.h"

/* A report of one row whose count (or other field) is the JSON text v */
static void report(char *buf, size_t size, const char *field, const char *v)
{
	snprintf(buf, size,
		 "{\"schema\": \"capaudit-report\", \"version\": 1, \"rows\": [{\"cap\": \"CAP_CHOWN\", "
		 "\"cap_nr\": 0, \"verdict\": \"granted\", \"audit\": \"audited\", \"workload\": \"w\", "
		 "\"comm\": \"x\", \"syscall\": null, \"call_site\": \"f\", \"stack\": \"0\", "
		 "\"%s\": %s, \"first_seen\": 5, \"last_seen\": 9}], \"stacks\": {}, \"kernel\": {}}",
		 field, v);
}

static int add(struct merge *m, const char *name, const char *text, char *err)
{
	return merge__add(m, name, text, strlen(text), err, 512);
}

static void test_types(void **state)
{
	static const char *const bad[] = { "\"12\"", "-1", "1.5", "{\"x\": 1}", "true", "null",
					   "[1]", "18446744073709551616", "1e3" };
	char text[1024], err[512];
	struct merge *m;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		m = merge__new();
		assert_non_null(m);
		report(text, sizeof(text), "count", bad[i]);
		assert_true(add(m, "in.json", text, err) < 0);
		assert_non_null(strstr(err, "in.json: row 0: count: "));
		merge__free(m);
	}
	m = merge__new();
	report(text, sizeof(text), "count", "18446744073709551615");
	assert_int_equal(add(m, "max.json", text, err), 0);
	report(text, sizeof(text), "count", "1");
	assert_int_equal(add(m, "one.json", text, err), -ERANGE);
	assert_non_null(strstr(err, "one.json: row 0: count: the sum"));
	merge__free(m);
}

static char *merged(const char *a, const char *b)
{
	struct merge *m = merge__new();
	json_object *out;
	char err[512], *text;

	assert_int_equal(add(m, "a", a, err), 0);
	assert_int_equal(add(m, "b", b, err), 0);
	out = merge__report(m);
	assert_non_null(out);
	text = strdup(json_object_to_json_string_ext(out, JSON_C_TO_STRING_PLAIN));
	json_object_put(out);
	merge__free(m);
	return text;
}

static void test_order(void **state)
{
	const char *a = "{\"schema\": \"capaudit-report\", \"version\": 1, \"rows\": ["
		"{\"cap\": \"CAP_CHOWN\", \"cap_nr\": 0, \"verdict\": \"granted\", \"audit\": \"audited\","
		" \"workload\": \"w\", \"comm\": \"z\", \"syscall\": null, \"call_site\": \"f\","
		" \"stack\": \"1\", \"count\": 2, \"first_seen\": 50, \"last_seen\": 60}],"
		" \"stacks\": {\"1\": [\"a\"]}, \"kernel\": {\"seen\": 1}}";
	const char *b = "{\"kernel\": {\"lost\": 2, \"seen\": 3}, \"stacks\": {\"1\": [\"b\"]},"
		" \"rows\": [{\"cap\": \"CAP_CHOWN\", \"cap_nr\": 0, \"verdict\": \"granted\","
		" \"audit\": \"audited\", \"workload\": \"w\", \"comm\": \"z\", \"syscall\": null,"
		" \"call_site\": \"f\", \"stack\": \"1\", \"count\": 3, \"first_seen\": 40,"
		" \"last_seen\": 55}, {\"cap\": \"CAP_KILL\", \"cap_nr\": 5, \"verdict\": \"denied\","
		" \"audit\": \"audited\", \"workload\": \"a\", \"comm\": \"a\", \"syscall\": \"kill\","
		" \"call_site\": \"g\", \"stack\": \"0\", \"count\": 1, \"first_seen\": 1,"
		" \"last_seen\": 1}], \"version\": 1, \"schema\": \"capaudit-report\"}";
	char *ab = merged(a, b), *ba = merged(b, a);

	(void)state;
	assert_string_equal(ab, ba);
	assert_non_null(strstr(ab, "\"count\":5,\"first_seen\":40,\"last_seen\":60"));
	assert_non_null(strstr(ab, "\"stacks\":{\"1\":[\"a\"]}"));
	assert_non_null(strstr(ab, "\"kernel\":{\"lost\":2,\"seen\":4}"));
	free(ab);
	free(ba);
}

static void test_refused_adds_nothing(void **state)
{
	char text[1024], err[512];
	struct merge *m = merge__new();
	json_object *out, *rows;

	(void)state;
	assert_int_equal(add(m, "empty.json", "", err), -EINVAL);
	assert_non_null(strstr(err, "empty.json: empty"));
	assert_int_equal(add(m, "v.json", "{\"schema\": \"capaudit-report\", \"version\": \"1\"}", err),
			 -EINVAL);
	assert_non_null(strstr(err, "v.json: version \"1\""));
	/* the row is read before the version is: still nothing of it is added */
	report(text, sizeof(text), "count", "3");
	strcpy(strstr(text, "\"version\": 1"), "\"version\": 2}");
	assert_int_equal(add(m, "late.json", text, err), -EINVAL);
	out = merge__report(m);
	assert_true(json_object_object_get_ex(out, "rows", &rows));
	assert_int_equal(json_object_array_length(rows), 0);
	json_object_put(out);
	merge__free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_types),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_refused_adds_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
