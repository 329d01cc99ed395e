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
#include <stdbool.h>
#include <unistd.h>
#include <sys/prctl.h>

#include "privs.h"

static bool read_kept;	/* CAP_DAC_READ_SEARCH is in the permitted set */

/*
 * The bounding set but keep (-1: none), where allowed: without CAP_SETPCAP it
 * stays as it is
 */
static void drop_bounding(cap_value_t keep)
{
	cap_value_t c;

	if (!CAP_IS_SUPPORTED(CAP_SETPCAP))
		return;
	for (c = 0; c <= CAP_LAST_CAP; c++)
		if (c != keep && prctl(PR_CAPBSET_DROP, c, 0, 0, 0) && errno == EPERM)
			return;
}

static int drop(const char *who, bool keep_read)
{
	cap_value_t dac = CAP_DAC_READ_SEARCH;
	cap_flag_value_t had = CAP_CLEAR;
	cap_t none = cap_init(), cur;
	int err = 0;

	if (!none)
		return -errno;
	cur = keep_read && geteuid() ? cap_get_proc() : NULL;
	if (cur) {
		cap_get_flag(cur, dac, CAP_PERMITTED, &had);
		cap_free(cur);
	}
	if (had == CAP_SET)
		cap_set_flag(none, CAP_PERMITTED, 1, &dac, CAP_SET);
	drop_bounding(had == CAP_SET ? dac : -1);
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) && errno != EINVAL)
		err = -errno;
	if (!err && cap_set_proc(none))
		err = -errno;
	cap_free(none);
	if (err)
		fprintf(stderr, "capaudit %s: cannot drop capabilities after attaching: %s\n", who,
			strerror(-err));
	read_kept = !err && had == CAP_SET;
	return err;
}

int privs__drop_all(const char *who)
{
	return drop(who, false);
}

int privs__drop_all_but_read(const char *who)
{
	return drop(who, true);
}

static void set_read(cap_flag_value_t v)
{
	cap_value_t dac = CAP_DAC_READ_SEARCH;
	cap_t caps;

	if (!read_kept)
		return;
	caps = cap_get_proc();
	if (!caps)
		return;
	if (!cap_set_flag(caps, CAP_EFFECTIVE, 1, &dac, v))
		cap_set_proc(caps);
	cap_free(caps);
}

void privs__read_begin(void)
{
	set_read(CAP_SET);
}

void privs__read_end(void)
{
	set_read(CAP_CLEAR);
}
