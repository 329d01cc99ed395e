// SPDX-License-Identifier: GPL-2.0
/*
 * recordopts.c: `capaudit record`'s command line and configuration file.
 * A configuration line is a long option without its dashes ("max-keys
 * 65536"); '#' starts a comment.  The command line wins over the file.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agg.h"
#include "cli.h"
#include "recordopts.h"

enum {
	OPT_STORE = 256,
	OPT_CONFIG,
	OPT_RULES,
	OPT_FLUSH,
	OPT_MAX_KEYS,
	OPT_MAX_STACKS,
	OPT_PROMETHEUS,
	OPT_RINGBUF,
	OPT_KALLSYMS,
	OPT_CGROUP_ROOT,
	OPT_KPROBE,
	OPT_UNWIND,
	OPT_SAMPLE,
};

static const struct option long_opts[] = {
	{ "store", required_argument, NULL, OPT_STORE },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "rules", required_argument, NULL, OPT_RULES },
	{ "flush-interval", required_argument, NULL, OPT_FLUSH },
	{ "max-keys", required_argument, NULL, OPT_MAX_KEYS },
	{ "max-stacks", required_argument, NULL, OPT_MAX_STACKS },
	{ "prometheus", required_argument, NULL, OPT_PROMETHEUS },
	{ "duration", required_argument, NULL, 'd' },
	{ "ringbuf-size", required_argument, NULL, OPT_RINGBUF },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "cgroup-root", required_argument, NULL, OPT_CGROUP_ROOT },
	{ "kprobe", no_argument, NULL, OPT_KPROBE },
	{ "unwind-every-check", no_argument, NULL, OPT_UNWIND },
	{ "sample-every", required_argument, NULL, OPT_SAMPLE },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{},
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: capaudit record [OPTIONS]\n"
		"Record every capability check into a store until SIGINT or SIGTERM\n"
		"(SIGHUP rereads the configuration file and the rules).\n\n"
		"      --store FILE          SQLite store (default " RECORD_DEFAULT_STORE ")\n"
		"      --config FILE         configuration file (default " RECORD_DEFAULT_CONFIG
		" if it exists)\n"
		"      --rules FILE          split-candidate rules (checked at start and reload)\n"
		"      --flush-interval S    seconds between flushes (default 5)\n"
		"      --max-keys N          distinct counters held in memory (default %u)\n"
		"      --max-stacks N        distinct stacks held in memory (default %u)\n"
		"      --prometheus DIR      write DIR/capaudit.prom at each flush\n"
		"  -d, --duration S          stop after S seconds\n"
		"      --ringbuf-size N      ring buffer bytes (power of two)\n"
		"      --kallsyms FILE       kernel symbols (default /proc/kallsyms)\n"
		"      --cgroup-root DIR     cgroup v2 mount (default /sys/fs/cgroup)\n"
		"      --kprobe              kprobe + kretprobe even when fexit works\n"
		"      --unwind-every-check  unwind the kernel stack of every check, for exact\n"
		"                            counts per stack (default: per call site, a\n"
		"                            stack unwound for each new key)\n"
		"      --sample-every N      unwind every Nth check of a key to check its call\n"
		"                            site (power of two, default %u)\n"
		"  -v, --verbose             libbpf debug output\n"
		"  -h, --help                this text\n"
		"      --version             capaudit's version\n",
		AGG_DEFAULT_MAX_KEYS, AGG_DEFAULT_MAX_STACKS, CAPAUDIT_SAMPLE_EVERY);
}

static int parse_num(const char *name, const char *arg, unsigned long min, unsigned long max,
		     unsigned long *ret)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || v < min || v > max) {
		fprintf(stderr, "capaudit record: invalid %s '%s' (a number from %lu to %lu)\n",
			name, arg, min, max);
		return -EINVAL;
	}
	*ret = v;
	return 0;
}

static int set_str(char **dst, const char *arg)
{
	char *s = strdup(arg);

	if (!s)
		return -ENOMEM;
	free(*dst);
	*dst = s;
	return 0;
}

static int parse_ringbuf(const char *arg, __u32 *ret)
{
	unsigned long v;

	if (parse_num("ring buffer size", arg, 4096, 1ul << 30, &v))
		return -EINVAL;
	if (v & (v - 1)) {
		fprintf(stderr, "capaudit record: --ringbuf-size must be a power of two\n");
		return -EINVAL;
	}
	*ret = v;
	return 0;
}

static int set_opt(struct record_opts *o, int c, const char *arg)
{
	unsigned long v = 0;
	int err = 0;

	switch (c) {
	case OPT_STORE:
		return set_str(&o->store_path, arg);
	case OPT_CONFIG:
		return set_str(&o->config_path, arg);
	case OPT_RULES:
		return set_str(&o->rules_path, arg);
	case OPT_PROMETHEUS:
		return set_str(&o->prometheus_dir, arg);
	case OPT_KALLSYMS:
		return set_str(&o->kallsyms_path, arg);
	case OPT_CGROUP_ROOT:
		return set_str(&o->cgroup_root, arg);
	case OPT_FLUSH:
		err = parse_num("flush interval", arg, 1, 86400, &v);
		o->flush_interval = v;
		return err;
	case 'd':
		err = parse_num("duration", arg, 1, 365 * 86400, &v);
		o->duration = v;
		return err;
	case OPT_MAX_KEYS:
		err = parse_num("max-keys", arg, 1, AGG_MAX_LIMIT, &v);
		o->max_keys = v;
		return err;
	case OPT_MAX_STACKS:
		err = parse_num("max-stacks", arg, 1, AGG_MAX_LIMIT, &v);
		o->max_stacks = v;
		return err;
	case OPT_RINGBUF:
		return parse_ringbuf(arg, &o->loader.ringbuf_bytes);
	case OPT_KPROBE:
		o->loader.attach = LOADER_ATTACH_KPROBE;
		return 0;
	case OPT_UNWIND:
		o->loader.mode = CAPAUDIT_MODE_COUNT_STACK;
		return 0;
	case OPT_SAMPLE:
		err = parse_num("sample-every", arg, 1, 1u << 30, &v);
		if (!err && (v & (v - 1))) {
			fprintf(stderr, "capaudit record: sample-every must be a power of two, "
					"not %lu\n", v);
			err = -EINVAL;
		}
		o->loader.sample_every = v;
		return err;
	case 'v':
		o->loader.verbose = true;
		return 0;
	}
	return -EINVAL;
}

static int opt_by_name(const char *name)
{
	const struct option *lo;

	for (lo = long_opts; lo->name; lo++)
		if (!strcmp(lo->name, name) && strcmp(name, "config") && strcmp(name, "help") &&
		    strcmp(name, "version"))
			return lo->val;
	return 0;
}

/* "name value" lines; only_reloadable: the options SIGHUP may change */
static int read_config(struct record_opts *o, const char *path, bool only_reloadable)
{
	char line[1024], *name, *value, *save;
	int c, lineno = 0, err = 0;
	FILE *f = fopen(path, "re");

	if (!f) {
		fprintf(stderr, "capaudit record: cannot read the configuration %s: %s\n", path,
			strerror(errno));
		return -errno;
	}
	while (!err && fgets(line, sizeof(line), f)) {
		lineno++;
		line[strcspn(line, "#\n")] = '\0';
		name = strtok_r(line, " \t=", &save);
		if (!name)
			continue;
		value = strtok_r(NULL, " \t=", &save);
		c = opt_by_name(name);
		if (!c) {
			fprintf(stderr, "capaudit record: %s:%d: unknown option '%s'\n", path,
				lineno, name);
			err = -EINVAL;
		} else if (only_reloadable && c != OPT_FLUSH && c != OPT_RULES) {
			continue;
		} else if (!value && c != 'v' && c != OPT_KPROBE && c != OPT_UNWIND) {
			fprintf(stderr, "capaudit record: %s:%d: '%s' needs a value\n", path,
				lineno, name);
			err = -EINVAL;
		} else if (set_opt(o, c, value)) {
			fprintf(stderr, "capaudit record: %s:%d: bad value for '%s'\n", path,
				lineno, name);
			err = -EINVAL;
		}
	}
	fclose(f);
	return err;
}

