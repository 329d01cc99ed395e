// SPDX-License-Identifier: GPL-2.0
/*
 * capop: perform one privileged operation, with fixed arguments, whose
 * capability check the kernel/patches series moves off CAP_SYS_ADMIN (or
 * that the historic splits moved).  The guest tests start it with exactly
 * the capabilities they name (tests/vm/lib/caps.sh).
 *
 *   capop OPERATION
 *
 * Exit status: 0 the operation succeeded, 1 the kernel denied it (the errno
 * name is printed: EPERM or EACCES, ENFILE for file-max, "hidden" when
 * /proc/iomem shows zeros), 2 any other failure.  Operations that change
 * state write back the value they read, so running one changes nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/keyctl.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "array_size.h"

#ifndef MADV_SOFT_OFFLINE
#define MADV_SOFT_OFFLINE 101
#endif

#define SYSLOG_ACTION_CLEAR 5
#define SETPERM_KEY_DESC "capop-setperm"
#define KEY_PERM_ALL 0x3f3f3f3f	/* possessor, user, group, other: all */
#define NOBODY 65534

struct op {
	const char *name;
	int (*run)(void);
	const char *help;
};

/* Read a small /proc file into buf (NUL-terminated); bytes read or -errno. */
static ssize_t read_file(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	err = errno;
	close(fd);
	if (n < 0)
		return -err;
	buf[n] = '\0';
	return n;
}

/* Write buf to a /proc file in one write(2); 0 or -errno. */
static int write_file(const char *path, const char *buf, size_t len)
{
	ssize_t n;
	int fd, err;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	err = errno;
	close(fd);
	if (n < 0)
		return -err;
	return (size_t)n == len ? 0 : -EIO;
}

/* Write a sysctl's current value back to it: only the permission matters. */
static int rewrite_sysctl(const char *path)
{
	char buf[512];
	ssize_t n;

	n = read_file(path, buf, sizeof(buf));
	if (n < 0)
		return n;
	return write_file(path, buf, n);
}

static int op_syslog_clear(void)
{
	return klogctl(SYSLOG_ACTION_CLEAR, NULL, 0) < 0 ? -errno : 0;
}

/* PR_SET_MM_AUXV with the auxiliary vector the task already has. */
static int op_pr_set_mm(void)
{
	unsigned long auxv[128];
	ssize_t n;

	n = read_file("/proc/self/auxv", (char *)auxv, sizeof(auxv));
	if (n < 0)
		return n;
	n -= n % (2 * sizeof(unsigned long));
	if (prctl(PR_SET_MM, PR_SET_MM_AUXV, (unsigned long)auxv, n, 0) < 0)
		return -errno;
	return 0;
}

static int op_write_dmesg_restrict(void)
{
	return rewrite_sysctl("/proc/sys/kernel/dmesg_restrict");
}

static int op_write_kptr_restrict(void)
{
	return rewrite_sysctl("/proc/sys/kernel/kptr_restrict");
}

static int op_write_actions_logged(void)
{
	return rewrite_sysctl("/proc/sys/kernel/seccomp/actions_logged");
}

/* 0 when /proc/iomem shows a non-zero address, -EACCES when all are zero. */
static int op_read_iomem(void)
{
	unsigned long long start, end;
	int real = 0, lines = 0;
	char line[256];
	FILE *f;

	f = fopen("/proc/iomem", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, " %llx-%llx", &start, &end) != 2)
			continue;
		lines++;
		if (start || end)
			real = 1;
	}
	fclose(f);
	if (!lines)
		return -ENODATA;
	printf("capop: read-iomem: %d lines, addresses %s\n", lines,
	       real ? "real" : "hidden");
	return real ? 0 : -EACCES;
}

static long add_key(const char *desc, int keyring)
{
	return syscall(SYS_add_key, "user", desc, "capop", 5, keyring);
}

static long keyctl(int cmd, unsigned long a2, unsigned long a3,
		   unsigned long a4)
{
	return syscall(SYS_keyctl, cmd, a2, a3, a4, 0UL);
}

/* A key of our own in the process keyring, given to nobody. */
static int op_keyctl_chown(void)
{
	long key;

	key = add_key("capop-chown", KEY_SPEC_PROCESS_KEYRING);
	if (key < 0)
		return -errno;
	if (keyctl(KEYCTL_CHOWN, key, NOBODY, (unsigned long)-1) < 0)
		return -errno;
	return 0;
}

/*
 * keyctl-setperm needs a key that someone else owns: setup (run with full
 * capabilities) leaves one owned by nobody, open to everyone, in root's
 * user keyring, where it stays until the guest shuts down.
 */
