/* SPDX-License-Identifier: GPL-2.0 */
/* commands.h: the subcommands main.c dispatches to, one file each. */
#ifndef CAPAUDIT_COMMANDS_H
#define CAPAUDIT_COMMANDS_H

/*
 * Each returns the process exit status: 0 success, 1 failure, 2 bad usage.
 * argv[0] is the subcommand's name.
 */
int cmd_trace(int argc, char **argv);
int cmd_scan(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_advise(int argc, char **argv);
int cmd_merge(int argc, char **argv);

#endif
