// SPDX-License-Identifier: GPL-2.0
/* test_rules.c: unit tests of the rules file parser and matcher (rules.c), and of the shipped rules/capaudit.rules. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include <linux/capability.h>

#include "array_size.h"
#include "rules.h"

#define SENTINEL ((struct rules *)0x1)

/* Writes len bytes of text to a new temporary file; its path in path */
static void write_file(char path[64], const char *text, size_t len)
{
	int fd;

	strcpy(path, "/tmp/test_rules.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
}

/* Loads text as a rules file: the return value, the rules and the message */
static int load_text(const char *text, struct rules **ret_rules, char *err, size_t errlen,
		     char path[64])
{
	int ret;

	write_file(path, text, strlen(text));
	ret = rules__load(path, ret_rules, err, errlen);
	unlink(path);
	return ret;
}

static const char good[] =
	"# a comment\n"
	"\n"
	"   \t  # an indented comment\n"
	"keyctl_chown_key CAP_CHOWN \"chown for keys\" keyctl(2)\n"
	"*sys_sethostname\tnew:CAP_SYS_HOSTNAME \"say \\\"host\\\" with a \\\\ and a # in it\" \"sethostname(2); capabilities(7)\"\n"
	"r_show CAP_SYSLOG one-word-rationale https://example.org/page#anchor  # trailing comment\n";

static void test_good_file(void **state)
{
	char path[64], err[256];
	struct rules *rules = SENTINEL;
	const struct rule *r;

	(void)state;
	assert_int_equal(load_text(good, &rules, err, sizeof(err), path), 0);
	assert_string_equal(err, "");
	assert_int_equal(rules__count(rules), 3);

	r = rules__get(rules, 0);
	assert_string_equal(r->pattern, "keyctl_chown_key");
	assert_int_equal(r->cap, CAP_CHOWN);
	assert_null(r->new_cap_name);
	assert_string_equal(r->rationale, "chown for keys");
	assert_string_equal(r->reference, "keyctl(2)");
	assert_int_equal(r->line, 4);

	r = rules__get(rules, 1);
	assert_string_equal(r->pattern, "*sys_sethostname");
	assert_int_equal(r->cap, -1);
	assert_string_equal(r->new_cap_name, "CAP_SYS_HOSTNAME");
	assert_string_equal(r->rationale, "say \"host\" with a \\ and a # in it");
	assert_string_equal(r->reference, "sethostname(2); capabilities(7)");
	assert_int_equal(r->line, 5);

	r = rules__get(rules, 2);
	assert_int_equal(r->cap, CAP_SYSLOG);
	assert_string_equal(r->rationale, "one-word-rationale");
	assert_string_equal(r->reference, "https://example.org/page#anchor");
	assert_int_equal(r->line, 6);

	assert_null(rules__get(rules, 3));
	assert_null(rules__get(rules, -1));
	rules__free(rules);
}

static void test_empty_and_crlf(void **state)
{
	char path[64], err[256];
	struct rules *rules = NULL;

	(void)state;
	assert_int_equal(load_text("", &rules, err, sizeof(err), path), 0);
	assert_int_equal(rules__count(rules), 0);
	assert_null(rules__match(rules, "keyctl_chown_key"));
	rules__free(rules);

	/* DOS line ends, and no newline at the end of the file */
	assert_int_equal(load_text("# c\r\nr_show CAP_SYSLOG \"a\" b\r\ndo_madvise CAP_SYS_RAWIO \"c\" d",
				   &rules, err, sizeof(err), path), 0);
	assert_int_equal(rules__count(rules), 2);
	assert_string_equal(rules__get(rules, 0)->reference, "b");
	assert_string_equal(rules__get(rules, 1)->reference, "d");
	assert_int_equal(rules__get(rules, 1)->line, 3);
	rules__free(rules);
}

/* One malformed file: its text, the line to blame and the message's tail */
struct bad_case {
	const char *text;
	int line;
	const char *msg;
};

#define OK_LINE "keyctl_chown_key CAP_CHOWN \"r\" ref\n"
#define OK_LINE2 "keyctl_setperm_key CAP_FOWNER \"r\" ref\n"

static const struct bad_case bad_unknown_cap = {
	"# c\n\nx_fn CAP_FOO \"r\" ref\n", 3, "unknown capability 'CAP_FOO'" };
static const struct bad_case bad_missing_cap = {
	OK_LINE "x_fn\n", 2, "missing capability" };
static const struct bad_case bad_missing_rationale = {
	OK_LINE OK_LINE2 "\nx_fn CAP_CHOWN # \"r\" ref\n", 4, "missing rationale" };
static const struct bad_case bad_missing_reference = {
	"x_fn CAP_CHOWN \"r r\"\n", 1, "missing reference" };
static const struct bad_case bad_unterminated = {
	OK_LINE "x_fn CAP_CHOWN \"r r ref\n", 2, "unterminated quoted text" };
static const struct bad_case bad_trailing_backslash = {
	"x_fn CAP_CHOWN \"r r\\", 1, "unterminated quoted text" };
static const struct bad_case bad_escape = {
	OK_LINE "x_fn CAP_CHOWN \"tab\\there\" ref\n", 2, "unknown escape '\\t'" };
static const struct bad_case bad_after_quote = {
	"x_fn CAP_CHOWN \"r\"ref\n", 1, "text right after a closing quote" };
static const struct bad_case bad_stray_quote = {
	"x_fn CAP_CHOWN r\"r\" ref\n", 1, "stray '\"' in 'r\"r\"'" };
static const struct bad_case bad_empty_pattern = {
	OK_LINE OK_LINE2 "\"\" CAP_CHOWN \"r\" ref\n", 3, "empty pattern" };
static const struct bad_case bad_star_pattern = {
	"* CAP_CHOWN \"r\" ref\n", 1, "pattern '*' would match every call site" };
static const struct bad_case bad_pattern_char = {
	"\"a b\" CAP_CHOWN \"r\" ref\n", 1, "invalid character ' ' in pattern 'a b'" };
static const struct bad_case bad_pattern_bracket = {
	"x_[ab CAP_CHOWN \"r\" ref\n", 1, "unterminated '[' in pattern 'x_[ab'" };
static const struct bad_case bad_sys_admin = {
	"x_fn CAP_SYS_ADMIN \"r\" ref\n", 1, "proposed capability is CAP_SYS_ADMIN itself" };
static const struct bad_case bad_new_existing = {
	"x_fn new:CAP_SYSLOG \"r\" ref\n", 1, "'new:CAP_SYSLOG' names an existing capability" };
static const struct bad_case bad_cap_form = {
	"x_fn cap_chown \"r\" ref\n", 1, "capability 'cap_chown' is not written CAP_NAME" };
static const struct bad_case bad_cap_number = {
	"x_fn CAP_21 \"r\" ref\n", 1, "capability 'CAP_21' is not written CAP_NAME" };
static const struct bad_case bad_empty_new = {
	"x_fn new: \"r\" ref\n", 1, "capability 'new:' is not written CAP_NAME" };
static const struct bad_case bad_empty_rationale = {
	"x_fn CAP_CHOWN \"  \" ref\n", 1, "empty rationale" };
static const struct bad_case bad_empty_reference = {
	"x_fn CAP_CHOWN \"r\" \"\"\n", 1, "empty reference" };
static const struct bad_case bad_extra_field = {
	"x_fn CAP_CHOWN \"r\" man page\n", 1, "unexpected text 'page' after the reference" };
static const struct bad_case bad_duplicate = {
	OK_LINE "\n" OK_LINE, 3, "duplicate pattern 'keyctl_chown_key' (first at line 1)" };
static const struct bad_case bad_error_after_good = {
	OK_LINE OK_LINE2 "do_madvise CAP_SYS_RAWIO \"r\" ref\n" OK_LINE, 4, "duplicate pattern" };

static void test_bad_line(void **state)
{
	const struct bad_case *bc = *state;
	char path[64], err[512], want[600];
	struct rules *rules = SENTINEL;

	assert_int_equal(load_text(bc->text, &rules, err, sizeof(err), path), -EINVAL);
	assert_ptr_equal(rules, SENTINEL);	/* nothing loaded, not even in part */
	snprintf(want, sizeof(want), "capaudit: rules %s:%d: %s", path, bc->line, bc->msg);
	if (strncmp(err, want, strlen(want)))
		fail_msg("message '%s', wanted it to start with '%s'", err, want);
}

static void test_nul_byte(void **state)
{
	static const char text[] = OK_LINE "x_fn CAP_CHOWN \"r\0\" ref\n";
	char path[64], err[256], want[128];
	struct rules *rules = SENTINEL;

	(void)state;
	write_file(path, text, sizeof(text) - 1);
	assert_int_equal(rules__load(path, &rules, err, sizeof(err)), -EINVAL);
	unlink(path);
	assert_ptr_equal(rules, SENTINEL);
	snprintf(want, sizeof(want), "capaudit: rules %s:2: NUL byte", path);
	assert_memory_equal(err, want, strlen(want));
}

static void test_unreadable(void **state)
{
	char err[256];
	struct rules *rules = SENTINEL;

	(void)state;
	assert_int_equal(rules__load("/nonexistent/capaudit.rules", &rules, err, sizeof(err)),
			 -ENOENT);
	assert_ptr_equal(rules, SENTINEL);
	assert_non_null(strstr(err, "/nonexistent/capaudit.rules"));
	/* a directory, a device, a FIFO: refused at once, before a byte is read */
	assert_int_equal(rules__load("/", &rules, err, sizeof(err)), -EISDIR);
	assert_ptr_equal(rules, SENTINEL);
	assert_non_null(strstr(err, "is a directory"));
	assert_int_equal(rules__load("/dev/zero", &rules, err, sizeof(err)), -ESPIPE);
	assert_non_null(strstr(err, "/dev/zero: not a regular file"));
	assert_ptr_equal(rules, SENTINEL);
	/* no room for a message is fine */
	assert_int_equal(rules__load("/nonexistent/x", &rules, NULL, 0), -ENOENT);
}

static void test_small_errbuf(void **state)
{
	char path[64], err[12];
	struct rules *rules = SENTINEL;

	(void)state;
	memset(err, 'X', sizeof(err));
	assert_int_equal(load_text("x_fn CAP_FOO \"r\" ref\n", &rules, err, sizeof(err), path),
			 -EINVAL);
	assert_int_equal(strlen(err), sizeof(err) - 1);
	assert_memory_equal(err, "capaudit: r", sizeof(err) - 1);
}

static void assert_match_line(const struct rules *rules, const char *site, int line)
{
	const struct rule *r = rules__match(rules, site);

	if (!r)
		fail_msg("no rule matches %s", site);
	if (r->line != line)
		fail_msg("%s matches line %d, not %d", site, r->line, line);
}

static void test_match(void **state)
{
	static const char text[] =
		"keyctl_chown_key CAP_CHOWN \"a\" r1\n"
		"*sys_sethostname new:CAP_SYS_HOSTNAME \"b\" r2\n"
		"*sys_set* CAP_SYS_RESOURCE \"c\" r3\n"
		"r_show CAP_SYSLOG \"d\" r4\n"
		"seccomp_get_[fm]* CAP_CHECKPOINT_RESTORE \"e\" r5\n";
	char path[64], err[256];
	struct rules *rules = NULL;

	(void)state;
	assert_int_equal(load_text(text, &rules, err, sizeof(err), path), 0);
	assert_match_line(rules, "keyctl_chown_key", 1);
	/* first match wins: sethostname is rule 2, not rule 3 */
	assert_match_line(rules, "__x64_sys_sethostname", 2);
	assert_match_line(rules, "__do_sys_setdomainname", 3);
	/* compiler suffixes */
	assert_match_line(rules, "r_show.isra.0", 4);
	assert_match_line(rules, "keyctl_chown_key.cold", 1);
	assert_match_line(rules, "seccomp_get_metadata", 5);
	/* whole names only: no prefix or substring match */
	assert_null(rules__match(rules, "keyctl_chown_key2"));
	assert_null(rules__match(rules, "do_keyctl_chown_key"));
	assert_null(rules__match(rules, "r_show_all"));
	assert_null(rules__match(rules, "seccomp_get_notif_sizes"));
	assert_null(rules__match(rules, "do_mount"));
	assert_null(rules__match(rules, "[unknown]"));
	assert_null(rules__match(rules, ""));
	assert_null(rules__match(rules, NULL));
	assert_null(rules__match(NULL, "r_show"));
	rules__free(rules);
}

/* The shipped table loads, and says what the issue asks of it */
static void test_shipped_rules(void **state)
{
	static const struct {
		const char *site;
		int cap;
		const char *new_cap;
	} want[] = {
		{ "keyctl_chown_key", CAP_CHOWN, NULL },
		{ "keyctl_setperm_key", CAP_FOWNER, NULL },
		{ "check_quotactl_permission", CAP_SYS_RESOURCE, NULL },
		{ "do_quotactl", CAP_SYS_RESOURCE, NULL },
		{ "__do_sys_swapon", CAP_SYS_RESOURCE, NULL },
		{ "__do_sys_swapoff", CAP_SYS_RESOURCE, NULL },
		{ "__x64_sys_swapon", CAP_SYS_RESOURCE, NULL },
		{ "proc_dointvec_minmax_sysadmin", CAP_SYSLOG, NULL },
		{ "r_show", CAP_SYSLOG, NULL },
		{ "alloc_empty_file", CAP_SYS_RESOURCE, NULL },
		{ "write_actions_logged.constprop.0", CAP_AUDIT_CONTROL, NULL },
		{ "madvise_inject_error", CAP_SYS_RAWIO, NULL },
		{ "check_ptrace_options", CAP_CHECKPOINT_RESTORE, NULL },
		{ "seccomp_get_filter", CAP_CHECKPOINT_RESTORE, NULL },
		{ "__x64_sys_sethostname", -1, "CAP_SYS_HOSTNAME" },
		{ "__do_sys_setdomainname", -1, "CAP_SYS_HOSTNAME" },
	};
	static const char *const generic[] = {
		"path_mount", "__do_sys_mount", "ksys_unshare", "__x64_sys_setns",
		"__do_sys_pivot_root", "bpf_prog_load", "check_syslog_permissions",
	};
	char err[512];
	struct rules *rules = NULL;
	const struct rule *r;
	size_t i;
	int n;

	(void)state;
	if (rules__load(RULES_DEFAULT_PATH, &rules, err, sizeof(err)))
		fail_msg("%s (run the test from the repo root)", err);
	assert_true(rules__count(rules) >= 20);
	for (n = 0; n < rules__count(rules); n++) {
		r = rules__get(rules, n);
		assert_true(strlen(r->rationale) > 20);
		assert_true(strlen(r->reference) > 5);
	}
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		r = rules__match(rules, want[i].site);
		if (!r)
			fail_msg("no rule for %s", want[i].site);
		assert_int_equal(r->cap, want[i].cap);
		if (want[i].new_cap)
			assert_string_equal(r->new_cap_name, want[i].new_cap);
	}
	for (i = 0; i < ARRAY_SIZE(generic); i++)
		if (rules__match(rules, generic[i]))
			fail_msg("%s matches rule line %d", generic[i],
				 rules__match(rules, generic[i])->line);
	rules__free(rules);
}

