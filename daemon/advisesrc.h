/* SPDX-License-Identifier: GPL-2.0 */
/*
 * advisesrc.h: `capaudit advise --source TREE [--vmlinux FILE]`: coverage
 * of the static CAP_SYS_ADMIN call sites of TREE by the recorded workloads.
 */
#ifndef CAPAUDIT_ADVISESRC_H
#define CAPAUDIT_ADVISESRC_H

#include "reportopts.h"

/*
 * Takes --source TREE and --vmlinux FILE (or --source=TREE ...) out of
 * argv, shifting the rest down; *argc shrinks.  0, or -EINVAL after a
 * message (an option without its value).
 */
int advise_source__take_args(int *argc, char **argv, const char **ret_tree,
			     const char **ret_vmlinux);

/* The extra lines of `capaudit advise --help` */
void advise_source__usage(void);

/*
 * Prints the coverage (text or --json: schema "capaudit-coverage").
 * vmlinux NULL: the running kernel's, else the one vm/build-kernel built.
 * Prints what is wrong and what to do; returns 0 or -errno.
 */
int advise_source__run(const struct report_opts *o, const char *tree,
		       const char *vmlinux);

#endif
