// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_store.c: libFuzzer target for reading a store (store.c, rowset.c):
 * arbitrary bytes as the database file are opened read-only and read as
 * report, profile and advise read them (rows, losses, overflow, stacks,
 * users), or refused with an error that store__strerror() names; never a
 * crash, a leak or a write to the file.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "fuzz_input.h"
#include "rowset.h"
#include "store.h"

static void read_all(struct store *store)
{
	__u64 losses[CAPAUDIT_CNT_NR], root, other;
	struct agg_overflow ov;
	struct rowset rs;
	char **frames;
	size_t i;
	__u32 uid;
	int nr;

	store__losses(store, losses);
	store__overflow(store, &ov);
	if (rowset__load(&rs, store, NULL))
		return;
	rowset__sort_by_count(&rs);
	for (i = 0; i < rs.nr && i < 64; i++) {
		rowset__audit_name(rs.rows[i].audit);
		if (rs.rows[i].workload)
			store__workload_users(store, rs.rows[i].workload, &root, &other, &uid);
		if (!store__stack_frames(store, rs.rows[i].stack_hash, &frames, &nr)) {
			assert(nr >= 1);
			free(frames);
		}
	}
	rowset__free(&rs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct store *store;
	struct stat before, after;
	char path[64];
	int fd = fuzz_input__file(data, size, path, sizeof(path)), err;

	if (fd < 0)
		return 0;
	assert(!fstat(fd, &before));
	err = store__open_readonly(path, &store);
	if (!err) {
		read_all(store);
		store__close(store);
	} else {
		assert(err < 0 && store__strerror(err) && *store__strerror(err));
	}
	/* read-only: the file's bytes are as they were */
	assert(!fstat(fd, &after) && after.st_size == before.st_size);
	close(fd);
	return 0;
}
