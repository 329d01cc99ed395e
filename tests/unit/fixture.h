/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fixture.h: path of a file under tests/fixtures/, found from the including
 * test's own path (__FILE__), as the Makefile compiles it from the top of the
 * checkout.  Include after <stdio.h> and <string.h>.
 */
#ifndef CAPAUDIT_TEST_FIXTURE_H
#define CAPAUDIT_TEST_FIXTURE_H

#include <limits.h>

/* "tests/unit/../fixtures/<dir>/<name>"; a static buffer, valid until the next call */
static inline const char *fixture_path(const char *dir, const char *name)
{
	static char path[PATH_MAX];
	const char *file = __FILE__;
	const char *slash = strrchr(file, '/');

	if (slash)
		snprintf(path, sizeof(path), "%.*s/../fixtures/%s/%s", (int)(slash - file),
			 file, dir, name);
	else
		snprintf(path, sizeof(path), "../fixtures/%s/%s", dir, name);
	return path;
}

#endif /* CAPAUDIT_TEST_FIXTURE_H */
