// SPDX-License-Identifier: GPL-2.0
/*
 * loader.c: open → set rodata → choose fexit or kprobe → load → attach.
 *
 * Everything that can go wrong before the first event (privileges, BTF, the
 * probe, the verifier, the attach) is diagnosed here, with a message that
 * says what to do, since this is the edge between capaudit and the kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/capability.h>
#include <sys/mman.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "array_size.h"
#include "capaudit.h"
#include "capaudit.skel.h"
#include "loader.h"
#include "spawners.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

struct loader {
	struct capaudit_bpf *skel;
	int cgroup_fd;
	bool kprobe;
	int ncpus;		/* possible CPUs: rows of "counts", entries of cpus[] */
	void *counts;		/* "counts", mapped read-only */
	size_t counts_len;
};

/* The last libbpf messages, for the verifier log's tail on a failed load. */
static char libbpf_log[16384];
static size_t libbpf_log_len;
static bool libbpf_verbose;

/* Keep the newest bytes of msg[0..n) in libbpf_log, dropping the oldest. */
static void libbpf_log__append(const char *msg, size_t n)
{
	size_t keep;

	if (n >= sizeof(libbpf_log)) {
		/* one message (a verifier log) larger than the buffer: its end */
		msg += n - (sizeof(libbpf_log) - 1);
		n = sizeof(libbpf_log) - 1;
	}
	if (libbpf_log_len + n >= sizeof(libbpf_log)) {
		keep = sizeof(libbpf_log) - 1 - n;
		memmove(libbpf_log, libbpf_log + libbpf_log_len - keep, keep);
		libbpf_log_len = keep;
	}
	memcpy(libbpf_log + libbpf_log_len, msg, n);
	libbpf_log_len += n;
	libbpf_log[libbpf_log_len] = '\0';
}

/*
 * libbpf prints a verifier log as one message, often longer than any line
 * buffer: format it whole, so that its tail (where the verifier says what it
 * rejected) is kept.
 */
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char *msg;
	int n;

	if (level == LIBBPF_DEBUG && !libbpf_verbose)
		return 0;
	n = vasprintf(&msg, fmt, ap);
	if (n < 0)
		return -ENOMEM;
	if (libbpf_verbose)
		fputs(msg, stderr);
	libbpf_log__append(msg, n);
	free(msg);
	return n;
}

static void print_log_tail(int lines)
{
	const char *p = libbpf_log + libbpf_log_len;

	while (p > libbpf_log && lines >= 0) {
		p--;
		if (*p == '\n')
			lines--;
	}
	if (*p == '\n')
		p++;
	fprintf(stderr, "capaudit: last lines of the libbpf/verifier log:\n%s", p);
}

static bool has_cap(cap_t caps, cap_value_t cap)
{
	cap_flag_value_t v = CAP_CLEAR;

	if (cap_get_flag(caps, cap, CAP_EFFECTIVE, &v))
		return false;
	return v == CAP_SET;
}

/*
 * CAP_BPF + CAP_PERFMON load and attach tracing programs (CAP_SYS_ADMIN
 * would too, but capaudit must not need it); CAP_SYSLOG only makes kernel
 * addresses readable, which trace reports itself when they are hidden.
 */
static int check_privileges(void)
{
	char missing[64] = "";
	cap_t caps;

	caps = cap_get_proc();
	if (!caps)
		return -errno;
	if (!has_cap(caps, CAP_SYS_ADMIN)) {
		if (!has_cap(caps, CAP_BPF))
			strcat(missing, " CAP_BPF");
		if (!has_cap(caps, CAP_PERFMON))
			strcat(missing, " CAP_PERFMON");
	}
	cap_free(caps);
	if (!missing[0])
		return 0;
	fprintf(stderr,
		"capaudit: missing capabilities:%s: run as root or grant CAP_BPF and CAP_PERFMON "
		"(and CAP_SYSLOG for kernel symbol names), e.g. setpriv --ambient-caps "
		"+bpf,+perfmon,+syslog\n",
		missing);
	return -EPERM;
}