static int op_keyctl_setperm_setup(void)
{
	long key;

	key = add_key(SETPERM_KEY_DESC, KEY_SPEC_USER_KEYRING);
	if (key < 0)
		return -errno;
	if (keyctl(KEYCTL_SETPERM, key, KEY_PERM_ALL, 0) < 0)
		return -errno;
	if (keyctl(KEYCTL_CHOWN, key, NOBODY, (unsigned long)-1) < 0)
		return -errno;
	return 0;
}

static int op_keyctl_setperm(void)
{
	long key;

	key = syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING,
		      "user", SETPERM_KEY_DESC, 0);
	if (key < 0) {
		if (errno == ENOKEY)
			fprintf(stderr, "capop: keyctl-setperm: no key %s: run 'capop keyctl-setperm-setup' first\n",
				SETPERM_KEY_DESC);
		return -errno;
	}
	if (keyctl(KEYCTL_SETPERM, key, KEY_PERM_ALL, 0) < 0)
		return -errno;
	return 0;
}

static long read_ulong_file(const char *path)
{
	char buf[128];
	ssize_t n;

	n = read_file(path, buf, sizeof(buf));
	if (n < 0)
		return n;
	return strtol(buf, NULL, 10);
}

/*
 * Open /dev/null until the system holds more files than file-max, by a
 * margin larger than the per-CPU counter's error; -ENFILE when refused.
 * The test lowers file-max near the current count first.
 */
static int op_file_max(void)
{
	long max, nr, want, i, ncpu;
	struct rlimit rl;
	int err = 0;

	max = read_ulong_file("/proc/sys/fs/file-max");
	nr = read_ulong_file("/proc/sys/fs/file-nr");	/* first field */
	ncpu = sysconf(_SC_NPROCESSORS_CONF);
	if (max < 0 || nr < 0)
		return max < 0 ? max : nr;
	want = (max > nr ? max - nr : 0) + 64 + 64 * (ncpu > 0 ? ncpu : 1);
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return -errno;
	rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		return -errno;
	if ((rlim_t)want + 16 > rl.rlim_cur) {
		fprintf(stderr, "capop: file-max: would need %ld files, RLIMIT_NOFILE is %llu: lower /proc/sys/fs/file-max to near file-nr first\n",
			want, (unsigned long long)rl.rlim_cur);
		return -E2BIG;
	}
	for (i = 0; i < want; i++) {
		if (open("/dev/null", O_RDONLY) < 0) {
			err = -errno;
			break;
		}
	}
	printf("capop: file-max: max %ld, in use %ld, opened %ld of %ld\n",
	       max, nr, i, want);
	return err;	/* exit closes them */
}

/* A child that waits to be traced; killed with its parent. */
static pid_t spawn_tracee(int with_filter)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { .len = 1, .filter = &allow };
	int pfd[2];
	pid_t pid;
	char c;

	if (pipe(pfd) < 0)
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		close(pfd[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (with_filter &&
		    (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		     prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0))
			_exit(3);
		if (write(pfd[1], "r", 1) != 1)
			_exit(3);
		for (;;)
			pause();
	}
	close(pfd[1]);
	if (read(pfd[0], &c, 1) != 1) {
		close(pfd[0]);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -ECHILD;
	}
	close(pfd[0]);
	return pid;
}

static void reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, __WALL);
}

static int op_ptrace_suspend_seccomp(void)
{
	pid_t pid;
	int err = 0;

	pid = spawn_tracee(0);
	if (pid < 0)
		return pid;
	if (ptrace(PTRACE_SEIZE, pid, NULL, PTRACE_O_SUSPEND_SECCOMP) < 0)
		err = -errno;
	reap(pid);
	return err;
}

/* Seize a tracee with one seccomp filter and stop it; pid or -errno. */
static pid_t stopped_filtered_tracee(void)
{
	pid_t pid;
	int err;

	pid = spawn_tracee(1);
	if (pid < 0)
		return pid;
	if (ptrace(PTRACE_SEIZE, pid, NULL, 0) < 0 ||
	    ptrace(PTRACE_INTERRUPT, pid, NULL, NULL) < 0 ||
	    waitpid(pid, NULL, __WALL) != pid) {
		err = -errno;
		reap(pid);
		return err;
	}
	return pid;
}

static int op_seccomp_get_filter(void)
{
	pid_t pid;
	long len;
	int err = 0;

	pid = stopped_filtered_tracee();
	if (pid < 0)
		return pid;
	len = ptrace(PTRACE_SECCOMP_GET_FILTER, pid, 0, NULL);
	if (len < 0)
		err = -errno;
	else if (len != 1)
		err = -EPROTO;	/* the filter has one instruction */
	reap(pid);
	return err;
}

