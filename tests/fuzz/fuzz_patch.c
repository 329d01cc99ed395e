// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_patch.c: libFuzzer target for the unified-diff reader of
 * `capaudit scan --patch` (srcdiff.c): any bytes give a diff or an error;
 * a diff's changes are well formed and its per-capability sums add up to
 * them, and its text, JSON and CSV forms are written.
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capdefs.h"
#include "fuzz_input.h"
#include "srcdiff.h"

static const char header[] = "#define CAP_CHOWN 0\n#define CAP_SYSLOG 34\n"
			     "#define CAP_SYS_ADMIN 21\n#define CAP_SYS_RESOURCE 24\n";

static void check_diff(const struct srcdiff *d)
{
	const struct srcdiff_change *c;
	const struct srcdiff_sum *s;
	unsigned long added = 0, removed = 0, from = 0, to = 0, n_add = 0, n_rm = 0, n_ch = 0;
	size_t n, i;
	FILE *null = fopen("/dev/null", "w");

	c = srcdiff__changes(d, &n);
	for (i = 0; i < n; i++) {
		assert(c[i].file && c[i].function);
		assert((c[i].kind == SRCDIFF_ADDED) == !c[i].old_cap);
		assert((c[i].kind == SRCDIFF_REMOVED) == !c[i].new_cap);
		assert(c[i].kind == SRCDIFF_ADDED || c[i].old_line >= 1);
		assert(c[i].kind == SRCDIFF_REMOVED || c[i].new_line >= 1);
		n_add += c[i].kind == SRCDIFF_ADDED;
		n_rm += c[i].kind == SRCDIFF_REMOVED;
		n_ch += c[i].kind == SRCDIFF_CHANGED;
	}
	s = srcdiff__sums(d, &n);
	for (i = 0; i < n; i++) {
		added += s[i].added;
		removed += s[i].removed;
		from += s[i].changed_from;
		to += s[i].changed_to;
	}
	assert(added == n_add && removed == n_rm && from == n_ch && to == n_ch);
	if (null) {
		srcdiff__text(d, "fuzz", null);
		srcdiff__json(d, "old", "new", null);
		srcdiff__csv(d, null);
		fclose(null);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct capdefs *defs;
	struct srcdiff *d;
	char path[64], err[512];
	int fd;

	if (!defs && capdefs__parse(header, sizeof(header) - 1, "fuzz", &defs, err, sizeof(err)))
		abort();
	fd = fuzz_input__file(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	if (!srcdiff__patch(path, defs, size & 1, &d, err, sizeof(err))) {
		check_diff(d);
		srcdiff__free(d);
	}
	close(fd);
	return 0;
}
