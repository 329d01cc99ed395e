/* SPDX-License-Identifier: GPL-2.0 */
/*
 * array_size.h: ARRAY_SIZE() as the kernel has it (<linux/array_size.h>):
 * the number of elements of an array, and a build error when given a
 * pointer instead.
 */
#ifndef CAPAUDIT_ARRAY_SIZE_H
#define CAPAUDIT_ARRAY_SIZE_H

/* 0, or a build error when e is true */
#define CAPAUDIT_BUILD_BUG_ON_ZERO(e) ((int)(sizeof(struct { int:(-!!(e)); })))

/* 0 for an array, a build error for a pointer */
#define CAPAUDIT_MUST_BE_ARRAY(a) \
	CAPAUDIT_BUILD_BUG_ON_ZERO(__builtin_types_compatible_p(typeof(a), typeof(&(a)[0])))

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]) + CAPAUDIT_MUST_BE_ARRAY(arr))
#endif

#endif
