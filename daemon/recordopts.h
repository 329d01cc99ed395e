/* SPDX-License-Identifier: GPL-2.0 */
/*
 * recordopts.h: `capaudit record`'s options, from the command line and the
 * configuration file (the same names, without the dashes: "flush-interval 5").
 */
#ifndef CAPAUDIT_RECORDOPTS_H
#define CAPAUDIT_RECORDOPTS_H

#include <linux/types.h>
#include "loader.h"

#define RECORD_DEFAULT_STORE	"/var/lib/capaudit/capaudit.db"
#define RECORD_DEFAULT_CONFIG	"/etc/capaudit/capaudit.conf"

struct record_opts {
	struct loader_opts loader;
	char *config_path;	/* NULL: none given (the default is read if it exists) */
	char *store_path;
	char *rules_path;	/* NULL: no rules */
	char *prometheus_dir;	/* NULL: no textfile */
	char *kallsyms_path;
	char *cgroup_root;
	char *btf_path;		/* NULL: the kernel's BTF (loader.btf_path) */
	unsigned int flush_interval;	/* seconds */
	unsigned int duration;		/* seconds, 0: until a signal */
	__u32 max_keys;
	__u32 max_stacks;
};

/* 0 to run, 1 after --help, -EINVAL (message and usage printed) otherwise */
int record_opts__parse(struct record_opts *o, int argc, char **argv);
/* Reads the configuration file again into o (reloadable options only). */
int record_opts__reload(struct record_opts *o);
void record_opts__free(struct record_opts *o);

#endif
