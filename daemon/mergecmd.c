// SPDX-License-Identifier: GPL-2.0
/*
 * mergecmd.c: `capaudit merge [--] REPORT.json...`: the command line, the
 * input files (regular files, bounded) and the merged report on stdout.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "infile.h"
#include "merge.h"
#include "outfmt.h"

static const struct option long_opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{},
};

static void usage(FILE *out)
{
	fprintf(out, "usage: capaudit merge [OPTIONS] [--] REPORT.json...\n"
		     "Merge reports of capaudit report --json (from many hosts) into one.\n\n"
		     "  -h, --help              this text\n"
		     "      --version           capaudit's version\n");
}

static int merge_file(struct merge *m, const char *path)
{
	char err[1024];
	int fd, ret;

	ret = infile__open(path, MERGE_MAX_INPUT, &fd);
	if (ret) {
		if (ret == -EFBIG)
			fprintf(stderr, "capaudit merge: %s: larger than %llu bytes (the limit of an input)\n",
				path, MERGE_MAX_INPUT);
		else
			fprintf(stderr, "capaudit merge: %s: %s\n", path, infile__strerror(ret));
		return ret;
	}
	ret = merge__add_fd(m, path, fd, err, sizeof(err));
	if (ret)
		fprintf(stderr, "capaudit merge: %s\n", err);
	close(fd);
	return ret;
}

/* 0 to merge argv[optind..], 1 after --help or --version, 2 on a usage error */
static int parse_args(int argc, char **argv)
{
	int c;

	optind = 1;
	/* getopt's messages: argv[0] is "capaudit merge" */
	while ((c = getopt_long(argc, argv, "h", long_opts, NULL)) != -1) {
		if (cli__help_or_version(c, usage))
			return 1;
		usage(stderr);
		return 2;
	}
	if (optind == argc) {
		fprintf(stderr, "capaudit merge: no report to merge\n");
		usage(stderr);
		return 2;
	}
	return 0;
}

int cmd_merge(int argc, char **argv)
{
	struct merge *m;
	json_object *out;
	int i, err = 0;

	err = parse_args(argc, argv);
	if (err)
		return err == 1 ? 0 : err;
	m = merge__new();
	if (!m)
		return 1;
	for (i = optind; i < argc && !err; i++)
		err = merge_file(m, argv[i]);
	out = err ? NULL : merge__report(m);
	merge__free(m);
	if (!out)
		return 1;
	outfmt__json_print(stdout, out);
	json_object_put(out);
	return outfmt__finish("merge") ? 1 : 0;
}
