// SPDX-License-Identifier: GPL-2.0
/* test_advise.c: unit tests of the split advisor's classification (advise.c) over the shipped rules/capaudit.rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <linux/capability.h>

#include "advise.h"
#include "array_size.h"

struct env {
	struct fallback *fb;
	struct rules *rules;
};

static int setup(void **state)
{
	static struct env env;
	char err[512];

	env.fb = fallback__new();
	if (!env.fb)
		return -1;
	if (rules__load(RULES_DEFAULT_PATH, &env.rules, err, sizeof(err))) {
		print_error("%s (run the test from the repo root)\n", err);
		fallback__free(env.fb);
		return -1;
	}
	*state = &env;
	return 0;
}

static int teardown(void **state)
{
	struct env *env = *state;

	fallback__free(env->fb);
	rules__free(env->rules);
	return 0;
}

/* One task's checks: a denied narrow check, then CAP_SYS_ADMIN, one site */
static void feed_fallback(struct fallback *fb, __u32 tid, __u32 narrow, const char *site,
			  const char *sys)
{
	struct check c = {
		.ts_ns = 1000, .tid = tid, .cap = narrow, .granted = 0,
		.audit = CHECK_NOAUDIT, .call_site = site, .syscall = sys,
	};

	assert_int_equal(fallback__feed(fb, &c), 0);
	c.ts_ns += 500;
	c.cap = CAP_SYS_ADMIN;
	c.granted = 1;
	c.audit = CHECK_AUDITED;
	assert_int_equal(fallback__feed(fb, &c), 0);
}

static void test_class_names(void **state)
{
	(void)state;
	assert_string_equal(advise__class_name(ADVISE_NARROWER_ACCEPTED), "narrower-accepted");
	assert_string_equal(advise__class_name(ADVISE_SPLIT_CANDIDATE), "split-candidate");
	assert_string_equal(advise__class_name(ADVISE_GENERIC_ADMIN), "generic-admin");
	assert_null(advise__class_name(ADVISE_CLASS_NR));
	assert_null(advise__class_name((enum advise_class)-1));
}

static void test_narrower_accepted(void **state)
{
	struct env *env = *state;
	struct advice a;
	int i;

	for (i = 0; i < 3; i++)
		feed_fallback(env->fb, 100, CAP_BPF, "bpf_prog_load", "bpf");
	advise__classify(env->fb, env->rules, "bpf_prog_load", &a);
	assert_int_equal(a.cls, ADVISE_NARROWER_ACCEPTED);
	assert_int_equal(a.cap, CAP_BPF);
	assert_string_equal(a.cap_name, "CAP_BPF");
	assert_int_equal(a.times, 3);
	assert_null(a.rule);
	assert_non_null(a.rationale);
	assert_non_null(a.reference);
}

/* Behaviour outranks the rules, even when they disagree on the capability */
static void test_behaviour_before_rules(void **state)
{
	struct env *env = *state;
	struct advice a;

	advise__classify(env->fb, env->rules, "keyctl_chown_key", &a);
	assert_int_equal(a.cls, ADVISE_SPLIT_CANDIDATE);
	assert_int_equal(a.cap, CAP_CHOWN);

	feed_fallback(env->fb, 7, CAP_FOWNER, "keyctl_chown_key", "keyctl");
	advise__classify(env->fb, env->rules, "keyctl_chown_key", &a);
	assert_int_equal(a.cls, ADVISE_NARROWER_ACCEPTED);
	assert_int_equal(a.cap, CAP_FOWNER);
	assert_string_equal(a.cap_name, "CAP_FOWNER");
	assert_null(a.rule);

	/* a split patch landing: r_show's rule, then its fallback observed */
	advise__classify(env->fb, env->rules, "r_show", &a);
	assert_int_equal(a.cls, ADVISE_SPLIT_CANDIDATE);
	feed_fallback(env->fb, 8, CAP_SYSLOG, "r_show", "read");
	advise__classify(env->fb, env->rules, "r_show", &a);
	assert_int_equal(a.cls, ADVISE_NARROWER_ACCEPTED);
	assert_int_equal(a.cap, CAP_SYSLOG);
}

static void test_split_candidate(void **state)
{
	struct env *env = *state;
	struct advice a;

	advise__classify(env->fb, env->rules, "check_quotactl_permission", &a);
	assert_int_equal(a.cls, ADVISE_SPLIT_CANDIDATE);
	assert_int_equal(a.cap, CAP_SYS_RESOURCE);
	assert_string_equal(a.cap_name, "CAP_SYS_RESOURCE");
	assert_non_null(a.rule);
	assert_ptr_equal(a.rationale, a.rule->rationale);
	assert_ptr_equal(a.reference, a.rule->reference);
	assert_true(a.rule->line > 0);
	assert_int_equal(a.times, 0);

	/* a new capability */
	advise__classify(env->fb, env->rules, "__x64_sys_sethostname", &a);
	assert_int_equal(a.cls, ADVISE_SPLIT_CANDIDATE);
	assert_int_equal(a.cap, -1);
	assert_string_equal(a.cap_name, "CAP_SYS_HOSTNAME");

	/* no fallback detector: the rules alone */
	advise__classify(NULL, env->rules, "write_actions_logged.constprop.0", &a);
	assert_int_equal(a.cls, ADVISE_SPLIT_CANDIDATE);
	assert_string_equal(a.cap_name, "CAP_AUDIT_CONTROL");
}

static void test_generic_admin(void **state)
{
	struct env *env = *state;
	static const char *const sites[] = { "path_mount", "ksys_unshare", "[unknown]", "" };
	struct advice a;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sites); i++) {
		advise__classify(env->fb, env->rules, sites[i], &a);
		assert_int_equal(a.cls, ADVISE_GENERIC_ADMIN);
		assert_int_equal(a.cap, CAP_SYS_ADMIN);
		assert_string_equal(a.cap_name, "CAP_SYS_ADMIN");
		assert_non_null(a.rationale);
		assert_null(a.reference);
		assert_null(a.rule);
	}
	/* neither a detector nor rules */
	advise__classify(NULL, NULL, "keyctl_chown_key", &a);
	assert_int_equal(a.cls, ADVISE_GENERIC_ADMIN);
	/* an unknown call site is never learned, whatever is fed */
	feed_fallback(env->fb, 9, CAP_PERFMON, "[unknown]", "perf_event_open");
	advise__classify(env->fb, env->rules, "[unknown]", &a);
	assert_int_equal(a.cls, ADVISE_GENERIC_ADMIN);
}

/* A capability newer than libcap's table is named by its number */
static void test_unnamed_cap(void **state)
{
	struct env *env = *state;
	struct advice a;

	assert_int_equal(fallback__learn(env->fb, "new_helper_site", 63, 4), 0);
	advise__classify(env->fb, env->rules, "new_helper_site", &a);
	assert_int_equal(a.cls, ADVISE_NARROWER_ACCEPTED);
	assert_int_equal(a.cap, 63);
	assert_string_equal(a.cap_name, "CAP_63");
	assert_ptr_equal(a.cap_name, a.cap_name_buf);
	assert_int_equal(a.times, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_class_names),
		cmocka_unit_test_setup_teardown(test_narrower_accepted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_behaviour_before_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_split_candidate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_generic_admin, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unnamed_cap, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
