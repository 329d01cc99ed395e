// SPDX-License-Identifier: GPL-2.0
/*
 * capstack.c: a guest-only test module that makes capability checks from
 * many distinct kernel stacks above one call site, for the benchmark's long
 * run (tests/bench/guest-bench) and the guest tests.  Never loaded on the
 * host: vm/run boots a guest that loads it.
 *
 * Writing a decimal PATH (0 .. 9999) to /sys/kernel/debug/capstack/check
 * makes one capable(CAP_SYS_ADMIN) check in capstack_leaf() after a chain
 * of CAPSTACK_LEVELS calls, one per decimal digit of PATH, each through
 * the function for that digit: the 10^4 paths are 10^4 distinct stacks
 * (the return addresses differ by the functions they lie in), and each has
 * the same depth and call site.  The write fails with EPERM when the check
 * is refused.
 */
#include <linux/capability.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#define CAPSTACK_LEVELS 4
#define CAPSTACK_PATHS 10000	/* 10^CAPSTACK_LEVELS */

static struct dentry *capstack_dir;
static volatile int capstack_digit;	/* what each digit's function stores */

static noinline int capstack_leaf(void)
{
	int ret = capable(CAP_SYS_ADMIN) ? 0 : -EPERM;

	barrier();	/* a call, not a jump: capstack_leaf stays in the stack */
	return ret;
}

static int capstack_step(unsigned int path, int level);

/*
 * One function per digit: its frame is what makes each path's stack its own.
 * The store of d keeps the ten bodies different, or the compiler folds them
 * into one function (-fipa-icf) and every path has the same stack.
 */
#define CAPSTACK_DIGIT(d)                                                \
	static noinline int capstack_digit##d(unsigned int path, int level) \
	{                                                                \
		int ret;                                                 \
									 \
		capstack_digit = d;                                      \
		ret = capstack_step(path / 10, level - 1);               \
		barrier();                                               \
		return ret;                                              \
	}

CAPSTACK_DIGIT(0)
CAPSTACK_DIGIT(1)
CAPSTACK_DIGIT(2)
CAPSTACK_DIGIT(3)
CAPSTACK_DIGIT(4)
CAPSTACK_DIGIT(5)
CAPSTACK_DIGIT(6)
CAPSTACK_DIGIT(7)
CAPSTACK_DIGIT(8)
CAPSTACK_DIGIT(9)

/* Direct calls, so that no indirect-branch thunk joins the stack */
static int capstack_step(unsigned int path, int level)
{
	if (!level)
		return capstack_leaf();
	switch (path % 10) {
	case 0: return capstack_digit0(path, level);
	case 1: return capstack_digit1(path, level);
	case 2: return capstack_digit2(path, level);
	case 3: return capstack_digit3(path, level);
	case 4: return capstack_digit4(path, level);
	case 5: return capstack_digit5(path, level);
	case 6: return capstack_digit6(path, level);
	case 7: return capstack_digit7(path, level);
	case 8: return capstack_digit8(path, level);
	default: return capstack_digit9(path, level);
	}
}

static ssize_t capstack_write(struct file *file, const char __user *buf, size_t len,
			      loff_t *ppos)
{
	unsigned int path;
	int err;

	err = kstrtouint_from_user(buf, len, 10, &path);
	if (err)
		return err;
	if (path >= CAPSTACK_PATHS)
		return -ERANGE;
	err = capstack_step(path, CAPSTACK_LEVELS);
	return err ? err : len;
}

static const struct file_operations capstack_fops = {
	.owner = THIS_MODULE,
	.write = capstack_write,
	.llseek = noop_llseek,
};

static int __init capstack_init(void)
{
	capstack_dir = debugfs_create_dir("capstack", NULL);
	if (IS_ERR(capstack_dir))
		return PTR_ERR(capstack_dir);
	debugfs_create_file("check", 0200, capstack_dir, NULL, &capstack_fops);
	return 0;
}

static void __exit capstack_exit(void)
{
	debugfs_remove_recursive(capstack_dir);
}

module_init(capstack_init);
module_exit(capstack_exit);
MODULE_DESCRIPTION("capaudit test: capability checks from 10^4 distinct stacks");
MODULE_LICENSE("GPL");
