// SPDX-License-Identifier: GPL-2.0
/*
 * test_scan.c: the source scanner: tokenizer, capability header, call sites
 * with their functions and helpers, whole fixture trees (tests/fixtures/scan:
 * new- and old-style headers, article filter, --headers, errors) and the
 * report's tables and JSON/CSV forms.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "array_size.h"
#include "capdefs.h"
#include "chart.h"
#include "ctok.h"
#include "fixture.h"
#include "scan_fixture.h"
#include "scanreport.h"
#include "srcscan.h"

static char *slurp(const char *path, size_t *ret_len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, n, f), n);
	buf[n] = '\0';
	fclose(f);
	*ret_len = n;
	return buf;
}

/* The identifiers of @src, space-separated, with the line of each. */
static void idents(const char *src, char *out, size_t size)
{
	struct ctok_token tok;
	struct ctok t;
	size_t used = 0;

	out[0] = '\0';
	ctok__init(&t, src, strlen(src));
	while (ctok__next(&t, &tok) != CTOK_EOF)
		if (tok.kind == CTOK_IDENT)
			used += snprintf(out + used, size - used, "%s%.*s@%u", used ? " " : "",
					 (int)tok.len, tok.text, tok.line);
}

static void test_ctok_skips_comments_and_literals(void **state)
{
	char out[512];

	(void)state;
	idents("a /* b\n c */ d // e \\\n f\ng \"h \\\" i\" j 'k' '\\'' l\n", out, sizeof(out));
	assert_string_equal(out, "a@1 d@2 g@4 j@4 l@4");
	/* unterminated literals end at the newline, as in GCC */
	idents("it's\nx \"open\ny", out, sizeof(out));
	assert_string_equal(out, "it@1 x@2 y@3");
	/* numbers are not identifiers, even with letters */
	idents("0xCAP_A 1e+CAP_B .5CAP_C CAP_D", out, sizeof(out));
	assert_string_equal(out, "CAP_D@1");
	/* an unterminated comment ends the file */
	idents("p /* q", out, sizeof(out));
	assert_string_equal(out, "p@1");
}

static void test_ctok_directives(void **state)
{
	struct ctok_token tok;
	struct ctok t;
	const char *src = "#define X \\\n CAP_Y\nz # w\n  # if 1\n";
	int kinds[16], n = 0;

	(void)state;
	ctok__init(&t, src, strlen(src));
	while (ctok__next(&t, &tok) != CTOK_EOF && n < 16)
		kinds[n++] = tok.kind;
	assert_int_equal(n, 12);
	assert_int_equal(kinds[0], CTOK_DIRECTIVE);
	assert_int_equal(kinds[3], CTOK_IDENT);		/* CAP_Y, on the continued line */
	assert_int_equal(kinds[4], CTOK_DIRECTIVE_END);
	assert_int_equal(kinds[6], CTOK_PUNCT);		/* a '#' inside a line */
	assert_int_equal(kinds[8], CTOK_DIRECTIVE);
	assert_int_equal(kinds[11], CTOK_DIRECTIVE_END);
}

static void test_ctok_skip_block(void **state)
{
	const char *src = "{ a {\n b } /* }\n */ \"}\" '}' // }\n c }\nd";
	const char *hash = "{\n#if X\n}\n";
	struct ctok_token tok;
	struct ctok t;

	(void)state;
	ctok__init(&t, src, strlen(src));
	assert_int_equal(ctok__next(&t, &tok), CTOK_PUNCT);
	assert_int_equal(ctok__skip_block(&t, src + strlen(src)), 1);
	assert_int_equal(ctok__next(&t, &tok), CTOK_PUNCT);
	assert_int_equal(tok.ch, '}');
	assert_int_equal(tok.line, 4);
	assert_int_equal(ctok__next(&t, &tok), CTOK_IDENT);
	assert_int_equal(tok.line, 5);

	/* the matching brace beyond the limit: nothing moves */
	ctok__init(&t, src, strlen(src));
	ctok__next(&t, &tok);
	assert_int_equal(ctok__skip_block(&t, src + 10), 0);
	assert_int_equal(ctok__next(&t, &tok), CTOK_IDENT);
	assert_int_equal(tok.line, 1);

	/* a directive inside: give up */
	ctok__init(&t, hash, strlen(hash));
	ctok__next(&t, &tok);
	assert_int_equal(ctok__skip_block(&t, hash + strlen(hash)), 0);
	assert_int_equal(ctok__next(&t, &tok), CTOK_DIRECTIVE);
	assert_int_equal(tok.line, 2);
}

