// SPDX-License-Identifier: GPL-2.0
/* Fixture: every way a CAP_ name can appear without being a use. CAP_SYS_ADMIN */
#include <linux/capability.h>

#define ADMIN_CAP CAP_SYS_ADMIN		/* a use: the macro's body */

// CAP_NET_ADMIN in a line comment \
   CAP_NET_ADMIN continued on the next line

static const char *msg = "needs CAP_SYS_ADMIN \" CAP_NET_ADMIN";
static const char quote = '"';
static const char apos = '\'';

static int admin_ok(void)
{
	/* CAP_SYS_ADMIN
	 * CAP_NET_ADMIN */
	return capable(ADMIN_CAP);	/* not a use: a macro */
}

int set_owner(struct inode *inode)
{
	if (!capable(CAP_CHOWN))	/* line 23 */
		return -EPERM;
	return CAP_SYS_ADMINX + xCAP_SYS_ADMIN + CAP_UNKNOWN + CAP_LAST_CAP;
}

SYSCALL_DEFINE2(fixture, int, a, int, b)
{
	char c = 'C';

	if (!ns_capable(current_user_ns(),
			CAP_NET_ADMIN) && c == '\\')	/* line 33 */
		return -EPERM;
	return has_capability_noaudit(current, CAP_SYS_RESOURCE) ? 0 :	/* line 35 */
	       cap_raise_fixture(CAP_DAC_OVERRIDE);	/* line 36: no helper */
}

static const int table[] = {
	CAP_SYS_ADMIN,	/* line 40 */
};

#ifdef CONFIG_A
static int twice(int a)
{
#else
static int twice(long a)
{
#endif
	return perfmon_capable() || capable(CAP_SYS_ADMIN);	/* line 50 */
}

int after_twice(void)
{
	return capable(CAP_NET_ADMIN);	/* line 55 */
}
