/* SPDX-License-Identifier: GPL-2.0 */
/* chart.h: a source scan's tables as SVG bar charts and one HTML page. */
#ifndef CAPAUDIT_CHART_H
#define CAPAUDIT_CHART_H

#include <stdio.h>

#include "scanreport.h"

/* Bar charts per capability and per top-level directory, CAP_SYS_ADMIN highlighted. */
int chart__svg(const struct scan_report *r, FILE *out);

/* One self-contained page: the summary, the charts (inline SVG) and every table. */
int chart__html(const struct scan_report *r, FILE *out);

#endif
