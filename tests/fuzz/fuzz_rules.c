// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_rules.c: libFuzzer target for the rules file reader (rules.c): any
 * bytes load or are refused with a message naming a line; a loaded table
 * has sane fields, and every rule's own pattern finds a rule.
 */
#include <assert.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_input.h"
#include "rules.h"

static void check_table(const struct rules *rules)
{
	const struct rule *r;
	int i, n = rules__count(rules);

	assert(n >= 0);
	for (i = 0; i < n; i++) {
		r = rules__get(rules, i);
		assert(r && r->pattern && r->pattern[0] && r->line >= 1);
		assert((r->cap >= 0 && !r->new_cap_name) || (r->cap == -1 && r->new_cap_name));
		assert(r->rationale && r->reference);
		/* a pattern without glob characters matches itself */
		if (!strpbrk(r->pattern, "*?[") && !strchr(r->pattern, '.'))
			assert(rules__match(rules, r->pattern));
	}
	assert(!rules__get(rules, n) && !rules__get(rules, -1));
	assert(!rules__match(rules, NULL) && !rules__match(rules, "") &&
	       !rules__match(rules, "[unknown]"));
	rules__match(rules, "keyctl_chown_key.isra.0");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rules *rules;
	char path[64], err[512];
	int fd = fuzz_input__file(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	err[0] = '\0';
	if (!rules__load(path, &rules, err, sizeof(err))) {
		check_table(rules);
		rules__free(rules);
	} else {
		assert(strstr(err, path));
	}
	close(fd);
	return 0;
}
