/* SPDX-License-Identifier: GPL-2.0 */
/* srcscan_int.h: what srcwalk.c (the tree walker) needs of srcscan.c. */
#ifndef CAPAUDIT_SRCSCAN_INT_H
#define CAPAUDIT_SRCSCAN_INT_H

#include "srcscan.h"

/* Counts one scanned file of @bytes bytes (scanned or found free of uses). */
void srcscan__count_file(struct srcscan *s, unsigned long long bytes);

/* Moves everything @src found into @dst; @src is empty afterwards. */
int srcscan__merge(struct srcscan *dst, struct srcscan *src);

/* Does the CPU have AVX2?  The scans use it unless told not to. */
int srcscan__cpu_avx2(void);
void srcscan__set_avx2(struct srcscan *s, int avx2);

/* Skip function bodies that hold no candidate (the default), or not (tests). */
void srcscan__set_skip(struct srcscan *s, int skip);

/*
 * The first "CAP_" or "capab" in [p, end), or @end: the only places a use or
 * a helper call can start.  32 bytes a step with AVX2, else 16 with SSE2.
 */
const char *srcscan__find_candidate(int avx2, const char *p, const char *end);

#endif
