// SPDX-License-Identifier: GPL-2.0
/*
 * scan.c: the "capaudit scan" subcommand: count the capability uses of a
 * kernel source tree (srcscan), and print the tables (scanreport) as text,
 * JSON or CSV.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "capdefs.h"
#include "chart.h"
#include "scanreport.h"
#include "srcdiff.h"
#include "srcscan.h"

enum scan_format { FMT_TEXT, FMT_JSON, FMT_CSV };

struct scan_args {
	struct srcscan_opts opts;
	enum scan_format format;
	int table;		/* --table for CSV; SCAN_N_TABLES: the sites */
	int sites;		/* text: list the call sites */
	int progress;		/* -1: on a TTY */
	int diff;		/* --diff OLD NEW */
	int maintainers;	/* --maintainers */
	const char *svg;	/* --svg FILE */
	const char *html;	/* --html FILE */
	const char *patch;	/* --patch FILE */
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: capaudit scan [OPTIONS] TREE\n"
		"       capaudit scan [OPTIONS] --diff OLD_TREE NEW_TREE\n"
		"       capaudit scan [OPTIONS] --patch FILE.diff [TREE]\n"
		"\n"
		"Count the capability uses in a kernel source tree: every whole CAP_<NAME>\n"
		"token (a name the tree's own capability header defines with a number)\n"
		"outside comments and string or character literals of the .c files.\n"
		"\n"
		"  --headers          count .h files too\n"
		"  --article-filter   no drivers/, and of arch/ only x86 (i386, x86_64)\n"
		"  --json             everything as one JSON document\n"
		"  --csv              CSV: the call sites, or the table --table names\n"
		"  --table NAME       capabilities, directories, subsystems, helpers or sites\n"
		"  --sites            text: list every call site after the tables\n"
		"  --maintainers      who to ask: each site's MAINTAINERS sections (F:/N:/X:/K:)\n"
		"  --svg FILE         bar charts per capability and directory into FILE\n"
		"  --html FILE        one self-contained page: charts and tables\n"
		"  --diff             the uses added, removed and changed from OLD_TREE to NEW_TREE\n"
		"  --patch FILE       the same for a unified diff; names from TREE's header\n"
		"                     (default /usr/include/linux/capability.h) and the diff's\n"
		"  --threads N        worker threads (default: one per CPU)\n"
		"  --io MODE          read (the default: one growing buffer per thread), auto\n"
		"                     (read small files, map large ones), mmap or mmap-populate\n"
		"  --progress, --no-progress   a progress line on stderr (default: on a TTY)\n"
		"  -h, --help         this help\n"
		"      --version      capaudit's version\n"
		"\n"
		"Exit status: 0 done, 1 error, 2 bad usage.\n");
}

