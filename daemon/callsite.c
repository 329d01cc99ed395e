// SPDX-License-Identifier: GPL-2.0
/*
 * callsite.c: the one list of capability wrappers, and the walk down a kernel
 * stack to the first frame that is not one of them: the call site a check is
 * counted under.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <string.h>

#include "array_size.h"
#include "callsite.h"

#define CALLSITE_NAME_MAX	512	/* KSYM_NAME_LEN in 6.1 */

/*
 * Functions that only pass a capability check on: the frame that called them
 * is the call site.  fnmatch(3) patterns, matched against the name without
 * its leading underscores and compiler suffix, so "netlink_*capable" covers
 * __netlink_ns_capable and "ns_capable_common" ns_capable_common.constprop.0.
 *
 * perfmon_capable(), bpf_capable() and checkpoint_restore_ns_capable*() are
 * static inline in 6.1 and never appear in a stack; if a kernel builds them
 * out of line they are skipped too, since they check a capability "or
 * CAP_SYS_ADMIN" for whoever calls them, and that caller is the use to split.
 * *capable_or_sys_admin* covers the helpers the capaudit kernel patches add.
 */
static const char *const wrapper_patterns[] = {
	"cap_capable",
	"security_capable",
	"capable",
	"ns_capable",
	"ns_capable_noaudit",
	"ns_capable_setid",
	"ns_capable_common",
	"has_*capability*",
	"file_ns_capable",
	"capable_wrt_inode_uidgid",
	"privileged_wrt_inode_uidgid",
	"ptracer_capable",
	"sk_*capable",
	"netlink_*capable",
	"sockopt_*capable",
	"perfmon_capable",
	"bpf_capable",
	"checkpoint_restore_ns_capable*",
	"*capable_or_sys_admin*",
};

#define N_WRAPPER_PATTERNS ARRAY_SIZE(wrapper_patterns)

static bool has_prefix(const char *s, const char *prefix, const char **ret_rest)
{
	size_t len = strlen(prefix);

	if (strncmp(s, prefix, len))
		return false;
	*ret_rest = s + len;
	return true;
}

/*
 * Frames of BPF code between cap_capable() and the probe, as 6.1 names them
 * in kallsyms (module "[bpf]"):
 *   bpf_prog_<16 hex digits of tag>[_<name>]  kernel/bpf/core.c, JITed programs
 *   bpf_trampoline_<key>                      kernel/bpf/trampoline.c, fentry/fexit
 *   bpf_dispatcher_<name>                     kernel/bpf/dispatcher.c
 * The exact forms keep kernel functions such as bpf_prog_load() and
 * bpf_trampoline_link_prog() out: they are real call sites.  Every
 * bpf_dispatcher_* function (bpf_dispatcher_xdp_func, _change_prog, ...) is
 * dispatcher machinery that checks no capability, so the prefix is enough.
 */
bool callsite__is_bpf_frame(const char *name)
{
	const char *rest;
	int i;

	if (has_prefix(name, "bpf_prog_", &rest)) {
		for (i = 0; i < 16; i++)
			if (!isxdigit((unsigned char)rest[i]))
				return false;
		return rest[16] == '\0' || rest[16] == '_';
	}
	if (has_prefix(name, "bpf_trampoline_", &rest))
		return *rest && strspn(rest, "0123456789") == strlen(rest);
	if (has_prefix(name, "bpf_dispatcher_", &rest))
		return *rest != '\0';
	/*
	 * With two tracers on cap_capable (trace and record at once), the BPF
	 * trampolines are called from an ftrace ops trampoline
	 * (arch/x86/kernel/ftrace.c names its pages "ftrace_trampoline").
	 */
	return !strcmp(name, "ftrace_trampoline");
}

bool callsite__is_wrapper(const char *func)
{
	char base[CALLSITE_NAME_MAX];
	size_t len, i;

	if (!func)
		return false;
	if (callsite__is_bpf_frame(func))
		return true;
	func += strspn(func, "_");
	len = strcspn(func, ".");
	if (!len || len >= sizeof(base))
		return false;
	memcpy(base, func, len);
	base[len] = '\0';
	for (i = 0; i < N_WRAPPER_PATTERNS; i++)
		if (!fnmatch(wrapper_patterns[i], base, 0))
			return true;
	return false;
}

int callsite__find(const struct ksyms *ksyms, const __u64 *ips, int nr_ips)
{
	const struct ksym *sym;
	int i;

	if (nr_ips < 0 || (!ips && nr_ips))
		return -EINVAL;
	for (i = 0; i < nr_ips && ips[i]; i++) {
		sym = ksyms__map_addr(ksyms, (unsigned long)ips[i]);
		if (!sym || !callsite__is_wrapper(sym->name))
			return i;
	}
	return -ENOENT;
}