/*
 * What the BPF program needs of the kernel, read from its BTF before
 * anything is loaded (capaudit needs Linux 5.11 on x86_64): the newest is
 * bpf_get_current_task_btf() (5.11); the ring buffer came in 5.8, fexit in
 * 5.5.  bpf_task_pt_regs() (5.15) and task->thread_info.cpu (5.16) have
 * fallbacks in the program (CO-RE).
 */
static const struct {
	const char *enum_name, *value, *what;
} kernel_needs[] = {
	{ "bpf_map_type", "BPF_MAP_TYPE_RINGBUF", "the BPF ring buffer (Linux 5.8)" },
	{ "bpf_func_id", "BPF_FUNC_get_current_task_btf",
	  "bpf_get_current_task_btf() (Linux 5.11)" },
	{ "bpf_func_id", "BPF_FUNC_get_stack", "bpf_get_stack() (Linux 4.18)" },
	{ "bpf_func_id", "BPF_FUNC_probe_read_kernel", "bpf_probe_read_kernel() (Linux 5.5)" },
};

static bool btf_has_enum_value(const struct btf *btf, const char *enum_name, const char *value)
{
	const struct btf_enum *v;
	const struct btf_type *t;
	int id, i;

	id = btf__find_by_name_kind(btf, enum_name, BTF_KIND_ENUM);
	if (id < 0)
		return false;
	t = btf__type_by_id(btf, id);
	v = btf_enum(t);
	for (i = 0; i < btf_vlen(t); i++)
		if (!strcmp(btf__name_by_offset(btf, v[i].name_off), value))
			return true;
	return false;
}

static int check_kernel_needs(const struct btf *btf)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kernel_needs); i++) {
		if (btf_has_enum_value(btf, kernel_needs[i].enum_name, kernel_needs[i].value))
			continue;
		fprintf(stderr, "capaudit: this kernel lacks %s: capaudit needs Linux 5.11 or "
				"later on x86_64\n",
			kernel_needs[i].what);
		return -ENOTSUP;
	}
	return 0;
}

/*
 * cap_capable()'s BTF id, once its fourth argument is "opts" (CAP_OPT_*
 * bits, commit c1a85a00ea66 "LSM: generalize flag passing to
 * security_capable", 5.1): what the program decodes.
 */
static int probe_cap_capable(const struct btf *btf)
{
	const struct btf_param *params;
	const struct btf_type *t;
	const char *name;
	int id;

	id = btf__find_by_name_kind(btf, "cap_capable", BTF_KIND_FUNC);
	if (id < 0) {
		fprintf(stderr, "capaudit: the kernel has no cap_capable() in its BTF: capaudit "
				"needs the commoncap LSM (CONFIG_SECURITY, the default)\n");
		return -ENOENT;
	}
	t = btf__type_by_id(btf, btf__type_by_id(btf, id)->type);
	if (!t || !btf_is_func_proto(t) || btf_vlen(t) < 4) {
		fprintf(stderr, "capaudit: cap_capable() in this kernel's BTF does not take 4 "
				"arguments: this kernel is not supported\n");
		return -ENOTSUP;
	}
	params = btf_params(t);
	name = btf__name_by_offset(btf, params[3].name_off);
	if (!name || strcmp(name, "opts")) {
		fprintf(stderr, "capaudit: cap_capable()'s fourth argument is '%s', not 'opts': "
				"capaudit needs Linux 5.11 or later\n",
			name ? name : "?");
		return -ENOTSUP;
	}
	return id;
}

/* Can a BTF trampoline attach to the function with this BTF id? */
static bool fexit_can_attach(int btf_id)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_TRACE_FEXIT,
		    .attach_btf_id = btf_id);
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int prog_fd, link_fd;

	prog_fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, NULL, "GPL", insns, 2, &opts);
	if (prog_fd < 0)
		return false;
	link_fd = bpf_raw_tracepoint_open(NULL, prog_fd);
	close(prog_fd);
	if (link_fd < 0)
		return false;
	close(link_fd);
	return true;
}

int loader__check_btf(const struct btf *btf)
{
	int err = check_kernel_needs(btf);

	return err ? err : probe_cap_capable(btf);
}