static int parse_args(int argc, char **argv, struct scan_args *a)
{
	static const struct option longopts[] = {
		{ "headers", no_argument, NULL, 'H' },
		{ "article-filter", no_argument, NULL, 'A' },
		{ "json", no_argument, NULL, 'j' },
		{ "csv", no_argument, NULL, 'c' },
		{ "table", required_argument, NULL, 't' },
		{ "sites", no_argument, NULL, 's' },
		{ "threads", required_argument, NULL, 'T' },
		{ "progress", no_argument, NULL, 'p' },
		{ "no-progress", no_argument, NULL, 'P' },
		{ "diff", no_argument, NULL, 'd' },
		{ "maintainers", no_argument, NULL, 'm' },
		{ "io", required_argument, NULL, 'I' },
		{ "svg", required_argument, NULL, 'S' },
		{ "html", required_argument, NULL, 'W' },
		{ "patch", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	char *end;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'H':
			a->opts.headers = 1;
			break;
		case 'A':
			a->opts.article_filter = 1;
			break;
		case 'j':
			a->format = FMT_JSON;
			break;
		case 'c':
			a->format = FMT_CSV;
			break;
		case 's':
			a->sites = 1;
			break;
		case 'p':
			a->progress = 1;
			break;
		case 'P':
			a->progress = 0;
			break;
		case 'd':
			a->diff = 1;
			break;
		case 'm':
			a->maintainers = 1;
			break;
		case 'S':
			a->svg = optarg;
			break;
		case 'W':
			a->html = optarg;
			break;
		case 'I':
			if (!strcmp(optarg, "auto")) {
				a->opts.io = SRCSCAN_IO_AUTO;
			} else if (!strcmp(optarg, "read")) {
				a->opts.io = SRCSCAN_IO_READ;
			} else if (!strcmp(optarg, "mmap")) {
				a->opts.io = SRCSCAN_IO_MMAP;
			} else if (!strcmp(optarg, "mmap-populate")) {
				a->opts.io = SRCSCAN_IO_MMAP_POPULATE;
			} else {
				fprintf(stderr, "capaudit scan: --io wants auto, read, mmap or mmap-populate, not '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'D':
			a->patch = optarg;
			break;
		case 't':
			if (!strcmp(optarg, "sites")) {
				a->table = SCAN_N_TABLES;
				break;
			}
			a->table = scan_report__table_id(optarg);
			if (a->table < 0) {
				fprintf(stderr, "capaudit scan: unknown table '%s' (capabilities, directories, subsystems, helpers or sites)\n",
					optarg);
				return 2;
			}
			break;
		case 'T':
			a->opts.threads = strtol(optarg, &end, 10);
			if (*end || a->opts.threads < 1) {
				fprintf(stderr, "capaudit scan: --threads wants a positive number, not '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return -1;
		case 'V':
			cli__print_version();
			return -1;
		default:
			usage(stderr);
			return 2;
		}
	}
	return 0;
}

/* The progress line on stderr (a TTY): "capaudit: scanning TREE: N files, M MB". */
static void show_progress(void *ctx, unsigned long files, unsigned long long bytes, int done)
{
	if (done)
		fprintf(stderr, "\r\033[K");
	else
		fprintf(stderr, "\rcapaudit: scanning %s: %lu files, %llu MB ", (const char *)ctx,
			files, bytes >> 20);
}

/* Sets up the progress line for a scan of @tree, if wanted. */
static void want_progress(struct scan_args *a, const char *tree)
{
	if (a->progress < 0 ? isatty(STDERR_FILENO) : a->progress) {
		a->opts.progress = show_progress;
		a->opts.progress_ctx = (void *)tree;
	} else {
		a->opts.progress = NULL;
	}
}

/* Writes a chart file; 0 or 1 (the error printed). */
static int write_chart(const char *path, int (*draw)(const struct scan_report *, FILE *),
		       const struct scan_report *r)
{
	FILE *f = fopen(path, "we");
	int ret;

	if (!f) {
		fprintf(stderr, "capaudit scan: cannot create %s: %m\n", path);
		return 1;
	}
	ret = draw(r, f);
	if (fclose(f) || ret) {
		fprintf(stderr, "capaudit scan: cannot write %s (disk full?)\n", path);
		return 1;
	}
	return 0;
}

static int scan_tree(const char *tree, struct scan_args *a)
{
	struct maintainers *maint = NULL;
	struct scan_report report;
	struct capdefs *defs;
	struct srcscan *scan;
	char err[4352];
	int ret;

	ret = capdefs__load(tree, &defs, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "capaudit scan: %s\n", err);
		return 1;
	}
	want_progress(a, tree);
	if (a->maintainers && maintainers__load(tree, &maint, err, sizeof(err))) {
		fprintf(stderr, "capaudit scan: %s\n", err);
		ret = 1;
		goto out_free_defs;
	}
	ret = srcscan__tree(tree, defs, &a->opts, &scan, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "capaudit scan: %s\n", err);
		goto out_free_maint;
	}
	ret = scan_report__build(&report, scan, tree, &a->opts);
	if (!ret && maint)
		ret = scan_report__maintainers(&report, maint);
	if (!ret) {
		if (a->format == FMT_JSON)
			ret = scan_report__json(&report, stdout);
		else if (a->format == FMT_CSV)
			ret = scan_report__csv(&report, stdout, a->table);
		else
			ret = scan_report__text(&report, stdout, a->sites);
		if (!ret && fflush(stdout))
			ret = -1;
	}
	if (ret)
		fprintf(stderr, "capaudit scan: cannot write the report for %s (out of memory, or stdout closed)\n",
			tree);
	if (!ret && a->svg)
		ret = write_chart(a->svg, chart__svg, &report);
	if (!ret && a->html)
		ret = write_chart(a->html, chart__html, &report);
	scan_report__free(&report);
	srcscan__free(scan);
out_free_maint:
	maintainers__free(maint);
out_free_defs:
	capdefs__free(defs);
	return ret ? 1 : 0;
}

static int print_diff(struct srcdiff *d, const struct scan_args *a, const char *old_name,
		      const char *new_name)
{
	char title[8400];
	int ret;

	if (a->format == FMT_JSON) {
		ret = srcdiff__json(d, old_name, new_name, stdout);
	} else if (a->format == FMT_CSV) {
		ret = srcdiff__csv(d, stdout);
	} else {
		if (new_name)
			snprintf(title, sizeof(title), "%s -> %s", old_name, new_name);
		else
			snprintf(title, sizeof(title), "%s", old_name);
		ret = srcdiff__text(d, title, stdout);
	}
	if (ret || fflush(stdout)) {
		fprintf(stderr, "capaudit scan: cannot write the diff (out of memory, or stdout closed)\n");
		return 1;
	}
	return 0;
}

/* Loads the names of @tree and scans it; 0 or 1 (the error printed). */
static int load_and_scan(const char *tree, struct scan_args *a, struct srcscan **ret_scan)
{
	struct capdefs *defs;
	char err[4352];

	if (capdefs__load(tree, &defs, err, sizeof(err)))
		goto out_err;
	if (srcscan__tree(tree, defs, &a->opts, ret_scan, err, sizeof(err)))
		goto out_free_defs;
	return 0;

out_free_defs:
	capdefs__free(defs);
out_err:
	fprintf(stderr, "capaudit scan: %s\n", err);
	return 1;
}

static void free_scan(struct srcscan *s)
{
	struct capdefs *defs = (struct capdefs *)srcscan__defs(s);

	srcscan__free(s);
	capdefs__free(defs);
}

static int diff_trees(const char *old_tree, const char *new_tree, struct scan_args *a)
{
	struct srcscan *o, *n;
	struct srcdiff *d;
	int ret = 1;

	want_progress(a, old_tree);
	if (load_and_scan(old_tree, a, &o))
		return 1;
	want_progress(a, new_tree);
	if (load_and_scan(new_tree, a, &n))
		goto out_free_old;
	if (srcdiff__scans(o, n, &d)) {
		fprintf(stderr, "capaudit scan: out of memory comparing %s and %s\n", old_tree, new_tree);
		goto out_free_new;
	}
	ret = print_diff(d, a, old_tree, new_tree);
	srcdiff__free(d);
out_free_new:
	free_scan(n);
out_free_old:
	free_scan(o);
	return ret;
}

static int diff_patch(const char *patch, const char *tree, struct scan_args *a)
{
	struct capdefs *defs;
	struct srcdiff *d;
	char err[4352];
	int ret;

	if (capdefs__load(tree, &defs, err, sizeof(err))) {
		fprintf(stderr, "capaudit scan: %s\n", err);
		return 1;
	}
	ret = srcdiff__patch(patch, defs, a->opts.headers, &d, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "capaudit scan: %s\n", err);
		capdefs__free(defs);
		return 1;
	}
	ret = print_diff(d, a, patch, NULL);
	srcdiff__free(d);
	capdefs__free(defs);
	return ret;
}

int cmd_scan(int argc, char **argv)
{
	struct scan_args a = { .table = SCAN_N_TABLES, .progress = -1 };
	int ret;

	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (a.diff && a.patch) {
		fprintf(stderr, "capaudit scan: --diff and --patch exclude each other\n");
		return 2;
	}
	if (a.diff) {
		if (argc - optind != 2) {
			fprintf(stderr, "capaudit scan: --diff wants two trees: OLD_TREE NEW_TREE\n");
			return 2;
		}
		return diff_trees(argv[optind], argv[optind + 1], &a);
	}
	if (a.patch) {
		if (argc - optind > 1) {
			fprintf(stderr, "capaudit scan: --patch FILE takes at most one tree (for its names)\n");
			return 2;
		}
		return diff_patch(a.patch, optind < argc ? argv[optind] : "/usr", &a);
	}
	if (argc - optind != 1) {
		fprintf(stderr, "capaudit scan: give one kernel source tree (see 'capaudit scan --help')\n");
		return 2;
	}
	return scan_tree(argv[optind], &a);
}
