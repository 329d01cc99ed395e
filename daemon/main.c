// SPDX-License-Identifier: GPL-2.0
/* main.c: capaudit's entry point: argv[1] names the subcommand. */
#include <stdio.h>
#include <string.h>

#include "array_size.h"
#include "cli.h"
#include "commands.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *help;
};

static const struct command commands[] = {
	{ "trace", cmd_trace, "stream every capability check live" },
	{ "record", cmd_record, "record every check into a store (the daemon)" },
	{ "report", cmd_report, "tables of the recorded checks" },
	{ "profile", cmd_profile, "the capabilities a workload really needs" },
	{ "advise", cmd_advise, "which CAP_SYS_ADMIN call sites could use a narrower capability" },
	{ "merge", cmd_merge, "merge JSON reports from many hosts into one" },
	{ "scan", cmd_scan, "count capability uses in a kernel source tree" },
};

#define N_COMMANDS ARRAY_SIZE(commands)

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: capaudit COMMAND [OPTIONS...]\n\ncommands:\n");
	for (i = 0; i < N_COMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].help);
	fprintf(out, "\n'capaudit COMMAND --help' describes a command's options;\n"
		     "'capaudit --version' prints capaudit's version.\n");
}

int main(int argc, char **argv)
{
	char name[64];
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		cli__print_version();
		return 0;
	}
	for (i = 0; i < N_COMMANDS; i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		/* getopt's own messages begin with argv[0]: "capaudit report: ..." */
		snprintf(name, sizeof(name), "capaudit %s", commands[i].name);
		argv[1] = name;
		return commands[i].run(argc - 1, argv + 1);
	}
	fprintf(stderr, "capaudit: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