/* the string defaults, where neither the file nor the command line set one */
static int set_defaults(struct record_opts *o)
{
	if ((!o->store_path && set_str(&o->store_path, RECORD_DEFAULT_STORE)) ||
	    (!o->kallsyms_path && set_str(&o->kallsyms_path, "/proc/kallsyms")) ||
	    (!o->cgroup_root && set_str(&o->cgroup_root, "/sys/fs/cgroup")))
		return -ENOMEM;
	return 0;
}

/* The config file path from argv, before the rest is parsed. */
static const char *find_config(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--config") && i + 1 < argc)
			return argv[i + 1];
		if (!strncmp(argv[i], "--config=", 9))
			return argv[i] + 9;
	}
	return access(RECORD_DEFAULT_CONFIG, R_OK) ? NULL : RECORD_DEFAULT_CONFIG;
}

int record_opts__parse(struct record_opts *o, int argc, char **argv)
{
	const char *config = find_config(argc, argv);
	int c;

	o->loader.kernel_stack = true;
	o->loader.mode = CAPAUDIT_MODE_COUNT;
	o->flush_interval = 5;
	if (config && (set_str(&o->config_path, config) || read_config(o, config, false)))
		return -EINVAL;
	optind = 1;
	while ((c = getopt_long(argc, argv, "d:vh", long_opts, NULL)) != -1) {
		if (cli__help_or_version(c, usage))
			return 1;
		if (c == '?' || set_opt(o, c, optarg)) {
			usage(stderr);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "capaudit record: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return -EINVAL;
	}
	return set_defaults(o);
}

int record_opts__reload(struct record_opts *o)
{
	if (!o->config_path)
		return 0;
	return read_config(o, o->config_path, true);
}

void record_opts__free(struct record_opts *o)
{
	free(o->config_path);
	free(o->store_path);
	free(o->rules_path);
	free(o->prometheus_dir);
	free(o->kallsyms_path);
	free(o->cgroup_root);
}
