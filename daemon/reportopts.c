// SPDX-License-Identifier: GPL-2.0
/* reportopts.c: command line of the subcommands that read the store. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "array_size.h"
#include "capnames.h"
#include "cli.h"
#include "reportopts.h"
#include "fallback.h"
#include "rules.h"

#ifndef CAPAUDIT_DATADIR
#define CAPAUDIT_DATADIR "/usr/local/share/capaudit"
#endif

enum {
	OPT_STORE = 256, OPT_CAP, OPT_VERDICT, OPT_SINCE, OPT_UNTIL, OPT_CSV, OPT_FOLDED, OPT_RULES,
	OPT_VERSION, OPT_BY_STACK,
};

static const struct option long_opts[] = {
	{ "store", required_argument, NULL, OPT_STORE },
	{ "workload", required_argument, NULL, 'w' },
	{ "cap", required_argument, NULL, OPT_CAP },
	{ "verdict", required_argument, NULL, OPT_VERDICT },
	{ "since", required_argument, NULL, OPT_SINCE },
	{ "until", required_argument, NULL, OPT_UNTIL },
	{ "rules", required_argument, NULL, OPT_RULES },
	{ "json", no_argument, NULL, 'j' },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "folded", no_argument, NULL, OPT_FOLDED },
	{ "by-stack", no_argument, NULL, OPT_BY_STACK },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{},
};

static void usage(FILE *out, const char *cmd, unsigned int formats, const char *positional)
{
	fprintf(out, "usage: capaudit %s [OPTIONS]%s%s\n\n", cmd, positional ? " " : "",
		positional ? positional : "");
	fprintf(out, "      --store FILE        the store (default " STORE_DEFAULT_PATH ")\n"
		     "  -w, --workload NAME     only this workload (unit, container, ...)\n"
		     "      --cap CAP           only this capability\n"
		     "      --verdict V         granted or denied\n"
		     "      --since T, --until T  time window: unix seconds, or -Ns/-Nm/-Nh/-Nd ago\n"
		     "      --rules FILE        split-candidate rules (default $CAPAUDIT_RULES, else "
		     CAPAUDIT_DATADIR "/capaudit.rules)\n");
	if (formats & (1u << FORMAT_JSON))
		fprintf(out, "  -j, --json              JSON (versioned schema, docs/schema.md)\n");
	if (formats & (1u << FORMAT_CSV))
		fprintf(out, "      --csv               CSV with a header line\n");
	if (formats & (1u << FORMAT_FOLDED))
		fprintf(out, "      --folded            folded stacks (flamegraph.pl, speedscope)\n"
			     "      --by-stack          text: a line per kernel stack (default: lines\n"
			     "                          equal in every column summed, STACKS says how many)\n");
	fprintf(out, "  -h, --help              this text\n"
		     "      --version           capaudit's version\n");
}

/* "1700000000" (unix seconds) or "-2h" (relative to now) → CLOCK_REALTIME ns */
static int parse_time(const char *arg, __u64 *ret)
{
	static const struct { char unit; unsigned long secs; } units[] = {
		{ 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 },
	};
	char *end;
	unsigned long long v;
	size_t i;

	__u64 now = (__u64)time(NULL);

	if (!isdigit((unsigned char)arg[arg[0] == '-']))
		return -EINVAL;
	errno = 0;
	v = strtoull(arg[0] == '-' ? arg + 1 : arg, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (errno)
		return -EINVAL;
	if (arg[0] != '-') {
		if (*end)
			return -EINVAL;
		/* a time in nanoseconds must fit in 64 bits (the year 2554) */
		if (v > UINT64_MAX / 1000000000ull)
			return -ERANGE;
		*ret = v * 1000000000ull;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (end[0] == units[i].unit && !end[1]) {
			/* before the epoch is out of range, not a wrap to the future */
			if (v > now / units[i].secs)
				return -ERANGE;
			*ret = (now - v * units[i].secs) * 1000000000ull;
			return 0;
		}
	}
	return -EINVAL;
}

static int set_format(struct report_opts *o, enum report_format f, unsigned int formats)
{
	if (!(formats & (1u << f)))
		return -EINVAL;
	o->format = f;
	return 0;
}

static int parse_one(struct report_opts *o, int c, const char *arg, unsigned int formats)
{
	unsigned int cap;

	switch (c) {
	case OPT_STORE:
		o->store_path = arg;
		return 0;
	case OPT_RULES:
		o->rules_path = arg;
		return 0;
	case 'w':
		o->filter.workload = arg;
		return 0;
	case OPT_CAP:
		if (capnames__parse(arg, &cap))
			return -EINVAL;
		o->filter.cap = cap;
		return 0;
	case OPT_VERDICT:
		if (strcmp(arg, "granted") && strcmp(arg, "denied"))
			return -EINVAL;
		o->filter.granted = !strcmp(arg, "granted");
		return 0;
	case OPT_SINCE:
		return parse_time(arg, &o->filter.since_ns);
	case OPT_UNTIL:
		return parse_time(arg, &o->filter.until_ns);
	case 'j':
		return set_format(o, FORMAT_JSON, formats);
	case OPT_CSV:
		return set_format(o, FORMAT_CSV, formats);
	case OPT_FOLDED:
		return set_format(o, FORMAT_FOLDED, formats);
	case OPT_BY_STACK:
		/* report's alone (the command with folded stacks) */
		if (!(formats & (1u << FORMAT_FOLDED)))
			return -EINVAL;
		o->by_stack = true;
		return 0;
	}
	return -EINVAL;
}

/* The long name of the option c */
static const char *option_name(int c)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(long_opts) - 1; i++)
		if (long_opts[i].val == c)
			return long_opts[i].name;
	return "?";
}

