// SPDX-License-Identifier: GPL-2.0
/*
 * test_scanmaint.c: MAINTAINERS attribution on a fixture tree
 * (tests/fixtures/scan/maint): F: directories and globs (with the slash-count
 * rule), X: exclusions, N: and K: regexes, subscribers-only lists, .mailmap,
 * the chief penguin, and the order, most specific first.
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

#include "fixture.h"
#include "maintainers.h"

static struct maintainers *load(void)
{
	struct maintainers *m;
	char err[512];

	assert_int_equal(maintainers__load(fixture_path("scan", "maint"), &m, err, sizeof(err)), 0);
	return m;
}

/* The sections of @file, as "A,B,C". */
static void sections(struct maintainers *m, const char *file, char *out, size_t size)
{
	const struct maint_section **s;
	size_t i, n, used = 0;

	assert_int_equal(maintainers__for_file(m, file, &s, &n), 0);
	out[0] = '\0';
	for (i = 0; i < n; i++)
		used += snprintf(out + used, size - used, "%s%s", i ? "," : "", s[i]->name);
	free(s);
}

static void test_maint_order(void **state)
{
	struct maintainers *m = load();
	char out[512];

	(void)state;
	sections(m, "kernel/capability.c", out, sizeof(out));
	assert_string_equal(out, "CAPABILITIES,KERNEL GLOB,THE REST");
	/* N: matches with depth 0, below F: patterns, above THE REST's "*\/" */
	sections(m, "security/commoncap.c", out, sizeof(out));
	assert_string_equal(out, "CAPABILITIES,KERNEL GLOB,THE REST");
	/* K: keywords match the text (case-insensitively with (?i)), and come last */
	sections(m, "kernel/magic.c", out, sizeof(out));
	assert_string_equal(out, "THE REST,KEYWORD");
	sections(m, "drivers/net/dev.c", out, sizeof(out));
	assert_string_equal(out, "NETWORKING DRIVERS,THE REST");
	/* X: excludes NETWORKING DRIVERS; WIFI's "*.c" needs the same slash count */
	sections(m, "drivers/net/wifi/card.c", out, sizeof(out));
	assert_string_equal(out, "WIFI,THE REST");
	sections(m, "drivers/net/wifi/sub/x.c", out, sizeof(out));
	assert_string_equal(out, "THE REST");
	/* "F: *" is the top directory only */
	sections(m, "Makefile", out, sizeof(out));
	assert_string_equal(out, "THE REST");
	maintainers__free(m);
}

static void test_maint_people(void **state)
{
	struct maintainers *m = load();
	const struct maint_section *s;
	char buf[128];

	(void)state;
	s = maintainers__section(m, "NETWORKING DRIVERS");
	assert_non_null(s);
	assert_int_equal(s->n_maintainers, 1);
	assert_string_equal(s->maintainers[0], "New Name <new@example.org>");	/* .mailmap */
	s = maintainers__section(m, "WIFI");
	assert_int_equal(s->n_lists, 1);
	assert_string_equal(s->lists[0], "linux-wireless@vger.kernel.org");
	s = maintainers__section(m, "THE REST");
	assert_int_equal(s->n_maintainers, 0);
	assert_int_equal(s->n_lists, 1);
	s = maintainers__section(m, "CAPABILITIES");
	assert_non_null(s);
	assert_string_equal(s->status, "Supported");
	assert_string_equal(maintainers__address(s->maintainers[0], buf, sizeof(buf)),
			    "serge@hallyn.com");
	assert_null(maintainers__section(m, "NO SUCH SECTION"));
	maintainers__free(m);
}

/* Found by fuzz_maintainers: a '[' at the end of an F: pattern was read past */
static void test_maint_unterminated_class(void **state)
{
	char dir[] = "/tmp/test_scanmaint.XXXXXX", path[64], out[512];
	struct maintainers *m;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/MAINTAINERS", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	/*
	 * and, found by fuzz_maintainers, regexes that made regcomp() take a
	 * gigabyte: left out, like Perl-only ones
	 */
	fputs("COSTLY\nM:\tC <c@example.org>\nK:\t(?i)ma+++++++++++++++++++++++++++++++++\n"
	      "N:\t(cap*)*{200}\nN:\tcap{9999}\n\n", f);
	fputs("OPEN CLASS\nM:\tA <a@example.org>\nF:\tkernel/cap[\n\n"
	      "CAPS\nM:\tB <b@example.org>\nF:\tkernel/cap[a-z]*\n", f);
	fclose(f);
	assert_int_equal(maintainers__load(dir, &m, out, sizeof(out)), 0);
	sections(m, "kernel/capability.c", out, sizeof(out));
	assert_string_equal(out, "CAPS");
	sections(m, "kernel/cap[", out, sizeof(out));
	assert_string_equal(out, "");
	maintainers__free(m);
	unlink(path);
	rmdir(dir);
}

static void test_maint_missing(void **state)
{
	struct maintainers *m;
	char err[512];

	(void)state;
	assert_int_equal(maintainers__load(fixture_path("scan", "new"), &m, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "new/MAINTAINERS: No such file or directory"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_maint_order),
		cmocka_unit_test(test_maint_people),
		cmocka_unit_test(test_maint_unterminated_class),
		cmocka_unit_test(test_maint_missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