static void test_capdefs_new_header(void **state)
{
	struct capdefs *defs;
	char err[512];

	(void)state;
	assert_int_equal(capdefs__load(fixture_path("scan", "new"), &defs, err, sizeof(err)), 0);
	assert_int_equal(capdefs__count(defs), 5);
	assert_string_equal(capdefs__header(defs), "include/uapi/linux/capability.h");
	assert_string_equal(capdefs__name(defs, 0), "CAP_CHOWN");
	assert_string_equal(capdefs__name(defs, 4), "CAP_SYS_RESOURCE");
	assert_int_equal(capdefs__value(defs, 4), 24);	/* parenthesized */
	assert_int_equal(capdefs__lookup(defs, "CAP_SYS_ADMIN", 13), 3);
	assert_int_equal(capdefs__lookup(defs, "CAP_LAST_CAP", 12), -1);
	assert_int_equal(capdefs__lookup(defs, "CAP_VALID_MASK", 14), -1);
	assert_int_equal(capdefs__lookup(defs, "CAP_TO_MASK", 11), -1);
	assert_int_equal(capdefs__lookup(defs, "CAP_COMMENTED", 13), -1);
	assert_int_equal(capdefs__lookup(defs, "CAP_SYS_ADMI", 12), -1);
	capdefs__free(defs);
}

static void test_capdefs_old_header(void **state)
{
	struct capdefs *defs;
	char err[512];

	(void)state;
	assert_int_equal(capdefs__load(fixture_path("scan", "old"), &defs, err, sizeof(err)), 0);
	assert_string_equal(capdefs__header(defs), "include/linux/capability.h");
	assert_int_equal(capdefs__count(defs), 5);
	assert_int_equal(capdefs__lookup(defs, "CAP_FS_MASK", 11), -1);
	assert_int_equal(capdefs__lookup(defs, "CAP_SYS_NICE", 12), 4);
	capdefs__free(defs);
}

static void test_capdefs_errors(void **state)
{
	struct capdefs *defs = NULL;
	char err[512];
	const char *src;

	(void)state;
	assert_int_equal(capdefs__load(fixture_path("scan", "malformed"), &defs, err, sizeof(err)),
			 -EBADMSG);
	assert_non_null(strstr(err, "malformed/include/uapi/linux/capability.h:3"));
	assert_non_null(strstr(err, "CAP_DAC_OVERRIDE"));

	assert_int_equal(capdefs__load(fixture_path("scan", "does-not-exist"), &defs, err,
				       sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "does-not-exist: No such file or directory"));

	/* a directory that is not a kernel tree */
	assert_int_equal(capdefs__load(fixture_path("scan", "new/kernel"), &defs, err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "new/kernel: no include/uapi/linux/capability.h"));

	assert_int_equal(capdefs__load(fixture_path("scan", "new/kernel/uses.c"), &defs, err,
				       sizeof(err)), -ENOTDIR);

	src = "/* nothing */\n#define CAP_LAST_CAP CAP_X\n";
	assert_int_equal(capdefs__parse(src, strlen(src), "h.h", &defs, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "h.h: no capability defined"));

	src = "#define CAP_A 1\n#define CAP_B 1\n";
	assert_int_equal(capdefs__parse(src, strlen(src), "dup.h", &defs, err, sizeof(err)),
			 -EBADMSG);
	assert_non_null(strstr(err, "dup.h:2: CAP_B = 1 conflicts with CAP_A = 1"));

	/* the same definition twice (#if branches) is fine */
	src = "#if X\n#define CAP_A 1\n#else\n#define CAP_A 1\n#endif\n";
	assert_int_equal(capdefs__parse(src, strlen(src), "twice.h", &defs, err, sizeof(err)), 0);
	assert_int_equal(capdefs__count(defs), 1);
	capdefs__free(defs);
}

struct want_site {
	unsigned int line;
	const char *function;
	const char *cap;
	const char *helper;
};

static void check_sites(struct srcscan *s, const struct want_site *want, size_t n_want)
{
	const struct capdefs *defs = srcscan__defs(s);
	const struct srcscan_site *sites;
	size_t i, n;

	sites = srcscan__sites(s, &n);
	for (i = 0; i < n && i < n_want; i++) {
		assert_int_equal(sites[i].line, want[i].line);
		assert_string_equal(sites[i].function, want[i].function);
		assert_string_equal(capdefs__name(defs, sites[i].cap), want[i].cap);
		if (want[i].helper)
			assert_string_equal(sites[i].helper, want[i].helper);
		else
			assert_null(sites[i].helper);
	}
	assert_int_equal(n, n_want);
}

