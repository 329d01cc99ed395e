// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_maintainers.c: libFuzzer target for the MAINTAINERS reader
 * (maintainers.c): the input is the MAINTAINERS file of a scratch tree that
 * holds one source file; sections for a few paths come back well formed,
 * and every section found by file is found by name.
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array_size.h"
#include "maintainers.h"

static const char *const files[] = {
	"kernel/capability.c", "security/keys/keyctl.c", "fs/quota/quota.c",
	"drivers/net/x.c", "MAINTAINERS", "a", "",
};

static char tree[64];

static void make_tree(void)
{
	char path[128];
	FILE *f;

	snprintf(tree, sizeof(tree), "/tmp/fuzz-maint.%d", getpid());
	snprintf(path, sizeof(path), "%s/kernel", tree);
	if (mkdir(tree, 0700) || mkdir(path, 0700))
		abort();
	snprintf(path, sizeof(path), "%s/kernel/capability.c", tree);
	f = fopen(path, "w");
	if (!f)
		abort();
	fputs("bool capable(int cap) { return ns_capable(&init_user_ns, cap); }\n", f);
	fclose(f);
}

static void check_sections(struct maintainers *m, const char *file)
{
	const struct maint_section **s;
	char buf[256];
	size_t n, i, j;

	if (maintainers__for_file(m, file, &s, &n))
		return;
	for (i = 0; i < n; i++) {
		assert(s[i] && s[i]->name);
		assert(maintainers__section(m, s[i]->name));
		for (j = 0; j < s[i]->n_maintainers; j++)
			assert(maintainers__address(s[i]->maintainers[j], buf, sizeof(buf)));
		for (j = 0; j < s[i]->n_lists; j++)
			assert(s[i]->lists[j]);
	}
	free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct maintainers *m;
	char path[128], err[512];
	size_t i;
	FILE *f;

	if (!tree[0])
		make_tree();
	snprintf(path, sizeof(path), "%s/MAINTAINERS", tree);
	f = fopen(path, "w");
	if (!f)
		abort();
	if (fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
	if (maintainers__load(tree, &m, err, sizeof(err)))
		return 0;
	for (i = 0; i < ARRAY_SIZE(files); i++)
		check_sections(m, files[i]);
	maintainers__free(m);
	return 0;
}