int report_opts__parse(struct report_opts *o, const char *cmd, unsigned int formats,
		       const char *positional, int argc, char **argv)
{
	int c, err;

	memset(o, 0, sizeof(*o));
	o->store_path = STORE_DEFAULT_PATH;
	o->filter.cap = -1;
	o->filter.granted = -1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "w:jh", long_opts, NULL)) != -1) {
		if (c == 'h' || c == OPT_VERSION) {
			if (c == OPT_VERSION) {
				cli__print_version();
				return 2;
			}
			usage(stdout, cmd, formats, positional);
			return 1;
		}
		err = c == '?' ? -EINVAL : parse_one(o, c, optarg, formats);
		if (!err)
			continue;
		if (c != '?' && optarg)
			fprintf(stderr, "capaudit %s: %s value '%s' for --%s\n", cmd,
				err == -ERANGE ? "out of range" : "invalid", optarg, option_name(c));
		else if (c != '?')
			fprintf(stderr, "capaudit %s: --%s is not available here\n", cmd,
				option_name(c));
		usage(stderr, cmd, formats, positional);
		return -EINVAL;
	}
	if (positional && optind < argc)
		o->positional = argv[optind++];
	if (optind < argc || (positional && !o->positional)) {
		fprintf(stderr, "capaudit %s: %s\n", cmd,
			optind < argc ? "unexpected argument" : "missing argument");
		usage(stderr, cmd, formats, positional);
		return -EINVAL;
	}
	return 0;
}

int report_opts__open_store(const struct report_opts *o, struct store **ret_store)
{
	int err = store__open_readonly(o->store_path, ret_store);

	if (err)
		store__explain_error(o->store_path, err);
	return err;
}

static const char *rules_path(const struct report_opts *o)
{
	const char *env = getenv("CAPAUDIT_RULES");

	/* never a file that merely sits in the current directory */
	if (o->rules_path)
		return o->rules_path;
	if (env && *env)
		return env;
	return CAPAUDIT_DATADIR "/capaudit.rules";
}

int report_opts__load_advice(const struct report_opts *o, struct store *store,
			     struct fallback **ret_fb, struct rules **ret_rules)
{
	char errbuf[512];
	int err;

	if (ret_rules)
		*ret_rules = NULL;
	*ret_fb = fallback__new();
	if (!*ret_fb)
		return -ENOMEM;
	err = store__load_fallbacks(store, *ret_fb);
	if (err) {
		fprintf(stderr, "capaudit: cannot read the fallback pairs from %s: %s\n",
			o->store_path, store__strerror(err));
		goto out_free_fb;
	}
	if (!ret_rules)
		return 0;
	err = rules__load(rules_path(o), ret_rules, errbuf, sizeof(errbuf));
	if (err) {
		fprintf(stderr, "%s\n", errbuf);
		goto out_free_fb;
	}
	return 0;

out_free_fb:
	fallback__free(*ret_fb);
	*ret_fb = NULL;
	return err;
}
