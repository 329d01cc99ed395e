// SPDX-License-Identifier: GPL-2.0
/* test_callsite.c: unit tests of callsite.c on synthetic stacks over tests/fixtures/kallsyms/callsite.txt. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "array_size.h"
#include "fixture.h"
#include "callsite.h"

/* Addresses in callsite.txt, plus an offset into each function */
#define CAP_CAPABLE		0xffffffff81100005UL
#define SECURITY_CAPABLE	0xffffffff81100130UL
#define NS_CAPABLE_COMMON	0xffffffff81100210UL	/* .constprop.0 */
#define NS_CAPABLE		0xffffffff81100308UL
#define CAPABLE			0xffffffff81100408UL
#define __NETLINK_NS_CAPABLE	0xffffffff81100510UL
#define NETLINK_NS_CAPABLE	0xffffffff81100610UL
#define SK_NS_CAPABLE		0xffffffff81100710UL
#define HAS_NS_CAP_NOAUDIT	0xffffffff81100810UL
#define FILE_NS_CAPABLE		0xffffffff81100910UL	/* .isra.0 */
#define NS_CAP_OR_SYS_ADMIN	0xffffffff81100a10UL
#define DO_SYS_SETHOSTNAME	0xffffffff81200040UL
#define BPF_PROG_LOAD		0xffffffff81200140UL
#define DO_SYSCALL_64		0xffffffff81200230UL
#define SETHOSTNAME_COLD	0xffffffff81200310UL
#define BPF_PROG		0xffffffffc0100020UL
#define BPF_TRAMPOLINE		0xffffffffc0101040UL
#define BPF_DISPATCHER		0xffffffffc0102010UL
#define UNKNOWN			0x1000UL	/* before the first symbol */

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const char *fixture(const char *name)
{
	return fixture_path("kallsyms", name);
}

static int setup(void **state)
{
	struct ksyms *ksyms = NULL;

	if (ksyms__load(fixture("callsite.txt"), &ksyms))
		return -1;
	*state = ksyms;
	return 0;
}

static int teardown(void **state)
{
	ksyms__free(*state);
	return 0;
}

static void test_wrapper_names(void **state)
{
	static const char *const wrappers[] = {
		"cap_capable", "security_capable", "capable", "ns_capable",
		"ns_capable_noaudit", "ns_capable_setid", "ns_capable_common",
		"has_capability", "has_ns_capability", "has_capability_noaudit",
		"has_ns_capability_noaudit", "file_ns_capable", "capable_wrt_inode_uidgid",
		"privileged_wrt_inode_uidgid", "ptracer_capable", "sk_capable",
		"sk_ns_capable", "sk_net_capable", "netlink_capable", "netlink_ns_capable",
		"netlink_net_capable", "__netlink_ns_capable", "sockopt_ns_capable",
		"sockopt_capable", "perfmon_capable", "bpf_capable",
		"checkpoint_restore_ns_capable", "checkpoint_restore_ns_capable_noaudit",
		"capable_or_sys_admin", "ns_capable_or_sys_admin",
		"__ns_capable_or_sys_admin", "__capable_or_sys_admin",
		/* compiler suffixes */
		"ns_capable_common.constprop.0", "file_ns_capable.isra.0",
		"security_capable.part.0", "cap_capable.cold",
		"ns_capable_common.constprop.0.isra.0", "capable.llvm.12345",
		/* BPF frames, as 6.1 names them */
		"bpf_prog_6deef7357e7b4530", "bpf_prog_6deef7357e7b4530_handler",
		"bpf_prog_0123456789abcdef_F", "bpf_trampoline_6442453466",
		"bpf_trampoline_0", "bpf_dispatcher_xdp",
		/* two tracers on one function: an ftrace ops trampoline calls them */
		"ftrace_trampoline",
	};
	static const char *const others[] = {
		"", "_", "__", ".", ".isra.0", "__do_sys_sethostname", "sethostname.cold",
		"do_syscall_64", "capable_foo", "security_capable_x", "ns_capable2",
		"cap_capable_", "capset", "cap_task_prctl", "bpf_prog_load",
		"bpf_prog_run", "bpf_prog_6deef7357e7b453", "bpf_prog_6deef7357e7b453g_x",
		"bpf_prog_6deef7357e7b4530x", "bpf_trampoline_link_prog",
		"bpf_trampoline_", "bpf_trampoline_12a", "bpf_dispatcher_", "xbpf_prog_6deef7357e7b4530",
		"perf_event_open", "may_setgroups", "netlink_rcv_skb", "ftrace_trampoline_x",
	};
	char long_name[700];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(wrappers); i++)
		if (!callsite__is_wrapper(wrappers[i]))
			fail_msg("%s should be a wrapper", wrappers[i]);
	for (i = 0; i < ARRAY_SIZE(others); i++)
		if (callsite__is_wrapper(others[i]))
			fail_msg("%s should not be a wrapper", others[i]);
	assert_false(callsite__is_wrapper(NULL));
	/* longer than any kernel symbol: never a wrapper, never an overflow */
	memset(long_name, 'a', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	memcpy(long_name + sizeof(long_name) - 1 - strlen("capable_or_sys_admin"),
	       "capable_or_sys_admin", strlen("capable_or_sys_admin"));
	assert_false(callsite__is_wrapper(long_name));
}