/* One test per bad case, named after it */
/* A FIFO without a writer would block open() and read() forever */
static void test_fifo(void **state)
{
	char path[64] = "/tmp/test_rules.XXXXXX", err[256];
	struct rules *rules = SENTINEL;

	(void)state;
	assert_non_null(mkdtemp(path));
	strcat(path, "/fifo");
	assert_int_equal(mkfifo(path, 0600), 0);
	alarm(10);
	assert_int_equal(rules__load(path, &rules, err, sizeof(err)), -ESPIPE);
	alarm(0);
	assert_ptr_equal(rules, SENTINEL);
	assert_non_null(strstr(err, "not a regular file"));
	unlink(path);
	*strrchr(path, '/') = '\0';
	rmdir(path);
}

/* 100k rules in linear time (the duplicate check was quadratic: 15 s), and a duplicate found */
static void test_many_rules(void **state)
{
	const int n = 100000;
	char path[64], err[256], *text, *p;
	struct timespec a, b;
	struct rules *rules;
	int i;

	(void)state;
	text = malloc((size_t)n * 64 + 64);
	assert_non_null(text);
	for (p = text, i = 0; i < n; i++)
		p += sprintf(p, "fn_%d CAP_SYSLOG \"reads the log\" man:capabilities(7)\n", i);
	write_file(path, text, (size_t)(p - text));
	clock_gettime(CLOCK_MONOTONIC, &a);
	assert_int_equal(rules__load(path, &rules, err, sizeof(err)), 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	unlink(path);
	assert_int_equal(rules__count(rules), n);
	assert_string_equal(rules__get(rules, n - 1)->pattern, "fn_99999");
	rules__free(rules);
	/* under ASan too: linear is well under a second, quadratic was 15 s */
	assert_true((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < 3000);
	p += sprintf(p, "fn_77 CAP_SYSLOG \"again\" x\n");
	assert_int_equal(load_text(text, &rules, err, sizeof(err), path), -EINVAL);
	assert_non_null(strstr(err, ":100001: duplicate pattern 'fn_77' (first at line 78)"));
	free(text);
}

/* More than RULES_MAX_SIZE bytes is refused (a regular file, checked before reading) */
static void test_too_large(void **state)
{
	char path[64] = "/tmp/test_rules.XXXXXX", err[256];
	struct rules *rules = SENTINEL;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)RULES_MAX_SIZE + 1), 0);
	close(fd);
	assert_int_equal(rules__load(path, &rules, err, sizeof(err)), -EFBIG);
	assert_non_null(strstr(err, "the limit of a rules file"));
	assert_ptr_equal(rules, SENTINEL);
	unlink(path);
}

