// SPDX-License-Identifier: GPL-2.0
/*
 * privs.c: drop every capability after attaching (see privs.h), so that a
 * bug in the code that parses the kernel's records, /proc and the store
 * runs with no privilege at all.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>

#include "privs.h"

/* The bounding set, where allowed: without CAP_SETPCAP it stays as it is */
static void drop_bounding(void)
{
	cap_value_t c;

	if (!CAP_IS_SUPPORTED(CAP_SETPCAP))
		return;
	for (c = 0; c <= CAP_LAST_CAP; c++)
		if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) && errno == EPERM)
			return;
}

int privs__drop_all(const char *who)
{
	cap_t none = cap_init();
	int err = 0;

	if (!none)
		return -errno;
	drop_bounding();
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) && errno != EINVAL)
		err = -errno;
	if (!err && cap_set_proc(none))
		err = -errno;
	cap_free(none);
	if (err)
		fprintf(stderr, "capaudit %s: cannot drop capabilities after attaching: %s\n", who,
			strerror(-err));
	return err;
}
