/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reportopts.h: the options report, profile and advise share: which store,
 * which rows (workload, capability, verdict, time window), which format.
 */
#ifndef CAPAUDIT_REPORTOPTS_H
#define CAPAUDIT_REPORTOPTS_H

#include <stdbool.h>

#include "store.h"

enum report_format { FORMAT_TEXT, FORMAT_JSON, FORMAT_CSV, FORMAT_FOLDED };

struct report_opts {
	const char *store_path;
	const char *rules_path;
	struct store_filter filter;
	enum report_format format;
	const char *positional;		/* profile's WORKLOAD */
	bool by_stack;			/* report's text: a line per stack */
};

/*
 * cmd: "report", "profile" or "advise"; formats: the ones it accepts (bit
 * 1 << FORMAT_*); positional: a name for the one positional argument, or
 * NULL.  Returns 0 to run, 1 after --help, 2 after --version, -EINVAL after
 * a message.
 */
int report_opts__parse(struct report_opts *o, const char *cmd, unsigned int formats,
		       const char *positional, int argc, char **argv);
/* Opens the store read-only; prints why not (and what to do) on failure. */
int report_opts__open_store(const struct report_opts *o, struct store **ret_store);

struct fallback;
struct rules;

/*
 * What the advisor needs besides the rows: the fallback pairs learned by the
 * recorder (from the store) and the rules (--rules, else $CAPAUDIT_RULES,
 * else the installed copy, never a file of the current directory; not read
 * when ret_rules is NULL).  Prints what is wrong.
 */
int report_opts__load_advice(const struct report_opts *o, struct store *store,
			     struct fallback **ret_fb, struct rules **ret_rules);

#endif
