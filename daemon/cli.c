// SPDX-License-Identifier: GPL-2.0
/* cli.c: --version, for every subcommand. */
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

bool cli__help_or_version(int c, void (*usage)(FILE *out))
{
	if (c == 'h')
		usage(stdout);
	else if (c == 'V')
		cli__print_version();
	return c == 'h' || c == 'V';
}