#define BAD(c) { .name = #c, .test_func = test_bad_line, .initial_state = (void *)&(c) }

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_file),
		cmocka_unit_test(test_empty_and_crlf),
		BAD(bad_unknown_cap),
		BAD(bad_missing_cap),
		BAD(bad_missing_rationale),
		BAD(bad_missing_reference),
		BAD(bad_unterminated),
		BAD(bad_trailing_backslash),
		BAD(bad_escape),
		BAD(bad_after_quote),
		BAD(bad_stray_quote),
		BAD(bad_empty_pattern),
		BAD(bad_star_pattern),
		BAD(bad_pattern_char),
		BAD(bad_pattern_bracket),
		BAD(bad_sys_admin),
		BAD(bad_new_existing),
		BAD(bad_cap_form),
		BAD(bad_cap_number),
		BAD(bad_empty_new),
		BAD(bad_empty_rationale),
		BAD(bad_empty_reference),
		BAD(bad_extra_field),
		BAD(bad_duplicate),
		BAD(bad_error_after_good),
		cmocka_unit_test(test_nul_byte),
		cmocka_unit_test(test_unreadable),
		cmocka_unit_test(test_fifo),
		cmocka_unit_test(test_many_rules),
		cmocka_unit_test(test_too_large),
		cmocka_unit_test(test_small_errbuf),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_shipped_rules),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
