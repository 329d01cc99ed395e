// SPDX-License-Identifier: GPL-2.0
/*
 * test_outfmt.c: names in every output format (daemon/outfmt.c): text,
 * folded stacks, CSV, Prometheus labels and JSON, each fed hostile names
 * (line breaks, ';', ESC sequences, invalid UTF-8, formulas).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "outfmt.h"

/* What fn wrote for s, in a static buffer */
#define CAPTURE(call)							\
	({								\
		static char out_[1024];					\
		FILE *f = fmemopen(out_, sizeof(out_), "w");		\
		assert_non_null(f);					\
		call;							\
		assert_int_equal(fclose(f), 0);				\
		out_;							\
	})

static void test_text(void **state)
{
	(void)state;
	assert_string_equal(CAPTURE(outfmt__text(f, "a 1\nFAKE 99999\n", 0, "-")),
			    "a 1\\x0aFAKE 99999\\x0a");
	assert_string_equal(CAPTURE(outfmt__text(f, "\x1b[2J", 0, "-")), "\\x1b[2J");
	assert_string_equal(CAPTURE(outfmt__text(f, "\x1b]0;title\x07", 0, "-")),
			    "\\x1b]0;title\\x07");
	assert_string_equal(CAPTURE(outfmt__text(f, "\xff\xfe", 0, "-")), "\\xff\\xfe");
	assert_string_equal(CAPTURE(outfmt__text(f, "del\x7f", 0, "-")), "del\\x7f");
	/* C1 CSI (U+009B), which some terminals obey */
	assert_string_equal(CAPTURE(outfmt__text(f, "\xc2\2332J", 0, "-")), "\\xc2\\x9b2J");
	/* the escape itself is escaped: "\x1b" typed is not ESC shown */
	assert_string_equal(CAPTURE(outfmt__text(f, "a\\x1b", 0, "-")), "a\\\\x1b");
	/* valid UTF-8 and tabs-free text stay, padded to the width */
	assert_string_equal(CAPTURE(outfmt__text(f, "caf\xc3\xa9", 7, "-")), "caf\xc3\xa9  ");
	assert_string_equal(CAPTURE(outfmt__text(f, "\t", 5, "-")), "\\x09 ");
	assert_string_equal(CAPTURE(outfmt__text(f, NULL, 3, "-")), "-  ");
	assert_string_equal(CAPTURE(outfmt__text(f, "", 0, "[unknown]")), "[unknown]");
	/* a sequence cut at the end of the string is invalid */
	assert_string_equal(CAPTURE(outfmt__text(f, "x\xe2\x82", 0, "-")), "x\\xe2\\x82");
}

static void test_folded(void **state)
{
	(void)state;
	assert_string_equal(CAPTURE(outfmt__folded(f, "a 1\nFAKE 99999\n", "-")),
			    "a\\x201\\x0aFAKE\\x2099999\\x0a");
	assert_string_equal(CAPTURE(outfmt__folded(f, "x;y;z", "-")), "x\\x3by\\x3bz");
	assert_string_equal(CAPTURE(outfmt__folded(f, "\xff", "-")), "\\xff");
	assert_string_equal(CAPTURE(outfmt__folded(f, "", "[unknown]")), "[unknown]");
	assert_string_equal(CAPTURE(outfmt__folded(f, "do_mount", "-")), "do_mount");
}

