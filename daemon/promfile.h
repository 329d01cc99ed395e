/* SPDX-License-Identifier: GPL-2.0 */
/*
 * promfile.h: the store's totals as a Prometheus text file for
 * node_exporter's textfile collector (DIR/capaudit.prom).
 */
#ifndef CAPAUDIT_PROMFILE_H
#define CAPAUDIT_PROMFILE_H

#include "store.h"

#define PROMFILE_MAX_SERIES 200	/* call-site series; the rest add up without a call_site label */
#define PROMFILE_NAME "capaudit.prom"

/*
 * Writes DIR/capaudit.prom atomically: a new temporary file created in DIR's
 * fd (O_EXCL | O_NOFOLLOW: a symlink planted in DIR is never followed),
 * then renamed.  DIR itself must not be a symlink.
 */
int promfile__write(const char *dir, struct store *store);

#endif
