// SPDX-License-Identifier: GPL-2.0
/* test_tracejson.c: record decoding and the `trace --json` line. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "array_size.h"
#include "events.h"
#include "tracejson.h"

static struct capaudit_event sample(void)
{
	struct capaudit_event e = {
		.ts_ns = 123456789,
		.cgroup_id = 42,
		.userns_ino = 0xEFFFFFFD,
		.syscall_nr = 170,
		.pid = 100,
		.tid = 101,
		.uid = 0,
		.gid = 0,
		.cap = 21,
		.ret = 0,
		.opts = 0,
		.flags = CAPAUDIT_F_USERNS_INIT,
		.nr_kframes = 0,
		.ustack_id = CAPAUDIT_NO_STACK,
	};

	strcpy(e.comm, "hostname");
	return e;
}

static void test_decode_rejects_wrong_sizes(void **state)
{
	struct capaudit_event e = sample(), out;

	(void)state;
	assert_int_equal(events__decode(&e, sizeof(e) - 1, &out), -EINVAL);
	assert_int_equal(events__decode(&e, sizeof(e) + 8, &out), -EINVAL);
	assert_int_equal(events__decode(NULL, sizeof(e), &out), -EINVAL);
	assert_int_equal(events__decode(&e, sizeof(e), &out), 0);
	assert_memory_equal(&e, &out, sizeof(e));
}

static void test_decode_terminates_comm(void **state)
{
	struct capaudit_event e = sample(), out;

	(void)state;
	memset(e.comm, 'A', sizeof(e.comm));
	assert_int_equal(events__decode(&e, sizeof(e), &out), 0);
	assert_int_equal(strlen(out.comm), CAPAUDIT_COMM_LEN - 1);
}

static void test_decode_verdict_and_audit(void **state)
{
	struct capaudit_event e = sample();

	(void)state;
	assert_true(events__granted(&e));
	assert_true(events__audited(&e));
	e.ret = (__u32)-1;	/* -EPERM */
	e.opts = CAPAUDIT_OPT_NOAUDIT;
	assert_false(events__granted(&e));
	assert_false(events__audited(&e));
}

/* Serializes, then parses back: what a consumer of --json sees. */
static json_object *round_trip(const struct trace_record *r)
{
	json_object *o = trace_record__to_json(r);
	const char *s;
	json_object *back;

	assert_non_null(o);
	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	assert_null(strchr(s, '\n'));	/* one object a line */
	back = json_tokener_parse(s);
	assert_non_null(back);
	json_object_put(o);
	return back;
}

static const char *get_str(json_object *o, const char *key)
{
	json_object *v;

	assert_true(json_object_object_get_ex(o, key, &v));
	return json_object_get_string(v);
}

static void test_json_keys(void **state)
{
	struct capaudit_event e = sample();
	char f0[] = "cap_capable+0x5", f1[] = "ns_capable+0x2d", f2[] = "__do_sys_sethostname+0x46";
	char *frames[3] = { f0, f1, f2 };
	struct stack_info si = { .nr_frames = 3, .call_site = "__do_sys_sethostname",
				 .frames = frames };
	struct trace_record r = { .event = &e, .cap_name = "CAP_SYS_ADMIN",
				  .syscall = "sethostname", .stack = &si };
	json_object *o = round_trip(&r), *v;

	(void)state;
	assert_string_equal(get_str(o, "cap"), "CAP_SYS_ADMIN");
	assert_string_equal(get_str(o, "verdict"), "granted");
	assert_string_equal(get_str(o, "syscall"), "sethostname");
	assert_string_equal(get_str(o, "call_site"), "__do_sys_sethostname");
	assert_string_equal(get_str(o, "comm"), "hostname");
	assert_true(json_object_object_get_ex(o, "audit", &v));
	assert_true(json_object_get_boolean(v));
	assert_true(json_object_object_get_ex(o, "userns_init", &v));
	assert_true(json_object_get_boolean(v));
	assert_true(json_object_object_get_ex(o, "cap_nr", &v));
	assert_int_equal(json_object_get_int(v), 21);
	assert_true(json_object_object_get_ex(o, "stack", &v));
	assert_int_equal(json_object_array_length(v), 3);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(v, 2)),
			    "__do_sys_sethostname+0x46");
	json_object_put(o);
}

static void test_json_escapes_odd_comm(void **state)
{
	const char *const odd[] = { "a\"b\\c", "tab\there", "nl\nx", "\x01\x1f\x7f", "é✓", "{\"x\":1}" };
	struct capaudit_event e = sample();
	struct trace_record r = { .event = &e, .cap_name = "CAP_SYS_ADMIN" };
	json_object *o, *v;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(odd); i++) {
		memset(e.comm, 0, sizeof(e.comm));
		strncpy(e.comm, odd[i], sizeof(e.comm) - 1);
		o = round_trip(&r);
		assert_string_equal(get_str(o, "comm"), odd[i]);
		/* no stack and no syscall: JSON nulls, not missing keys */
		assert_true(json_object_object_get_ex(o, "syscall", &v));
		assert_null(v);
		assert_true(json_object_object_get_ex(o, "call_site", &v));
		assert_null(v);
		json_object_put(o);
	}
}

static void test_json_comm_is_valid_utf8(void **state)
{
	struct capaudit_event e = sample();
	struct trace_record r = { .event = &e, .cap_name = "CAP_SYS_ADMIN" };
	json_object *o;

	(void)state;
	/* a 2-byte character cut after its first byte, and stray bytes */
	strcpy(e.comm, "abcdefghijklmn\xc3");
	o = round_trip(&r);
	assert_string_equal(get_str(o, "comm"), "abcdefghijklmn\xef\xbf\xbd");
	json_object_put(o);
	strcpy(e.comm, "\xff\xfe\xed\xa0\x80ok");
	o = round_trip(&r);
	assert_string_equal(get_str(o, "comm"),
			    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbdok");
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_rejects_wrong_sizes),
		cmocka_unit_test(test_decode_terminates_comm),
		cmocka_unit_test(test_decode_verdict_and_audit),
		cmocka_unit_test(test_json_keys),
		cmocka_unit_test(test_json_escapes_odd_comm),
		cmocka_unit_test(test_json_comm_is_valid_utf8),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