/* fentry on cap_capable: the program and its trampoline are innermost */
static void test_fentry_stack(void **state)
{
	const __u64 ips[] = {
		BPF_PROG, BPF_TRAMPOLINE, CAP_CAPABLE, SECURITY_CAPABLE, NS_CAPABLE_COMMON,
		CAPABLE, DO_SYS_SETHOSTNAME, DO_SYSCALL_64,
	};

	assert_int_equal(callsite__find(*state, ips, N(ips)), 6);
}

static void test_kprobe_stack(void **state)
{
	const __u64 ips[] = {
		CAP_CAPABLE, SECURITY_CAPABLE, NS_CAPABLE_COMMON, NS_CAPABLE,
		SETHOSTNAME_COLD, DO_SYSCALL_64,
	};

	assert_int_equal(callsite__find(*state, ips, N(ips)), 4);
}

static void test_innermost_not_wrapper(void **state)
{
	const __u64 ips[] = { DO_SYS_SETHOSTNAME, CAP_CAPABLE };

	assert_int_equal(callsite__find(*state, ips, N(ips)), 0);
}

static void test_other_wrappers(void **state)
{
	const __u64 netlink[] = {
		BPF_DISPATCHER, CAP_CAPABLE, SECURITY_CAPABLE, NS_CAPABLE_COMMON, NS_CAPABLE,
		__NETLINK_NS_CAPABLE, NETLINK_NS_CAPABLE, DO_SYSCALL_64,
	};
	const __u64 mixed[] = {
		CAP_CAPABLE, SECURITY_CAPABLE, HAS_NS_CAP_NOAUDIT, SK_NS_CAPABLE,
		FILE_NS_CAPABLE, NS_CAP_OR_SYS_ADMIN, BPF_PROG_LOAD, DO_SYSCALL_64,
	};

	assert_int_equal(callsite__find(*state, netlink, N(netlink)), 7);
	/* bpf_prog_load() is a call site, not a BPF program frame */
	assert_int_equal(callsite__find(*state, mixed, N(mixed)), 6);
}

static void test_all_wrappers(void **state)
{
	const __u64 ips[] = {
		BPF_PROG, BPF_TRAMPOLINE, CAP_CAPABLE, SECURITY_CAPABLE, NS_CAPABLE_COMMON,
		CAPABLE,
	};
	const __u64 longer[] = { CAP_CAPABLE, SECURITY_CAPABLE, DO_SYS_SETHOSTNAME };

	assert_int_equal(callsite__find(*state, ips, N(ips)), -ENOENT);
	/* nr_ips bounds the walk: the caller past it is not read */
	assert_int_equal(callsite__find(*state, longer, 2), -ENOENT);
	assert_int_equal(callsite__find(*state, longer, 3), 2);
}

static void test_unknown_frames(void **state)
{
	const __u64 first[] = { UNKNOWN, CAP_CAPABLE, DO_SYS_SETHOSTNAME };
	const __u64 middle[] = { CAP_CAPABLE, SECURITY_CAPABLE, UNKNOWN, DO_SYS_SETHOSTNAME };
	const __u64 past_end[] = { CAP_CAPABLE, 0xffffffffc0102000UL + KSYMS_LAST_SYM_MAX_SIZE };

	assert_int_equal(callsite__find(*state, first, N(first)), 0);
	assert_int_equal(callsite__find(*state, middle, N(middle)), 2);
	assert_int_equal(callsite__find(*state, past_end, N(past_end)), 1);
	/* no symbol table at all: every frame is unknown */
	assert_int_equal(callsite__find(NULL, middle, N(middle)), 0);
}

/* The stack map pads a short stack with zeros */
static void test_zero_padding(void **state)
{
	const __u64 ips[8] = { CAP_CAPABLE, SECURITY_CAPABLE, 0, DO_SYS_SETHOSTNAME };

	assert_int_equal(callsite__find(*state, ips, N(ips)), -ENOENT);
}

static void test_bad_args(void **state)
{
	const __u64 ips[] = { DO_SYS_SETHOSTNAME };

	assert_int_equal(callsite__find(*state, ips, 0), -ENOENT);
	assert_int_equal(callsite__find(*state, NULL, 0), -ENOENT);
	assert_int_equal(callsite__find(*state, ips, -1), -EINVAL);
	assert_int_equal(callsite__find(*state, NULL, 3), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wrapper_names),
		cmocka_unit_test(test_fentry_stack),
		cmocka_unit_test(test_kprobe_stack),
		cmocka_unit_test(test_innermost_not_wrapper),
		cmocka_unit_test(test_other_wrappers),
		cmocka_unit_test(test_all_wrappers),
		cmocka_unit_test(test_unknown_frames),
		cmocka_unit_test(test_zero_padding),
		cmocka_unit_test(test_bad_args),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
