/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scan_fixture.h: scan a fixture tree under tests/fixtures/scan with its own
 * capability names, and free the result with them.  Include after cmocka.h
 * and fixture.h.
 */
#ifndef CAPAUDIT_TEST_SCAN_FIXTURE_H
#define CAPAUDIT_TEST_SCAN_FIXTURE_H

#include "capdefs.h"
#include "srcscan.h"

static inline struct srcscan *scan_fixture(const char *tree, int headers, int filter, int threads)
{
	struct srcscan_opts opts = { .headers = headers, .article_filter = filter, .threads = threads };
	struct capdefs *defs;
	struct srcscan *s;
	char err[512];

	assert_int_equal(capdefs__load(fixture_path("scan", tree), &defs, err, sizeof(err)), 0);
	assert_int_equal(srcscan__tree(fixture_path("scan", tree), defs, &opts, &s, err,
				       sizeof(err)), 0);
	return s;
}

static inline void free_scan(struct srcscan *s)
{
	struct capdefs *defs = (struct capdefs *)srcscan__defs(s);

	srcscan__free(s);
	capdefs__free(defs);
}

#endif /* CAPAUDIT_TEST_SCAN_FIXTURE_H */