static void test_buffer_sites(void **state)
{
	static const struct want_site want[] = {
		{ 5, "#define ADMIN_CAP", "CAP_SYS_ADMIN", NULL },
		{ 23, "set_owner", "CAP_CHOWN", "capable" },
		{ 33, "sys_fixture", "CAP_NET_ADMIN", "ns_capable" },
		{ 35, "sys_fixture", "CAP_SYS_RESOURCE", "has_capability_noaudit" },
		{ 36, "sys_fixture", "CAP_DAC_OVERRIDE", NULL },
		{ 40, "table", "CAP_SYS_ADMIN", NULL },
		{ 50, "twice", "CAP_SYS_ADMIN", "capable" },
		{ 55, "after_twice", "CAP_NET_ADMIN", "capable" },
	};
	struct capdefs *defs;
	struct srcscan *s;
	char err[512], *buf;
	size_t len;

	(void)state;
	assert_int_equal(capdefs__load(fixture_path("scan", "new"), &defs, err, sizeof(err)), 0);
	buf = slurp(fixture_path("scan", "new/kernel/uses.c"), &len);
	s = srcscan__new(defs);
	assert_non_null(s);
	assert_int_equal(srcscan__buffer(s, "kernel/uses.c", buf, len, NULL), 0);
	check_sites(s, want, ARRAY_SIZE(want));
	assert_string_equal(srcscan__sites(s, &len)[0].file, "kernel/uses.c");
	srcscan__free(s);
	free(buf);
	capdefs__free(defs);
}

static void test_buffer_macro_functions(void **state)
{
	static const struct want_site want[] = {
		{ 4, "BPF_PROG(prog_name)", "CAP_CHOWN", "capable" },
		{ 8, "FIXTURE_SETUP(layout1)", "CAP_SYS_ADMIN", "ns_capable" },
		{ 12, "compat_sys_fixture", "CAP_NET_ADMIN", "capable" },
	};
	const char *src = "SEC(\"lsm/x\")\nint BPF_PROG(prog_name, int a)\n{\n"
			  "\treturn capable(CAP_CHOWN);\n}\nFIXTURE_SETUP(layout1)\n{\n"
			  "\tns_capable(ns, CAP_SYS_ADMIN);\n}\nCOMPAT_SYSCALL_DEFINE1(fixture, int, a)\n{\n"
			  "\treturn capable(CAP_NET_ADMIN);\n}\n";
	struct srcscan *s;
	struct capdefs *defs;
	char err[512];

	(void)state;
	assert_int_equal(capdefs__load(fixture_path("scan", "new"), &defs, err, sizeof(err)), 0);
	s = srcscan__new(defs);
	assert_int_equal(srcscan__buffer(s, "m.c", src, strlen(src), NULL), 0);
	check_sites(s, want, 3);
	srcscan__free(s);
	capdefs__free(defs);
}

static void test_buffer_outer_function(void **state)
{
	static const struct want_site want[] = {
		{ 2, "hunk_fn", "CAP_SYS_ADMIN", "capable" },
		{ 4, "g", "CAP_CHOWN", "ns_capable" },
	};
	const char *src = "\tif (!capable(\n\t\tCAP_SYS_ADMIN))\n}\nint g(void) { return ns_capable(ns, CAP_CHOWN); }\n";
	struct capdefs *defs;
	struct srcscan *s;
	char err[512];

	(void)state;
	assert_int_equal(capdefs__load(fixture_path("scan", "new"), &defs, err, sizeof(err)), 0);
	s = srcscan__new(defs);
	assert_int_equal(srcscan__buffer(s, "x.c", src, strlen(src), "hunk_fn"), 0);
	check_sites(s, want, 2);
	srcscan__free(s);
	capdefs__free(defs);
}

static unsigned long count_cap(struct srcscan *s, const char *cap)
{
	const struct srcscan_site *sites;
	unsigned long hits = 0;
	size_t i, n;
	int c = capdefs__lookup(srcscan__defs(s), cap, strlen(cap));

	sites = srcscan__sites(s, &n);
	for (i = 0; i < n; i++)
		hits += sites[i].cap == c;
	return hits;
}

static void check_tree(const char *tree, int headers, int filter, unsigned long files,
		       size_t uses, unsigned long sys_admin)
{
	int threads;

	/* one thread with AVX2 (when the CPU has it), four with SSE2 */
	for (threads = 1; threads <= 4; threads += 3) {
		struct srcscan *s;
		size_t n;

		if (threads > 1)
			setenv("CAPAUDIT_NO_AVX2", "1", 1);
		s = scan_fixture(tree, headers, filter, threads);
		unsetenv("CAPAUDIT_NO_AVX2");
		srcscan__sites(s, &n);
		assert_int_equal(srcscan__files(s), files);
		assert_int_equal(n, uses);
		assert_int_equal(count_cap(s, "CAP_SYS_ADMIN"), sys_admin);
		free_scan(s);
	}
}

