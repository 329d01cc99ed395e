// SPDX-License-Identifier: GPL-2.0
/* cli.c: --version and the messages of bad options, for every subcommand. */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"

#ifndef CAPAUDIT_VERSION
#define CAPAUDIT_VERSION "unknown"
#endif

const char *cli__version(void)
{
	return CAPAUDIT_VERSION;
}

void cli__print_version(void)
{
	printf("capaudit %s\n", cli__version());
}

void cli__option_error(const char *cmd, int c, char **argv)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";

	if (c == ':') {
		fprintf(stderr, "capaudit %s: option '%s' needs a value\n", cmd, arg);
		return;
	}
	if (optopt)
		fprintf(stderr, "capaudit %s: unknown option '-%c'\n", cmd, optopt);
	else
		fprintf(stderr, "capaudit %s: unknown option '%s'\n", cmd, arg);
}
