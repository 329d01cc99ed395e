/* SPDX-License-Identifier: GPL-2.0 */
/* capnames.h: capability numbers to names and back, from libcap's table. */
#ifndef CAPAUDIT_CAPNAMES_H
#define CAPAUDIT_CAPNAMES_H

#include <stddef.h>
#include <linux/types.h>

#define CAPNAMES_MAX	64	/* capability bits in a __u64 mask */
#define CAPNAMES_BUF_LEN 16	/* room for "CAP_<n>" with any unsigned int */

/*
 * "CAP_SYS_ADMIN" (a static string), or "CAP_<n>" written into buf when
 * libcap has no name for cap (a kernel newer than libcap).  NULL when a
 * name is needed and buf is NULL or size 0.
 */
const char *capnames__name(unsigned int cap, char *buf, size_t size);

/*
 * "CAP_SYS_ADMIN", "cap_sys_admin", "sys_admin" (any case), "CAP_21" or "21"
 * -> 0 and the number in ret_cap.  -EINVAL for an unknown name, -ERANGE for
 * a number >= CAPNAMES_MAX.
 */
int capnames__parse(const char *name, unsigned int *ret_cap);

/*
 * "CAP_SYS_ADMIN,net_admin, 12" -> bitmask of those capabilities.  Blanks
 * around names are ignored; an empty list or empty element is -EINVAL; an
 * error from capnames__parse() is returned as is.
 */
int capnames__parse_list(const char *list, __u64 *ret_mask);

#endif /* CAPAUDIT_CAPNAMES_H */