/* Decides fexit or kprobe, once the kernel has what the program needs. */
static int probe_kernel(const struct loader_opts *opts, struct loader *l)
{
	struct btf *btf;
	int id;

	btf = btf__load_vmlinux_btf();
	if (!btf) {
		fprintf(stderr, "capaudit: the kernel has no BTF (/sys/kernel/btf/vmlinux): "
				"capaudit needs a kernel built with CONFIG_DEBUG_INFO_BTF=y (the "
				"program reads the kernel's structures by their BTF types)\n");
		return -ENOENT;
	}
	id = loader__check_btf(btf);
	btf__free(btf);
	if (id < 0)
		return id;
	switch (opts->attach) {
	case LOADER_ATTACH_KPROBE:
		l->kprobe = true;
		break;
	case LOADER_ATTACH_FEXIT:
		l->kprobe = false;
		break;
	default:
		l->kprobe = !fexit_can_attach(id);
		if (l->kprobe)
			fprintf(stderr, "capaudit: no BPF trampoline for cap_capable on this kernel: "
					"using kprobe + kretprobe\n");
	}
	return 0;
}

static int set_cgroup_filter(struct loader *l, const char *path)
{
	__u32 zero = 0;

	l->cgroup_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (l->cgroup_fd < 0) {
		fprintf(stderr, "capaudit: cannot open cgroup %s: %s (give a cgroup v2 directory, "
				"e.g. /sys/fs/cgroup/system.slice)\n",
			path, strerror(errno));
		return -errno;
	}
	if (bpf_map_update_elem(bpf_map__fd(l->skel->maps.cgroup_map), &zero, &l->cgroup_fd,
				BPF_ANY)) {
		fprintf(stderr, "capaudit: cannot use cgroup %s as a filter: %s\n", path,
			strerror(errno));
		return -errno;
	}
	return 0;
}

static void set_rodata(struct capaudit_bpf *skel, const struct loader_opts *opts)
{
	skel->rodata->targ_tgid = opts->tgid;
	skel->rodata->targ_caps_mask = opts->caps_mask;
	skel->rodata->targ_filter_cgroup = opts->cgroup_path != NULL;
	skel->rodata->targ_denied_only = opts->denied_only;
	skel->rodata->targ_audit_only = opts->audit_only;
	skel->rodata->targ_kernel_stack = opts->kernel_stack;
	skel->rodata->targ_user_stack = opts->user_stack;
	skel->rodata->targ_mode = opts->mode;
	if (opts->sample_every)
		skel->rodata->targ_sample_every = opts->sample_every;
	skel->rodata->targ_nr_setup =
		spawners__find((struct capaudit_setup_exe *)skel->rodata->targ_setup,
			       CAPAUDIT_SETUP_EXES);
}

/* kprobe fallback: entries count from now on (see armed_ns in the BPF program) */
static void arm(struct capaudit_bpf *skel)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	skel->bss->armed_ns = ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* One row of "counts" and one entry of cpus[] per possible CPU */
static int size_per_cpu(struct loader *l)
{
	l->ncpus = libbpf_num_possible_cpus();
	if (l->ncpus < 0) {
		fprintf(stderr, "capaudit: cannot read the possible CPUs "
				"(/sys/devices/system/cpu/possible): %s\n",
			strerror(-l->ncpus));
		return l->ncpus;
	}
	if (l->ncpus > CAPAUDIT_MAX_CPUS) {
		fprintf(stderr, "capaudit: this machine has %d possible CPUs; capaudit is built "
				"for at most %d: rebuild it with a larger CAPAUDIT_MAX_CPUS "
				"(bpf/capaudit.h)\n",
			l->ncpus, CAPAUDIT_MAX_CPUS);
		return -E2BIG;
	}
	return bpf_map__set_max_entries(l->skel->maps.counts,
					(__u32)l->ncpus * CAPAUDIT_COUNT_KEYS);
}

