/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h: what every subcommand's command line shares: --version.  (getopt's
 * own messages begin "capaudit COMMAND:": main.c passes that as argv[0].)
 */
#ifndef CAPAUDIT_CLI_H
#define CAPAUDIT_CLI_H

#include <stdbool.h>
#include <stdio.h>

/* The version capaudit was built as (git describe, else the Makefile's) */
const char *cli__version(void);

/* "capaudit VERSION\n" on stdout */
void cli__print_version(void);

/*
 * getopt's option c when it is -h (usage(stdout)) or --version ('V'):
 * printed, and true; else false.
 */
bool cli__help_or_version(int c, void (*usage)(FILE *out));

#endif
