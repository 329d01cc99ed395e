/* SPDX-License-Identifier: GPL-2.0 */
/* srcscan_int.h: what srcwalk.c (the tree walker) needs of srcscan.c. */
#ifndef CAPAUDIT_SRCSCAN_INT_H
#define CAPAUDIT_SRCSCAN_INT_H

#include "srcscan.h"

/* Counts one scanned file of @bytes bytes (scanned or found free of uses). */
void srcscan__count_file(struct srcscan *s, unsigned long long bytes);

/* Moves everything @src found into @dst; @src is empty afterwards. */
int srcscan__merge(struct srcscan *dst, struct srcscan *src);

#endif