static int map_counts(struct loader *l)
{
	long page = sysconf(_SC_PAGESIZE);

	l->counts_len = (size_t)l->ncpus * CAPAUDIT_COUNT_KEYS * sizeof(__u64);
	l->counts_len = (l->counts_len + page - 1) / page * page;
	l->counts = mmap(NULL, l->counts_len, PROT_READ, MAP_SHARED,
			 bpf_map__fd(l->skel->maps.counts), 0);
	if (l->counts == MAP_FAILED) {
		int err = -errno;

		l->counts = NULL;
		fprintf(stderr, "capaudit: cannot map the BPF counts: %s\n", strerror(-err));
		return err;
	}
	return 0;
}

/*
 * A kprobe is attached through perf_event_open(), and Debian's kernels
 * (CONFIG_SECURITY_PERF_EVENTS_RESTRICT, kernel.perf_event_paranoid=3)
 * allow that to CAP_SYS_ADMIN only, whatever CAP_PERFMON says.
 */
static void explain_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int level = 0;

	if (!f)
		return;
	if (fscanf(f, "%d", &level) != 1)
		level = 0;
	fclose(f);
	if (level <= 2)
		return;
	fprintf(stderr,
		"capaudit: the kprobe fallback opens a perf event, and with "
		"kernel.perf_event_paranoid=%d (Debian's default) only CAP_SYS_ADMIN may: set "
		"kernel.perf_event_paranoid=2 to let CAP_PERFMON do it, or use fexit (a kernel "
		"with BPF trampolines needs only CAP_BPF and CAP_PERFMON)\n",
		level);
}

static int load_and_attach(struct loader *l, const struct loader_opts *opts)
{
	struct capaudit_bpf *skel = l->skel;
	int err;

	err = size_per_cpu(l);
	if (err)
		return err;
	bpf_program__set_autoload(skel->progs.capaudit_fexit, !l->kprobe);
	bpf_program__set_autoload(skel->progs.capaudit_kprobe, l->kprobe);
	bpf_program__set_autoload(skel->progs.capaudit_kretprobe, l->kprobe);
	if (opts->ringbuf_bytes)
		bpf_map__set_max_entries(skel->maps.events, opts->ringbuf_bytes);
	err = capaudit_bpf__load(skel);
	if (err) {
		fprintf(stderr, "capaudit: cannot load the BPF program: %s\n", strerror(-err));
		print_log_tail(20);
		return err;
	}
	err = map_counts(l);
	if (err)
		return err;
	if (opts->cgroup_path) {
		err = set_cgroup_filter(l, opts->cgroup_path);
		if (err)
			return err;
	}
	err = capaudit_bpf__attach(skel);
	if (!err)
		arm(skel);
	if (err) {
		fprintf(stderr, "capaudit: cannot attach to cap_capable: %s%s\n", strerror(-err),
			err == -EPERM ? " (needs CAP_BPF and CAP_PERFMON)" : "");
		if (l->kprobe && (err == -EPERM || err == -EACCES))
			explain_paranoid();
		print_log_tail(10);
	}
	return err;
}

int loader__start(const struct loader_opts *opts, struct loader **ret_loader)
{
	struct loader *l;
	int err;

	libbpf_verbose = opts->verbose;
	libbpf_set_print(libbpf_print);
	err = check_privileges();
	if (err)
		return err;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->cgroup_fd = -1;
	err = probe_kernel(opts, l);
	if (err)
		goto out_free_loader;
	l->skel = capaudit_bpf__open();
	if (!l->skel) {
		err = -errno;
		fprintf(stderr, "capaudit: cannot open the BPF object: %s\n", strerror(errno));
		goto out_free_loader;
	}
	set_rodata(l->skel, opts);
	/* at the kretprobe the checked frame is gone: key by the entry's stack */
	if (l->kprobe && opts->mode == CAPAUDIT_MODE_COUNT)
		l->skel->rodata->targ_mode = CAPAUDIT_MODE_COUNT_STACK;
	err = load_and_attach(l, opts);
	if (err)
		goto out_free_loader;
	*ret_loader = l;
	return 0;

out_free_loader:
	loader__free(l);
	return err;
}

void loader__free(struct loader *l)
{
	if (!l)
		return;
	if (l->counts)
		munmap(l->counts, l->counts_len);
	capaudit_bpf__destroy(l->skel);
	if (l->cgroup_fd >= 0)
		close(l->cgroup_fd);
	free(l);
}

