/* SPDX-License-Identifier: GPL-2.0 */
/* A cut-down uapi capability header: five names, and what is not a name. */
#ifndef _UAPI_LINUX_CAPABILITY_H
#define _UAPI_LINUX_CAPABILITY_H

#define _LINUX_CAPABILITY_VERSION_3  0x20080522
#define VFS_CAP_REVISION_MASK	0xFF000000

/* In a system with the [_POSIX_CHOWN_RESTRICTED] option defined, this
   overrides the restriction of changing file ownership. */
#define CAP_CHOWN            0
#define CAP_DAC_OVERRIDE     1
#define CAP_NET_ADMIN        12
#define CAP_SYS_ADMIN        21
#define CAP_SYS_RESOURCE     (24)
#define CAP_LAST_CAP         CAP_SYS_RESOURCE
#define CAP_TO_INDEX(x)      ((x) >> 5)
#define CAP_TO_MASK(x)       (1U << ((x) & 31))
#define CAP_VALID_MASK       0x1ffffff
/* #define CAP_COMMENTED 30 */

#endif