static void test_csv(void **state)
{
	(void)state;
	assert_string_equal(CAPTURE(outfmt__csv(f, "plain", ',')), "plain,");
	assert_string_equal(CAPTURE(outfmt__csv(f, "a,b", '\n')), "\"a,b\"\n");
	assert_string_equal(CAPTURE(outfmt__csv(f, "say \"hi\"", ',')), "\"say \"\"hi\"\"\",");
	assert_string_equal(CAPTURE(outfmt__csv(f, "a\rb", ',')), "\"a\rb\",");
	assert_string_equal(CAPTURE(outfmt__csv(f, "a 1\nFAKE", ',')), "\"a 1\nFAKE\",");
	/* formulas neutralised */
	assert_string_equal(CAPTURE(outfmt__csv(f, "=cmd|' /C calc'!A0", ',')),
			    "'=cmd|' /C calc'!A0,");
	assert_string_equal(CAPTURE(outfmt__csv(f, "+1", ',')), "'+1,");
	assert_string_equal(CAPTURE(outfmt__csv(f, "-1", ',')), "'-1,");
	assert_string_equal(CAPTURE(outfmt__csv(f, "@SUM(A1)", ',')), "'@SUM(A1),");
	assert_string_equal(CAPTURE(outfmt__csv(f, "\t=1", ',')), "'\t=1,");
	assert_string_equal(CAPTURE(outfmt__csv(f, "\r=1", ',')), "\"'\r=1\",");
	assert_string_equal(CAPTURE(outfmt__csv(f, "=a,b", ',')), "\"'=a,b\",");
	assert_string_equal(CAPTURE(outfmt__csv(f, "a=b", ',')), "a=b,");
	/* invalid UTF-8 as U+FFFD; NULL and "" empty */
	assert_string_equal(CAPTURE(outfmt__csv(f, "\xff\xfe", ',')), "\xef\xbf\xbd\xef\xbf\xbd,");
	assert_string_equal(CAPTURE(outfmt__csv(f, NULL, ',')), ",");
	assert_string_equal(CAPTURE(outfmt__csv(f, "", '\n')), "\n");
}

static void test_prom_label(void **state)
{
	(void)state;
	assert_string_equal(CAPTURE(outfmt__prom_label(f, "a\\b\"c\nd")), "a\\\\b\\\"c\\nd");
	assert_string_equal(CAPTURE(outfmt__prom_label(f, "x\xff\xfey")),
			    "x\xef\xbf\xbd\xef\xbf\xbdy");
	assert_string_equal(CAPTURE(outfmt__prom_label(f, "other")), "other");
	assert_string_equal(CAPTURE(outfmt__prom_label(f, "\xe2\x82\xac")), "\xe2\x82\xac");
}

static void test_json(void **state)
{
	json_object *o = json_object_new_object(), *s;
	const char *out;

	(void)state;
	s = outfmt__json_string("a\xff\376b\x1b[2J");
	assert_string_equal(json_object_get_string(s), "a\xef\xbf\xbd\xef\xbf\275b\x1b[2J");
	json_object_object_add(o, "comm", s);
	assert_null(outfmt__json_string(NULL));
	out = CAPTURE(outfmt__json_print(f, o));
	assert_non_null(strstr(out, "\"a\xef\xbf\xbd\xef\xbf\275b\\u001b[2J\""));
	/* a raw json_object string with invalid bytes is repaired on output */
	json_object_object_add(o, "raw", json_object_new_string("\xc0\x80/"));
	out = CAPTURE(outfmt__json_print(f, o));
	assert_non_null(strstr(out, "\"\xef\xbf\xbd\xef\xbf\xbd/\""));
	assert_null(strchr(out, '\xc0'));
	json_object_put(o);
}

static void test_utf8(void **state)
{
	size_t len;
	char *s;

	(void)state;
	assert_int_equal(outfmt__utf8_len((const unsigned char *)"\xf0\x9f\x98\x80", 4), 4);
	assert_int_equal(outfmt__utf8_len((const unsigned char *)"\xf0\x9f\x98\x80", 3), 0);
	assert_int_equal(outfmt__utf8_len((const unsigned char *)"\xed\xa0\x80", 3), 0);
	assert_int_equal(outfmt__utf8_len((const unsigned char *)"\xe0\x80\x80", 3), 0);
	assert_int_equal(outfmt__utf8_len((const unsigned char *)"\xf4\x90\x80\x80", 4), 0);
	s = outfmt__utf8_dup("a\200b", 3, &len);
	assert_non_null(s);
	assert_int_equal(len, 5);
	assert_string_equal(s, "a\xef\xbf\275b");
	free(s);
}

static void test_finish_reports_full_stdout(void **state)
{
	int saved = dup(STDOUT_FILENO), err;

	(void)state;
	assert_true(saved >= 0);
	fflush(stdout);
	assert_non_null(freopen("/dev/full", "w", stdout));
	printf("something\n");
	err = outfmt__finish("report");
	/* cmocka prints on stdout: give it back */
	assert_true(dup2(saved, STDOUT_FILENO) >= 0);
	close(saved);
	clearerr(stdout);
	assert_int_equal(err, -ENOSPC);
	assert_int_equal(outfmt__finish("report"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_folded),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_prom_label),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_finish_reports_full_stdout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
