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

#include "commands.h"
#include "capdefs.h"
#include "scanreport.h"
#include "srcscan.h"

enum scan_format { FMT_TEXT, FMT_JSON, FMT_CSV };

struct scan_args {
	struct srcscan_opts opts;
	enum scan_format format;
	int table;		/* --table for CSV; SCAN_N_TABLES: the sites */
	int sites;		/* text: list the call sites */
	int progress;		/* -1: on a TTY */
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: capaudit scan [OPTIONS] TREE\n"
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
		"  --threads N        worker threads (default: one per CPU)\n"
		"  --progress, --no-progress   a progress line on stderr (default: on a TTY)\n"
		"  -h, --help         this help\n"
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
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	char *end;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'H': a->opts.headers = 1; break;
		case 'A': a->opts.article_filter = 1; break;
		case 'j': a->format = FMT_JSON; break;
		case 'c': a->format = FMT_CSV; break;
		case 's': a->sites = 1; break;
		case 'p': a->progress = 1; break;
		case 'P': a->progress = 0; break;
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
		default:
			usage(stderr);
			return 2;
		}
	}
	return 0;
}

static int scan_tree(const char *tree, struct scan_args *a)
{
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
	a->opts.progress = a->progress < 0 ? isatty(STDERR_FILENO) : a->progress;
	ret = srcscan__tree(tree, defs, &a->opts, &scan, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "capaudit scan: %s\n", err);
		goto out_free_defs;
	}
	ret = scan_report__build(&report, scan, tree, &a->opts);
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
	scan_report__free(&report);
	srcscan__free(scan);
out_free_defs:
	capdefs__free(defs);
	return ret ? 1 : 0;
}

int cmd_scan(int argc, char **argv)
{
	struct scan_args a = { .table = SCAN_N_TABLES, .progress = -1 };
	int ret;

	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (argc - optind != 1) {
		fprintf(stderr, "capaudit scan: give one kernel source tree (see 'capaudit scan --help')\n");
		return 2;
	}
	return scan_tree(argv[optind], &a);
}