static void test_tree_counts(void **state)
{
	(void)state;
	/* the symlink tools/sym/uses.c is not followed */
	check_tree("new", 0, 0, 6, 12, 6);
	check_tree("new", 0, 1, 4, 9, 4);	/* no drivers/, no arch/arm */
	check_tree("new", 1, 0, 8, 19, 8);	/* + inline.h and the header itself */
	check_tree("old", 0, 0, 5, 7, 2);
	check_tree("old", 0, 1, 3, 5, 1);	/* arch/i386 and arch/x86_64 kept */
}

struct progress_seen {
	int calls, done;
	unsigned long files;
};

static void note_progress(void *ctx, unsigned long files, unsigned long long bytes, int done)
{
	struct progress_seen *p = ctx;

	(void)bytes;
	p->calls++;
	p->done += done;
	p->files = files;
}

static void test_tree_progress(void **state)
{
	struct progress_seen seen = { 0 };
	struct srcscan_opts opts = { .threads = 2, .progress = note_progress, .progress_ctx = &seen };
	struct capdefs *defs;
	struct srcscan *s;
	char err[512];

	(void)state;
	assert_int_equal(capdefs__load(fixture_path("scan", "new"), &defs, err, sizeof(err)), 0);
	assert_int_equal(srcscan__tree(fixture_path("scan", "new"), defs, &opts, &s, err,
				       sizeof(err)), 0);
	/* at least the last call, which says it is done */
	assert_true(seen.calls >= 1);
	assert_int_equal(seen.done, 1);
	assert_true(seen.files <= srcscan__files(s));
	srcscan__free(s);
	capdefs__free(defs);
}

static void test_tree_errors(void **state)
{
	struct srcscan_opts opts = { 0 };
	struct capdefs *defs;
	struct srcscan *s;
	char err[512];

	(void)state;
	assert_int_equal(capdefs__load(fixture_path("scan", "new"), &defs, err, sizeof(err)), 0);
	assert_int_equal(srcscan__tree(fixture_path("scan", "does-not-exist"), defs, &opts, &s, err,
				       sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "does-not-exist: No such file or directory"));
	capdefs__free(defs);
}

static const struct scan_row *row(const struct scan_report *r, int table, const char *name)
{
	size_t i;

	for (i = 0; i < r->tables[table].n; i++)
		if (!strcmp(r->tables[table].rows[i].name, name))
			return &r->tables[table].rows[i];
	fail_msg("no row %s in table %d", name, table);
	return NULL;
}

static void test_report_tables(void **state)
{
	struct srcscan_opts opts = { 0 };
	struct srcscan *s = scan_fixture("new", 0, 0, 2);
	struct scan_report r;

	(void)state;
	assert_int_equal(scan_report__build(&r, s, "new", &opts), 0);
	assert_int_equal(r.uses, 12);
	assert_int_equal(r.sys_admin_uses, 6);
	assert_int_equal(r.tables[SCAN_CAPS].n, 5);
	assert_string_equal(r.tables[SCAN_CAPS].rows[0].name, "CAP_SYS_ADMIN");
	assert_int_equal(row(&r, SCAN_CAPS, "CAP_NET_ADMIN")->uses, 3);
	assert_int_equal(row(&r, SCAN_DIRS, "kernel")->uses, 8);
	assert_int_equal(row(&r, SCAN_DIRS, "arch")->sys_admin, 2);
	assert_int_equal(row(&r, SCAN_SUBSYSTEMS, "drivers/net")->uses, 2);
	assert_int_equal(row(&r, SCAN_SUBSYSTEMS, "arch/x86")->uses, 1);
	assert_int_equal(row(&r, SCAN_SUBSYSTEMS, "kernel")->uses, 8);
	assert_int_equal(row(&r, SCAN_HELPERS, "capable")->calls, 8);
	assert_int_equal(row(&r, SCAN_HELPERS, "capable")->uses, 7);
	assert_int_equal(row(&r, SCAN_HELPERS, "perfmon_capable")->calls, 2);
	assert_int_equal(row(&r, SCAN_HELPERS, "(none)")->uses, 3);
	scan_report__free(&r);
	free_scan(s);
}

