/* SPDX-License-Identifier: GPL-2.0 */
/*
 * promfile.h: the store's totals as a Prometheus text file for
 * node_exporter's textfile collector (DIR/capaudit.prom).
 */
#ifndef CAPAUDIT_PROMFILE_H
#define CAPAUDIT_PROMFILE_H

#include "store.h"

#define PROMFILE_MAX_SERIES 200	/* call-site series; the rest add up under call_site="other" */

/* Writes DIR/capaudit.prom atomically (a temporary file, then rename). */
int promfile__write(const char *dir, struct store *store);

#endif
