// SPDX-License-Identifier: GPL-2.0
/*
 * advisesrc.c: `capaudit advise --source TREE [--vmlinux FILE]`: scan TREE
 * for its static CAP_SYS_ADMIN call sites (srcscan), map the call-site frame
 * of each recorded CAP_SYS_ADMIN stack to file:line through the kernel's
 * DWARF (dwarfmap), join them (coverage) and print which static sites the
 * recorded workloads reached: text, or --json (schema "capaudit-coverage",
 * docs/schema.md).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <json-c/json.h>

#include "advisesrc.h"
#include "array_size.h"
#include "callsite.h"
#include "capdefs.h"
#include "coverage.h"
#include "dwarfmap.h"
#include "outfmt.h"
#include "rowset.h"
#include "srcscan.h"

#define CAP_SYS_ADMIN_NR 21

struct source_args {
	const char *tree, *vmlinux;
	char tree_real[PATH_MAX]; /* to print DWARF paths relative to the tree */
	char vmlinux_found[PATH_MAX]; /* without --vmlinux */
};

static int take_one(int *argc, char **argv, int i, const char *name,
		    const char **ret)
{
	size_t n = strlen(name);
	int used;

	if (strncmp(argv[i], name, n) || (argv[i][n] && argv[i][n] != '='))
		return 0;
	if (argv[i][n] == '=') {
		*ret = argv[i] + n + 1;
		used = 1;
	} else if (i + 1 < *argc) {
		*ret = argv[i + 1];
		used = 2;
	} else {
		fprintf(stderr, "capaudit advise: %s wants a value\n", name);
		return -EINVAL;
	}
	memmove(&argv[i], &argv[i + used],
		(*argc - i - used + 1) * sizeof(*argv));
	*argc -= used;
	return used;
}

int advise_source__take_args(int *argc, char **argv, const char **ret_tree,
			     const char **ret_vmlinux)
{
	int i = 1, r;

	*ret_tree = NULL;
	*ret_vmlinux = NULL;
	while (i < *argc && strcmp(argv[i], "--")) {
		r = take_one(argc, argv, i, "--source", ret_tree);
		if (!r)
			r = take_one(argc, argv, i, "--vmlinux", ret_vmlinux);
		if (r < 0)
			return r;
		if (!r)
			i++;
	}
	return 0;
}

void advise_source__usage(void)
{
	printf("      --source TREE       coverage: which static CAP_SYS_ADMIN call sites of the\n"
	       "                          kernel tree TREE (capaudit scan) the recorded workloads\n"
	       "                          reached, through the kernel's DWARF\n"
	       "      --vmlinux FILE      the recorded kernel's vmlinux with DWARF (default: the\n"
	       "                          running kernel's, else vm/build-kernel --print-dir's)\n");
}

/*
 * The running kernel's vmlinux, else the one vm/build-kernel built (from
 * the repository's top directory); 0 or -ENOENT
 */
static int find_vmlinux(char *buf, size_t size)
{
	static const char *const fmts[] = {
		"/usr/lib/debug/boot/vmlinux-%s",
		"/usr/lib/debug/lib/modules/%s/vmlinux",
		"/boot/vmlinux-%s",
		"/lib/modules/%s/build/vmlinux",
	};
	struct utsname u;
	char dir[PATH_MAX];
	FILE *p;
	size_t i;

	if (!uname(&u)) {
		for (i = 0; i < ARRAY_SIZE(fmts); i++) {
			snprintf(buf, size, fmts[i], u.release);
			if (!access(buf, R_OK))
				return 0;
		}
	}
	if (access("vm/build-kernel", X_OK))
		return -ENOENT;
	p = popen("vm/build-kernel --print-dir 2>/dev/null", "r");
	if (!p)
		return -ENOENT;
	if (!fgets(dir, sizeof(dir), p))
		dir[0] = '\0';
	pclose(p);
	dir[strcspn(dir, "\n")] = '\0';
	if (!dir[0] || (size_t)snprintf(buf, size, "%s/vmlinux", dir) >= size)
		return -ENOENT;
	return access(buf, R_OK) ? -ENOENT : 0;
}

/*
 * The running kernel's GNU build ID from /sys/kernel/notes (Elf64_Nhdr
 * records, 4-byte aligned): its length into buf, or -ENODATA
 */
