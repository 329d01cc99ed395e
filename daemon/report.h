/* SPDX-License-Identifier: GPL-2.0 */
/* report.h: JSON pieces that report, profile and advise share. */
#ifndef CAPAUDIT_REPORT_H
#define CAPAUDIT_REPORT_H

#include <json-c/json.h>
#include "agg.h"

struct json_object *report__row_json(const struct agg_row *row);
struct json_object *report__losses_json(const __u64 *losses, const struct agg_overflow *ov);

#endif
