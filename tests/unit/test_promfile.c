// SPDX-License-Identifier: GPL-2.0
/*
 * test_promfile.c: the Prometheus text file (daemon/promfile.c) of a store
 * with hostile call-site names: every line well-formed and valid UTF-8, no
 * two samples of one series (a real call site named "other" and the
 * roll-up), and the file written without following a symlink planted in
 * its directory.
 *
 * With CAPAUDIT_PROMFILE_STORE=DB and CAPAUDIT_PROMFILE_DIR=DIR in the
 * environment it runs no test: it writes DIR/capaudit.prom from the store
 * DB, for tests/host/100-hostile-names.sh to check with promtool.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "agg.h"
#include "outfmt.h"
#include "promfile.h"
#include "store.h"
#include "tmpdir.h"

#define NR_SITES (PROMFILE_MAX_SERIES + 50)

static int setup(void **state)
{
	return tmpdir_setup(state, "capaudit.db");
}

/* NR_SITES call sites, the hostile ones ("other" too) the busiest, then a flush */
static void make_store(const char *path)
{
	static const char *const hostile[] = { "other", "a\"b\\c\nd", "x\xff\xfey",
					       "\x1b]0;title\x07", "" };
	struct agg *agg = agg__new(NULL);
	struct store *st = NULL;
	char name[32];
	struct check c = { .ts_ns = 1700000000ull * 1000000000ull, .tid = 1, .cap = 21,
			   .granted = 1, .audit = CHECK_AUDITED, .syscall = "mount",
			   .workload = "w.service", .comm = "prog" };
	int i, n, nr_hostile = sizeof(hostile) / sizeof(*hostile);

	assert_non_null(agg);
	for (i = 0; i < NR_SITES; i++) {
		snprintf(name, sizeof(name), "site_%d", i);
		c.call_site = i < nr_hostile ? hostile[i] : name;
		for (n = 0; n < (i < nr_hostile ? 1000 - i : 2); n++)
			assert_int_equal(agg__add(agg, &c), 0);
	}
	assert_int_equal(store__open(path, true, &st), 0);
	assert_int_equal(store__flush(st, agg, NULL, NULL), 0);
	store__close(st);
	agg__free(agg);
}

static char *slurp(const char *path)
{
	static char buf[1 << 16];
	FILE *f = fopen(path, "re");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void write_prom(const char *db, const char *dir)
{
	struct store *st = NULL;

	assert_int_equal(store__open_readonly(db, &st), 0);
	assert_int_equal(promfile__write(dir, st), 0);
	store__close(st);
}

static void test_series_unique_and_valid(void **state)
{
	struct fixture *fx = *state;
	char path[192], *text, *line, *next, *sp, **ids;
	int nr = 0, i, other = 0, rollup = 0;
	size_t len;

	make_store(fx->path);
	write_prom(fx->path, fx->dir);
	snprintf(path, sizeof(path), "%s/%s", fx->dir, PROMFILE_NAME);
	text = slurp(path);
	assert_non_null(strstr(text, "call_site=\"a\\\"b\\\\c\\nd\""));
	assert_non_null(strstr(text, "call_site=\"x\xef\xbf\xbd\xef\xbf\xbdy\""));
	assert_non_null(strstr(text, "call_site=\"[unknown]\""));
	ids = calloc(NR_SITES + 64, sizeof(*ids));
	assert_non_null(ids);
	for (line = text; *line; line = next) {
		next = strchr(line, '\n');
		assert_non_null(next);	/* every line ends */
		*next++ = '\0';
		for (len = 0; line[len]; len += outfmt__utf8_len((unsigned char *)line + len,
								  strlen(line + len)))
			assert_int_not_equal(outfmt__utf8_len((unsigned char *)line + len,
							      strlen(line + len)), 0);
		if (line[0] == '#')
			continue;
		sp = strrchr(line, ' ');
		assert_non_null(sp);
		*sp = '\0';
		for (i = 0; i < nr; i++)
			assert_string_not_equal(ids[i], line);	/* one sample per series */
		ids[nr++] = line;
		other += !!strstr(line, "call_site=\"other\"");
		rollup += !strncmp(line, "capaudit_checks_total{", 22) && !strstr(line, "call_site=");
	}
	assert_int_equal(other, 1);
	assert_int_equal(rollup, 1);
	free(ids);
}

static void test_planted_symlink_not_followed(void **state)
{
	struct fixture *fx = *state;
	char victim[192], link[192], path[192];
	struct store *st = NULL;
	FILE *f;
	int err;

	make_store(fx->path);
	snprintf(victim, sizeof(victim), "%s/victim", fx->dir);
	f = fopen(victim, "we");
	assert_non_null(f);
	fputs("precious\n", f);
	fclose(f);
	/* the old fixed temporary name, and the final name's directory entry */
	snprintf(link, sizeof(link), "%s/.capaudit.prom.tmp", fx->dir);
	assert_int_equal(symlink(victim, link), 0);
	write_prom(fx->path, fx->dir);
	assert_string_equal(slurp(victim), "precious\n");
	snprintf(path, sizeof(path), "%s/%s", fx->dir, PROMFILE_NAME);
	assert_non_null(strstr(slurp(path), "capaudit_checks_total{"));

	/* a symlink as the directory itself is refused */
	snprintf(link, sizeof(link), "%s/dirlink", fx->dir);
	assert_int_equal(symlink(fx->dir, link), 0);
	assert_int_equal(store__open_readonly(fx->path, &st), 0);
	err = promfile__write(link, st);
	assert_true(err == -ENOTDIR || err == -ELOOP);
	store__close(st);
	assert_string_equal(slurp(victim), "precious\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_series_unique_and_valid, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_planted_symlink_not_followed, setup,
						tmpdir_teardown),
	};
	const char *db = getenv("CAPAUDIT_PROMFILE_STORE"), *dir = getenv("CAPAUDIT_PROMFILE_DIR");
	struct store *st = NULL;
	int err;

	if (db && dir) {
		err = store__open_readonly(db, &st);
		if (!err)
			err = promfile__write(dir, st);
		store__close(st);
		if (err)
			fprintf(stderr, "test_promfile: %s: %s\n", dir, strerror(-err));
		return err ? 1 : 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