void loader__detach(struct loader *l)
{
	capaudit_bpf__detach(l->skel);
}

int loader__events_fd(const struct loader *l)
{
	return bpf_map__fd(l->skel->maps.events);
}

int loader__stacks_fd(const struct loader *l)
{
	return bpf_map__fd(l->skel->maps.stacks);
}

void loader__kcounts_maps(const struct loader *l, struct kcounts_maps *ret_maps)
{
	ret_maps->counts = l->counts;
	ret_maps->ncpus = l->ncpus;
	ret_maps->hops_fd = bpf_map__fd(l->skel->maps.hops);
	ret_maps->sites_gen = &l->skel->bss->sites_gen;
	ret_maps->site_start = &l->skel->bss->site_start;
}

__u32 loader__mode(const struct loader *l)
{
	return l->skel->rodata->targ_mode;
}

const char *loader__attach_name(const struct loader *l)
{
	return l->kprobe ? "kprobe" : "fexit";
}

/*
 * Checks for which the kernel did not run a program of ours: a
 * recursion_misses count per program (5.12+; 0 where the field is not
 * there), as bpftool prog show reports it.
 */
static __u64 loader__recursion_misses(const struct loader *l)
{
	struct bpf_program *progs[] = { l->skel->progs.capaudit_fexit,
					l->skel->progs.capaudit_kprobe,
					l->skel->progs.capaudit_kretprobe };
	struct bpf_prog_info info;
	__u32 len;
	__u64 n = 0;
	size_t i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(progs); i++) {
		fd = bpf_program__fd(progs[i]);
		if (fd < 0)
			continue;	/* not loaded: the other attach mode */
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (!bpf_obj_get_info_by_fd(fd, &info, &len))
			n += info.recursion_misses;
	}
	return n;
}

int loader__read_counters(const struct loader *l, __u64 *ret_counts)
{
	const volatile struct capaudit_cpu *cpus = l->skel->bss->cpus;
	int cpu, i;

	for (i = 0; i < CAPAUDIT_CNT_NR; i++) {
		ret_counts[i] = 0;
		for (cpu = 0; cpu < l->ncpus; cpu++)
			ret_counts[i] += cpus[cpu].cnt[i];
	}
	ret_counts[CAPAUDIT_CNT_MISSED] = loader__recursion_misses(l);
	return 0;
}

void loader__format_summary(const __u64 *cnt, __u64 delivered, const char *extra, char *buf,
			    size_t size)
{
	snprintf(buf, size,
		 "capaudit: %llu checks seen in the kernel, %llu delivered, %llu lost "
		 "(ring buffer full: %llu); %llu missed (the kernel did not run the program: "
		 "recursion); %llu without a stack; %llu entry/exit mismatches%s",
		 (unsigned long long)cnt[CAPAUDIT_CNT_SEEN], (unsigned long long)delivered,
		 (unsigned long long)cnt[CAPAUDIT_CNT_LOST_RINGBUF],
		 (unsigned long long)cnt[CAPAUDIT_CNT_LOST_RINGBUF],
		 (unsigned long long)cnt[CAPAUDIT_CNT_MISSED],
		 (unsigned long long)cnt[CAPAUDIT_CNT_LOST_STACK],
		 (unsigned long long)cnt[CAPAUDIT_CNT_MISMATCH], extra);
}

void loader__print_summary(const struct loader *l, __u64 delivered, const char *extra)
{
	__u64 cnt[CAPAUDIT_CNT_NR] = {};
	char line[640];

	loader__read_counters(l, cnt);
	loader__format_summary(cnt, delivered, extra, line, sizeof(line));
	fprintf(stderr, "%s\n", line);
}

int loader__read_stack(const struct loader *l, __u32 stack_id, __u64 *ips)
{
	int n;

	memset(ips, 0, CAPAUDIT_MAX_STACK * sizeof(*ips));
	if (bpf_map_lookup_elem(loader__stacks_fd(l), &stack_id, ips))
		return -errno;
	for (n = 0; n < CAPAUDIT_MAX_STACK && ips[n]; n++)
		;
	return n;
}