static int running_build_id(unsigned char *buf, size_t size)
{
	unsigned char notes[4096];
	__u32 namesz, descsz, type;
	size_t n, pos = 0;
	FILE *f = fopen("/sys/kernel/notes", "rb");

	if (!f)
		return -ENODATA;
	n = fread(notes, 1, sizeof(notes), f);
	fclose(f);
	while (pos + 12 <= n) {
		memcpy(&namesz, notes + pos, 4);
		memcpy(&descsz, notes + pos + 4, 4);
		memcpy(&type, notes + pos + 8, 4);
		pos += 12;
		if (namesz > n || descsz > n ||
		    pos + ((namesz + 3) & ~3u) + descsz > n)
			break;
		if (type == 3 && namesz == 4 &&
		    !memcmp(notes + pos, "GNU", 4) && descsz <= size) {
			memcpy(buf, notes + pos + 4, descsz);
			return descsz;
		}
		pos += ((namesz + 3) & ~3u) + ((descsz + 3) & ~3u);
	}
	return -ENODATA;
}

/* A vmlinux of another kernel maps every frame wrong: say so */
static void warn_other_kernel(struct dwarfmap *map, const char *path)
{
	unsigned char running[64];
	const unsigned char *bits;
	int len = dwarfmap__build_id(map, &bits),
	    rlen = running_build_id(running, sizeof(running));

	if (len > 0 && rlen > 0 && (len != rlen || memcmp(bits, running, len)))
		fprintf(stderr,
			"capaudit advise: warning: %s is not the running kernel's vmlinux (build IDs differ): its lines are right only for a store recorded on the kernel built with it\n",
			path);
}

static int open_dwarf(struct source_args *a, struct dwarfmap **ret_map)
{
	const char *path = a->vmlinux;
	int err;

	if (!path) {
		if (find_vmlinux(a->vmlinux_found, sizeof(a->vmlinux_found))) {
			fprintf(stderr,
				"capaudit advise: no vmlinux of the running kernel in /usr/lib/debug/boot, /boot or /lib/modules/*/build: pass --vmlinux FILE (the build directory of the recorded kernel, e.g. $(vm/build-kernel --print-dir)/vmlinux)\n");
			return -ENOENT;
		}
		path = a->vmlinux = a->vmlinux_found;
	}
	err = dwarfmap__open(path, ret_map);
	if (err)
		fprintf(stderr,
			"capaudit advise: cannot read the DWARF of %s: %s: pass --vmlinux with the recorded kernel's unstripped vmlinux\n",
			path, dwarfmap__strerror(err));
	else
		warn_other_kernel(*ret_map, path);
	return err;
}

static int add_static_sites(struct coverage *cov, const char *tree)
{
	struct srcscan_opts opts = {};
	const struct srcscan_site *sites;
	struct capdefs *defs;
	struct srcscan *scan;
	char err_msg[512];
	size_t i, n;
	int err, admin;

	err = capdefs__load(tree, &defs, err_msg, sizeof(err_msg));
	if (err) {
		fprintf(stderr,
			"capaudit advise: --source %s: %s (pass the source tree the recorded kernel was built from)\n",
			tree, err_msg);
		return err;
	}
	admin = capdefs__lookup(defs, "CAP_SYS_ADMIN", strlen("CAP_SYS_ADMIN"));
	err = srcscan__tree(tree, defs, &opts, &scan, err_msg, sizeof(err_msg));
	if (err) {
		fprintf(stderr, "capaudit advise: --source %s: %s\n", tree,
			err_msg);
		goto out_free_defs;
	}
	sites = srcscan__sites(scan, &n);
	for (i = 0; i < n && !err; i++)
		if (sites[i].cap == admin)
			err = coverage__add_static(cov, sites[i].file,
						   sites[i].line,
						   sites[i].function,
						   sites[i].helper);
	srcscan__free(scan);
out_free_defs:
	capdefs__free(defs);
	return err;
}

/* The outermost wrapper the call site called, without a compiler suffix */
static const char *helper_name(char **frames, int i, char *buf, size_t size)
{
	unsigned long off;

	if (i < 1 || dwarfmap__parse_frame(frames[i - 1], buf, size, &off))
		return NULL;
	buf[strcspn(buf, ".")] = '\0';
	return buf;
}

/*
 * The first frame past the capability wrappers, mapped (f.res NULL when
 * not), and the function it called when that ended in a tail call
 */
static int add_row(struct coverage *cov, struct dwarfmap *map,
		   struct store *store, const struct agg_row *r)
{
	struct coverage_frame f = { .frame = r->call_site };
	const char *workload = r->workload ? r->workload : "-";
	char func[256], helper[256];
	unsigned long off;
	char **frames;
	int i, nr, err = 0;

