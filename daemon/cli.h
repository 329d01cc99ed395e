/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h: what every subcommand's command line shares: --version, and the
 * messages of a bad option ("capaudit COMMAND: ...").
 */
#ifndef CAPAUDIT_CLI_H
#define CAPAUDIT_CLI_H

/* The version capaudit was built as (git describe, else the Makefile's) */
const char *cli__version(void);

/* "capaudit VERSION\n" on stdout */
void cli__print_version(void);

/*
 * After getopt_long() returned '?' or ':' (optstring starting with ':'):
 * "capaudit CMD: unknown option '--nope'" or "capaudit CMD: option '--store'
 * needs a value" on stderr.
 */
void cli__option_error(const char *cmd, int c, char **argv);

#endif