static int op_seccomp_get_metadata(void)
{
	struct __ptrace_seccomp_metadata md = { .filter_off = 0 };
	pid_t pid;
	int err = 0;

	pid = stopped_filtered_tracee();
	if (pid < 0)
		return pid;
	if (ptrace(PTRACE_SECCOMP_GET_METADATA, pid, sizeof(md), &md) < 0)
		err = -errno;
	reap(pid);
	return err;
}

/* Soft-offline (migrate away from) the page behind one anonymous page. */
static int op_madv_soft_offline(void)
{
	long pagesize = sysconf(_SC_PAGESIZE);
	int err = 0;
	char *p;

	p = mmap(NULL, pagesize, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	madvise(p, pagesize, MADV_NOHUGEPAGE);
	memset(p, 0x5a, pagesize);
	if (madvise(p, pagesize, MADV_SOFT_OFFLINE) < 0)
		err = -errno;
	munmap(p, pagesize);
	return err;
}

static const struct op ops[] = {
	{ "syslog-clear", op_syslog_clear, "syslog(SYSLOG_ACTION_CLEAR) (historic: CAP_SYSLOG)" },
	{ "pr-set-mm", op_pr_set_mm, "prctl(PR_SET_MM, PR_SET_MM_AUXV) with the current auxv (historic: CAP_SYS_RESOURCE)" },
	{ "write-dmesg-restrict", op_write_dmesg_restrict, "write kernel.dmesg_restrict's value back" },
	{ "write-kptr-restrict", op_write_kptr_restrict, "write kernel.kptr_restrict's value back" },
	{ "read-iomem", op_read_iomem, "read /proc/iomem, succeed when the addresses are real" },
	{ "keyctl-chown", op_keyctl_chown, "KEYCTL_CHOWN a new key of ours to nobody" },
	{ "keyctl-setperm-setup", op_keyctl_setperm_setup, "(full capabilities) leave a key owned by nobody in @u" },
	{ "keyctl-setperm", op_keyctl_setperm, "KEYCTL_SETPERM on that key" },
	{ "write-actions-logged", op_write_actions_logged, "write kernel.seccomp.actions_logged's value back" },
	{ "file-max", op_file_max, "open files past fs.file-max" },
	{ "ptrace-suspend-seccomp", op_ptrace_suspend_seccomp, "PTRACE_SEIZE a child with PTRACE_O_SUSPEND_SECCOMP" },
	{ "seccomp-get-filter", op_seccomp_get_filter, "PTRACE_SECCOMP_GET_FILTER on a filtered child" },
	{ "seccomp-get-metadata", op_seccomp_get_metadata, "PTRACE_SECCOMP_GET_METADATA on a filtered child" },
	{ "madv-soft-offline", op_madv_soft_offline, "madvise(MADV_SOFT_OFFLINE) on one page of ours" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: capop OPERATION\n");
	for (i = 0; i < ARRAY_SIZE(ops); i++)
		fprintf(f, "  %-24s %s\n", ops[i].name, ops[i].help);
	fprintf(f, "exit: 0 done, 1 denied (errno name printed), 2 other error\n");
}

static int is_denial(const struct op *op, int err)
{
	if (err == -EPERM || err == -EACCES)
		return 1;
	return op->run == op_file_max && err == -ENFILE;
}

int main(int argc, char **argv)
{
	const struct op *op = NULL;
	size_t i;
	int err;

	if (argc != 2) {
		usage(stderr);
		return 2;
	}
	for (i = 0; i < ARRAY_SIZE(ops); i++)
		if (!strcmp(argv[1], ops[i].name))
			op = &ops[i];
	if (!op) {
		if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
			usage(stdout);
			return 0;
		}
		fprintf(stderr, "capop: unknown operation '%s': run 'capop --help' for the list\n",
			argv[1]);
		return 2;
	}
	err = op->run();
	if (!err) {
		printf("capop: %s: ok\n", op->name);
		return 0;
	}
	if (is_denial(op, err)) {
		if (op->run == op_read_iomem)
			printf("capop: %s: hidden\n", op->name);
		else
			printf("capop: %s: %s\n", op->name, strerrorname_np(-err));
		return 1;
	}
	fprintf(stderr, "capop: %s: %s (%s)\n", op->name, strerror(-err),
		strerrorname_np(-err) ? strerrorname_np(-err) : "?");
	return 2;
}