	if (!r->stack_hash ||
	    store__stack_frames(store, r->stack_hash, &frames, &nr))
		return coverage__add_observed(cov, &f, workload, r->count);
	for (i = 0; i < nr; i++) {
		if (dwarfmap__parse_frame(frames[i], func, sizeof(func), &off))
			break;
		if (callsite__is_wrapper(func))
			continue;
		f.frame = frames[i];
		f.helper = helper_name(frames, i, helper, sizeof(helper));
		err = dwarfmap__addr2line(map, func, off, true, &f.res);
		if (err == -ENOMEM)
			goto out_free_frames;
		if (!dwarfmap__call_target(map, func, off, &f.tail_callee) &&
		    !callsite__is_wrapper(f.tail_callee))
			err = dwarfmap__addr2line(map, f.tail_callee, 0, false,
						  &f.callee_res);
		else
			f.tail_callee = NULL;
		if (err == -ENOMEM)
			goto out_free_frames;
		break;
	}
	err = coverage__add_observed(cov, &f, workload, r->count);
out_free_frames:
	free(frames);
	return err;
}

static int add_observed(struct coverage *cov, struct dwarfmap *map,
			const struct report_opts *o)
{
	struct rowset rs = {};
	struct store *store;
	size_t i;
	int err;

	err = report_opts__open_store(o, &store);
	if (err)
		return err;
	err = rowset__load(&rs, store, &o->filter);
	for (i = 0; !err && i < rs.nr; i++)
		if (rs.rows[i].cap == CAP_SYS_ADMIN_NR && rs.rows[i].call_site)
			err = add_row(cov, map, store, &rs.rows[i]);
	rowset__free(&rs);
	store__close(store);
	return err;
}

/* A DWARF path relative to the tree when it is inside */
static const char *rel(const struct source_args *a, const char *path)
{
	size_t n = strlen(a->tree_real);

	if (path && n && !strncmp(path, a->tree_real, n) && path[n] == '/')
		return path + n + 1;
	return path;
}

static double percent(size_t part, size_t whole)
{
	return whole ? 100.0 * part / whole : 0.0;
}

static void print_strv(char *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		putchar(i ? ',' : ' ');
		outfmt__text(stdout, v[i], 0, "-");
	}
	printf(n ? "\n" : " -\n");
}

static void print_text(const struct coverage *cov, const struct source_args *a)
{
	const struct coverage_observed *obs;
	const struct coverage_site *s;
	size_t i, n, nobs, unmatched = 0;
	char where[PATH_MAX + 16];

	s = coverage__sites(cov, &n);
	obs = coverage__observed(cov, &nobs);
	printf("static CAP_SYS_ADMIN call sites: %zu, observed: %zu (coverage %.1f%%)\n",
	       n, coverage__nr_covered(cov),
	       percent(coverage__nr_covered(cov), n));
	printf("%-48s %-32s %-20s %-8s %10s %s\n", "FILE:LINE", "FUNCTION",
	       "HELPER", "OBSERVED", "CHECKS", "WORKLOADS");
	for (i = 0; i < n; i++) {
		snprintf(where, sizeof(where), "%s:%u", s[i].file, s[i].line);
		outfmt__text(stdout, where, 48, "-");
		putchar(' ');
		outfmt__text(stdout, s[i].function, 32, "-");
		putchar(' ');
		outfmt__text(stdout, s[i].helper, 20, "-");
		printf(" %-8s %10llu", s[i].checks ? "yes" : "no",
		       (unsigned long long)s[i].checks);
		print_strv(s[i].workloads, s[i].nr_workloads);
	}
	for (i = 0; i < nobs; i++) {
		if (obs[i].site >= 0)
			continue;
		if (!unmatched++)
			printf("\nobserved CAP_SYS_ADMIN call sites with no static match:\n"
			       "%-40s %-48s %-32s %10s %s\n",
			       "FRAME", "FILE:LINE", "FUNCTION", "CHECKS",
			       "WORKLOADS");
		if (obs[i].loc.file)
			snprintf(where, sizeof(where), "%s:%u",
				 rel(a, obs[i].loc.file), obs[i].loc.line);
		else
			snprintf(where, sizeof(where), "(not mapped)");
		outfmt__text(stdout, obs[i].frame, 40, "-");
		putchar(' ');
		outfmt__text(stdout, where, 48, "-");
		putchar(' ');
		outfmt__text(stdout, obs[i].loc.function, 32, "-");
		printf(" %10llu", (unsigned long long)obs[i].checks);
		print_strv(obs[i].workloads, obs[i].nr_workloads);
	}
}