static void test_report_json_csv(void **state)
{
	struct srcscan_opts opts = { 0 };
	struct srcscan *s = scan_fixture("new", 0, 0, 1);
	json_object *root, *v, *site;
	struct scan_report r;
	char *text = NULL;
	size_t len = 0;
	FILE *out;
	int lines = 0;

	(void)state;
	assert_int_equal(scan_report__build(&r, s, "new", &opts), 0);
	out = open_memstream(&text, &len);
	assert_int_equal(scan_report__json(&r, out), 0);
	fclose(out);
	root = json_tokener_parse(text);
	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "uses", &v));
	assert_int_equal(json_object_get_int(v), 12);
	assert_true(json_object_object_get_ex(root, "sites", &v));
	assert_int_equal(json_object_array_length(v), 12);
	site = json_object_array_get_idx(v, 1);
	assert_true(json_object_object_get_ex(site, "file", &v));
	assert_string_equal(json_object_get_string(v), "arch/x86/kernel/ioport.c");
	assert_true(json_object_object_get_ex(site, "function", &v));
	assert_string_equal(json_object_get_string(v), "ksys_ioperm");
	json_object_put(root);
	free(text);

	text = NULL;
	out = open_memstream(&text, &len);
	assert_int_equal(scan_report__csv(&r, out, SCAN_N_TABLES), 0);
	fclose(out);
	for (len = 0; text[len]; len++)
		lines += text[len] == '\n';
	assert_int_equal(lines, 13);
	assert_non_null(strstr(text, "kernel/uses.c,5,#define ADMIN_CAP,CAP_SYS_ADMIN,\n"));
	free(text);

	text = NULL;
	out = open_memstream(&text, &len);
	assert_int_equal(scan_report__csv(&r, out, SCAN_CAPS), 0);
	fclose(out);
	assert_non_null(strstr(text, "capability,uses,share,sys_admin\nCAP_SYS_ADMIN,6,0.5000,6\n"));
	free(text);
	scan_report__free(&r);
	free_scan(s);
}

static void test_report_charts(void **state)
{
	struct srcscan_opts opts = { 0 };
	struct srcscan *s = scan_fixture("new", 0, 0, 1);
	struct scan_report r;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	assert_int_equal(scan_report__build(&r, s, "new & <old>", &opts), 0);
	out = open_memstream(&text, &len);
	assert_int_equal(chart__svg(&r, out), 0);
	fclose(out);
	assert_non_null(strstr(text, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
	/* the CAP_SYS_ADMIN bar is the longest and red; the others are grey */
	assert_non_null(strstr(text, "width=\"520\" height=\"14\" fill=\"#c0392b\"><title>CAP_SYS_ADMIN: 6 uses"));
	assert_non_null(strstr(text, "fill=\"#7f8c8d\"><title>CAP_NET_ADMIN: 3 uses"));
	/* directories: kernel has 8 uses, 3 of them CAP_SYS_ADMIN (a red part) */
	assert_non_null(strstr(text, "<title>kernel: 8 uses, 3 CAP_SYS_ADMIN</title>"));
	assert_non_null(strstr(text, "new &amp; &lt;old&gt;"));
	assert_null(strstr(text, "new & <old>"));
	assert_non_null(strstr(text, "</svg>\n"));
	free(text);

	text = NULL;
	out = open_memstream(&text, &len);
	assert_int_equal(chart__html(&r, out), 0);
	fclose(out);
	assert_non_null(strstr(text, "<!DOCTYPE html>"));
	assert_non_null(strstr(text, "<b>12 uses, 6 of them CAP_SYS_ADMIN (50.0%)</b>"));
	assert_non_null(strstr(text, "<h2>Per subsystem</h2>"));
	assert_non_null(strstr(text, "<tr class=\"sa\"><td>kernel/uses.c:5</td><td>#define ADMIN_CAP</td>"));
	assert_non_null(strstr(text, "</html>\n"));
	free(text);
	scan_report__free(&r);
	free_scan(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ctok_skips_comments_and_literals),
		cmocka_unit_test(test_ctok_directives),
		cmocka_unit_test(test_ctok_skip_block),
		cmocka_unit_test(test_capdefs_new_header),
		cmocka_unit_test(test_capdefs_old_header),
		cmocka_unit_test(test_capdefs_errors),
		cmocka_unit_test(test_buffer_sites),
		cmocka_unit_test(test_buffer_macro_functions),
		cmocka_unit_test(test_buffer_outer_function),
		cmocka_unit_test(test_tree_counts),
		cmocka_unit_test(test_tree_progress),
		cmocka_unit_test(test_tree_errors),
		cmocka_unit_test(test_report_tables),
		cmocka_unit_test(test_report_json_csv),
		cmocka_unit_test(test_report_charts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
