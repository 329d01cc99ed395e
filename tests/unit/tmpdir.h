/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tmpdir.h: a cmocka fixture of a fresh directory under /tmp and a file
 * path in it (not created), removed with all it holds at teardown.
 * Include after <stdio.h>, <stdlib.h>, <ftw.h> and <cmocka.h>.
 */
#ifndef CAPAUDIT_TEST_TMPDIR_H
#define CAPAUDIT_TEST_TMPDIR_H

struct fixture {
	char dir[64];
	char path[128];		/* dir/NAME */
};

/* For a setup function: *state becomes a fixture with path dir/name */
static inline int tmpdir_setup(void **state, const char *name)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	snprintf(fx->dir, sizeof(fx->dir), "%s", "/tmp/capaudit-test.XXXXXX");
	if (!mkdtemp(fx->dir)) {
		free(fx);
		return -1;
	}
	snprintf(fx->path, sizeof(fx->path), "%s/%s", fx->dir, name);
	*state = fx;
	return 0;
}

static inline int tmpdir_rm_one(const char *path, const struct stat *st, int flag,
				struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static inline int tmpdir_teardown(void **state)
{
	struct fixture *fx = *state;

	nftw(fx->dir, tmpdir_rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(fx);
	return 0;
}

#endif /* CAPAUDIT_TEST_TMPDIR_H */