static json_object *strv_json(char *const *v, size_t n)
{
	json_object *arr = json_object_new_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_object_array_add(arr, outfmt__json_string(v[i]));
	return arr;
}

static json_object *site_json(const struct coverage_site *s)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "file", outfmt__json_string(s->file));
	json_object_object_add(o, "line", json_object_new_int(s->line));
	json_object_object_add(o, "function",
			       outfmt__json_string(s->function));
	json_object_object_add(o, "helper",
			       s->helper ? outfmt__json_string(s->helper) :
					   NULL);
	json_object_object_add(o, "observed",
			       json_object_new_boolean(s->checks > 0));
	json_object_object_add(o, "checks", json_object_new_uint64(s->checks));
	json_object_object_add(o, "workloads",
			       strv_json(s->workloads, s->nr_workloads));
	json_object_object_add(o, "frames", strv_json(s->frames, s->nr_frames));
	json_object_object_add(o, "via", strv_json(s->via, s->nr_via));
	return o;
}

static json_object *unmatched_json(const struct coverage_observed *ob,
				   const struct source_args *a)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "frame", outfmt__json_string(ob->frame));
	json_object_object_add(
		o, "file",
		ob->loc.file ? outfmt__json_string(rel(a, ob->loc.file)) :
			       NULL);
	json_object_object_add(
		o, "line",
		ob->loc.file ? json_object_new_int(ob->loc.line) : NULL);
	json_object_object_add(
		o, "function",
		ob->loc.function ? outfmt__json_string(ob->loc.function) :
				   NULL);
	json_object_object_add(o, "helper",
			       ob->helper ? outfmt__json_string(ob->helper) :
					    NULL);
	json_object_object_add(o, "checks", json_object_new_uint64(ob->checks));
	json_object_object_add(o, "workloads",
			       strv_json(ob->workloads, ob->nr_workloads));
	return o;
}

static void print_json(const struct coverage *cov, const struct source_args *a)
{
	json_object *o = json_object_new_object(),
		    *sites = json_object_new_array();
	json_object *unmatched = json_object_new_array();
	const struct coverage_observed *obs;
	const struct coverage_site *s;
	size_t i, n, nobs, covered = coverage__nr_covered(cov);

	s = coverage__sites(cov, &n);
	obs = coverage__observed(cov, &nobs);
	json_object_object_add(o, "schema",
			       outfmt__json_string("capaudit-coverage"));
	json_object_object_add(o, "version", json_object_new_int(1));
	json_object_object_add(o, "source", outfmt__json_string(a->tree));
	json_object_object_add(o, "vmlinux",
			       outfmt__json_string(a->vmlinux));
	json_object_object_add(o, "static_sites", json_object_new_uint64(n));
	json_object_object_add(o, "observed_sites",
			       json_object_new_uint64(covered));
	json_object_object_add(o, "coverage_percent",
			       json_object_new_double(percent(covered, n)));
	for (i = 0; i < n; i++)
		json_object_array_add(sites, site_json(&s[i]));
	json_object_object_add(o, "sites", sites);
	for (i = 0; i < nobs; i++)
		if (obs[i].site < 0)
			json_object_array_add(unmatched,
					      unmatched_json(&obs[i], a));
	json_object_object_add(o, "unmatched", unmatched);
	outfmt__json_print(stdout, o);
	json_object_put(o);
}

int advise_source__run(const struct report_opts *o, const char *tree,
		       const char *vmlinux)
{
	struct source_args a = { .tree = tree, .vmlinux = vmlinux };
	struct dwarfmap *map;
	struct coverage *cov;
	int err;

	if (!realpath(tree, a.tree_real)) {
		fprintf(stderr,
			"capaudit advise: --source %s: %s (pass the source tree the recorded kernel was built from)\n",
			tree, strerror(errno));
		return -errno;
	}
	err = open_dwarf(&a, &map);
	if (err)
		return err;
	err = -ENOMEM;
	cov = coverage__new();
	if (!cov)
		goto out_free_map;
	err = add_static_sites(cov, tree);
	if (!err)
		err = add_observed(cov, map, o);
	if (!err)
		err = coverage__join(cov);
	if (err == -ENOMEM)
		fprintf(stderr, "capaudit advise: out of memory\n");
	if (!err && o->format == FORMAT_JSON)
		print_json(cov, &a);
	else if (!err)
		print_text(cov, &a);
	if (!err)
		err = outfmt__finish("advise");
	coverage__free(cov);
out_free_map:
	dwarfmap__free(map);
	return err;
}
