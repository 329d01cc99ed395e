// SPDX-License-Identifier: GPL-2.0
/*
 * test_store.c: unit tests of store.c in a temporary directory: round trip,
 * counts adding up across flushes and reopens, loss counter deltas, files
 * refused and left as they were, modes, a failed flush retried, filters.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "fallback.h"
#include "store.h"
#include "tmpdir.h"

#define SEC 1000000000ull
#define T0 (1764748800ull * SEC)	/* a CLOCK_REALTIME instant, 2025-12-03 */

static int setup(void **state)
{
	return tmpdir_setup(state, "state/capaudit.db");
}

static struct store *open_ok(const char *path, bool create)
{
	struct store *st = NULL;

	assert_int_equal(store__open(path, create, &st), 0);
	assert_non_null(st);
	return st;
}

static struct check mk(__u64 ts, __u32 cap, __u32 granted, const char *site, const char *sc,
		       const char *wl, __u64 stack_hash)
{
	struct check c = {
		.ts_ns = ts, .tid = 1, .cap = cap, .granted = granted, .audit = CHECK_AUDITED,
		.stack_hash = stack_hash, .call_site = site, .syscall = sc, .workload = wl,
		.comm = "prog",
	};
	return c;
}

static void add_n(struct agg *agg, const struct check *c, int n)
{
	while (n--)
		assert_int_equal(agg__add(agg, c), 0);
}

#include "rows.h"

static void read_rows(struct store *st, const struct store_filter *f, struct rows *r)
{
	memset(r, 0, sizeof(*r));
	assert_int_equal(store__for_each_row(st, f, rows__collect, r), 0);
}

static void test_round_trip(void **state)
{
	struct fixture *fx = *state;
	const char *const frames[] = { "cap_capable+0x0", "ns_capable+0x2d", "__do_sys_sethostname+0x3e" };
	__u64 h = agg__hash_frames(frames, 3);
	struct agg *agg = agg__new(NULL);
	struct check a = mk(T0 + 5 * SEC + 7, 21, 1, "__do_sys_sethostname", "sethostname",
			    "hostname.service", h);
	struct check b = mk(T0 + 9 * SEC, 39, 0, "bpf_capable", NULL, "/bin/x", 0);
	struct store *st;
	char **out;
	struct rows r;
	int nr;

	(void)state;
	add_n(agg, &a, 3);
	a.ts_ns = T0 + 2 * SEC;
	add_n(agg, &a, 1);
	b.audit = CHECK_NOAUDIT;
	add_n(agg, &b, 2);
	assert_int_equal(agg__add_stack(agg, h, frames, 3), 0);

	st = open_ok(fx->path, true);
	assert_int_equal(store__flush(st, agg, NULL, NULL), 0);
	read_rows(st, NULL, &r);
	assert_int_equal(r.nr, 2);
	/* ordered by cap: 21 first */
	assert_int_equal(r.row[0].cap, 21);
	assert_int_equal(r.row[0].granted, 1);
	assert_int_equal(r.row[0].audit, CHECK_AUDITED);
	assert_string_equal(r.row[0].call_site, "__do_sys_sethostname");
	assert_string_equal(r.row[0].syscall, "sethostname");
	assert_string_equal(r.row[0].workload, "hostname.service");
	assert_string_equal(r.row[0].comm, "prog");
	assert_int_equal(r.row[0].stack_hash, h);	/* u64 through a signed column */
	assert_int_equal(r.row[0].count, 4);
	assert_int_equal(r.row[0].first_ns, T0 + 2 * SEC);	/* whole seconds */
	assert_int_equal(r.row[0].last_ns, T0 + 5 * SEC);
	assert_int_equal(r.row[1].cap, 39);
	assert_int_equal(r.row[1].granted, 0);
	assert_int_equal(r.row[1].audit, CHECK_NOAUDIT);
	assert_null(r.row[1].syscall);	/* NULL comes back NULL */
	assert_int_equal(r.row[1].count, 2);

	assert_int_equal(store__stack_frames(st, h, &out, &nr), 0);
	assert_int_equal(nr, 3);
	assert_string_equal(out[0], "cap_capable+0x0");
	assert_string_equal(out[1], "ns_capable+0x2d");
	assert_string_equal(out[2], "__do_sys_sethostname+0x3e");
	free(out);
	assert_int_equal(store__stack_frames(st, h + 1, &out, &nr), -ENOENT);
	store__close(st);
	agg__free(agg);
}

static void test_counts_accumulate_across_reopen(void **state)
{
	struct fixture *fx = *state;
	struct agg *agg = agg__new(NULL);
	struct check a = mk(T0 + 10 * SEC, 21, 1, "do_mount", "mount", "m.service", 0);
	struct check b = mk(T0 + 20 * SEC, 21, 1, "do_umount", "umount2", "m.service", 0);
	struct store *st;
	struct rows r;

	(void)state;
	st = open_ok(fx->path, true);
	add_n(agg, &a, 3);
	assert_int_equal(store__flush(st, agg, NULL, NULL), 0);
	agg__reset_deltas(agg);
	/* two flushes add up; the second interval's times widen the row */
	a.ts_ns = T0 + 30 * SEC;
	add_n(agg, &a, 2);
	add_n(agg, &b, 1);
	assert_int_equal(store__flush(st, agg, NULL, NULL), 0);
	agg__reset_deltas(agg);
	read_rows(st, NULL, &r);
	assert_int_equal(r.row[0].count, 5);
	assert_int_equal(r.row[0].first_ns, T0 + 10 * SEC);
	assert_int_equal(r.row[0].last_ns, T0 + 30 * SEC);
	/* a flush of nothing changes nothing */
	assert_int_equal(store__flush(st, agg, NULL, NULL), 0);
	store__close(st);
	agg__free(agg);

	/* a restart: a new agg, the same file */
	st = open_ok(fx->path, false);
	agg = agg__new(NULL);
	a.ts_ns = T0 + 1 * SEC;
	add_n(agg, &a, 10);
	assert_int_equal(store__flush(st, agg, NULL, NULL), 0);
	store__close(st);
	agg__free(agg);

	st = open_ok(fx->path, false);
	read_rows(st, NULL, &r);
	assert_int_equal(r.nr, 2);
	assert_string_equal(r.row[0].call_site, "do_mount");
	assert_int_equal(r.row[0].count, 3 + 2 + 10);
	assert_int_equal(r.row[0].first_ns, T0 + 1 * SEC);
	assert_int_equal(r.row[0].last_ns, T0 + 30 * SEC);
	assert_string_equal(r.row[1].call_site, "do_umount");
	assert_int_equal(r.row[1].count, 1);
	store__close(st);
}

static void assert_losses(struct store *st, __u64 seen, __u64 ringbuf, __u64 stack,
			  __u64 mismatch)
{
	__u64 got[CAPAUDIT_CNT_NR];

	assert_int_equal(store__losses(st, got), 0);
	assert_int_equal(got[CAPAUDIT_CNT_SEEN], seen);
	assert_int_equal(got[CAPAUDIT_CNT_LOST_RINGBUF], ringbuf);
	assert_int_equal(got[CAPAUDIT_CNT_LOST_STACK], stack);
	assert_int_equal(got[CAPAUDIT_CNT_MISMATCH], mismatch);
}

static void test_loss_deltas(void **state)
{
	struct fixture *fx = *state;
	struct agg *agg = agg__new(NULL);
	__u64 k1[CAPAUDIT_CNT_NR] = { 10, 2, 1, 0 };
	__u64 k2[CAPAUDIT_CNT_NR] = { 15, 2, 4, 1 };
	__u64 run2[CAPAUDIT_CNT_NR] = { 3, 0, 0, 0 };
	__u64 reloaded[CAPAUDIT_CNT_NR] = { 1, 0, 0, 0 };
	struct store *st;

	(void)state;
	st = open_ok(fx->path, true);
	assert_losses(st, 0, 0, 0, 0);
	assert_int_equal(store__flush(st, agg, k1, NULL), 0);
	assert_losses(st, 10, 2, 1, 0);
	/* cumulative kernel values: only the difference is added */
	assert_int_equal(store__flush(st, agg, k2, NULL), 0);
	assert_losses(st, 15, 2, 4, 1);
	assert_int_equal(store__flush(st, agg, k2, NULL), 0);
	assert_losses(st, 15, 2, 4, 1);
	assert_int_equal(store__flush(st, agg, NULL, NULL), 0);
	assert_losses(st, 15, 2, 4, 1);
	store__close(st);

	/* the next run's program counts from 0 again */
	st = open_ok(fx->path, false);
	assert_int_equal(store__flush(st, agg, run2, NULL), 0);
	assert_losses(st, 18, 2, 4, 1);
	/* a value below the last one: the program was reloaded */
	assert_int_equal(store__flush(st, agg, reloaded, NULL), 0);
	assert_losses(st, 19, 2, 4, 1);
	store__close(st);
	agg__free(agg);
}

static char *slurp(const char *path, size_t *ret_len)
{
	char *buf = malloc(1 << 16);
	ssize_t n;
	int fd;

	assert_non_null(buf);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	n = read(fd, buf, 1 << 16);
	assert_true(n >= 0 && n < (1 << 16));
	close(fd);
	*ret_len = (size_t)n;
	return buf;
}

static void write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
}

static bool exists(const char *fmt, const char *path)
{
	char p[256];

	snprintf(p, sizeof(p), fmt, path);
	return access(p, F_OK) == 0;
}

/* store__open(create) refuses path with want and leaves it byte-identical */
static void assert_refused(const char *path, int want)
{
	struct store *st = (struct store *)1;
	size_t len0, len1;
	char *before, *after;
	struct stat s0, s1;

	before = slurp(path, &len0);
	assert_int_equal(stat(path, &s0), 0);
	assert_int_equal(store__open(path, true, &st), want);
	assert_null(st);
	assert_int_equal(store__open(path, false, &st), want);
	after = slurp(path, &len1);
	assert_int_equal(stat(path, &s1), 0);
	assert_int_equal(len0, len1);
	assert_memory_equal(before, after, len0);
	assert_int_equal(s0.st_mode, s1.st_mode);
	assert_false(exists("%s-wal", path));
	assert_false(exists("%s-journal", path));
	assert_string_not_equal(store__strerror(want), "");
	free(before);
	free(after);
}

static void test_garbage_refused(void **state)
{
	struct fixture *fx = *state;
	char path[160], garbage[4096];
	size_t i;

	for (i = 0; i < sizeof(garbage); i++)
		garbage[i] = (char)(i * 131 + 7);
	snprintf(path, sizeof(path), "%s/garbage.db", fx->dir);
	write_file(path, garbage, sizeof(garbage));
	assert_refused(path, -EBADMSG);
	write_file(path, "hello", 5);
	assert_refused(path, -EBADMSG);
	/* the magic, then garbage */
	memcpy(garbage, "SQLite format 3", 16);
	write_file(path, garbage, sizeof(garbage));
	assert_refused(path, -EBADMSG);
	/*
	 * a header that says WAL mode over garbage pages: SQLite would create a
	 * -wal file beside it, even read-only (found by 160-fault-store.sh)
	 */
	garbage[16] = 0x10;	/* page size 4096 */
	garbage[17] = 0;
	garbage[18] = 2;	/* write and read versions 2: WAL */
	garbage[19] = 2;
	garbage[21] = 64;
	garbage[22] = 32;
	garbage[23] = 32;
	write_file(path, garbage, sizeof(garbage));
	assert_refused(path, -EBADMSG);
	assert_false(exists("%s-shm", path));
	/* a directory */
	snprintf(path, sizeof(path), "%s", fx->dir);
	{
		struct store *st;

		assert_int_equal(store__open(path, true, &st), -EISDIR);
	}
}

static void make_foreign(const char *path, const char *sql)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_close(db), SQLITE_OK);
}

static void test_foreign_schema_refused(void **state)
{
	struct fixture *fx = *state;
	char path[160], sql[256];

	snprintf(path, sizeof(path), "%s/other.db", fx->dir);
	make_foreign(path, "CREATE TABLE checks (x); INSERT INTO checks VALUES (1);");
	assert_refused(path, -EMEDIUMTYPE);

	/* another program's application id, even without tables */
	snprintf(path, sizeof(path), "%s/other2.db", fx->dir);
	make_foreign(path, "PRAGMA application_id = 1234; PRAGMA user_version = 1;");
	assert_refused(path, -EMEDIUMTYPE);

	/* a capaudit store of a newer schema */
	snprintf(path, sizeof(path), "%s/newer.db", fx->dir);
	snprintf(sql, sizeof(sql), "PRAGMA application_id = %d; PRAGMA user_version = %d;"
		 "CREATE TABLE checks (x);", STORE_APPLICATION_ID, STORE_SCHEMA_VERSION + 1);
	make_foreign(path, sql);
	assert_refused(path, -EPROTONOSUPPORT);

	/* ours by its id, but its tables are not ours */
	snprintf(path, sizeof(path), "%s/broken.db", fx->dir);
	snprintf(sql, sizeof(sql), "PRAGMA application_id = %d; PRAGMA user_version = %d;"
		 "CREATE TABLE checks (x);", STORE_APPLICATION_ID, STORE_SCHEMA_VERSION);
	make_foreign(path, sql);
	{
		struct store *st;

		assert_int_equal(store__open(path, false, &st), -EMEDIUMTYPE);
		assert_null(st);
	}
}

static void test_missing_and_empty(void **state)
{
	struct fixture *fx = *state;
	struct store *st;
	char path[160];

	assert_int_equal(store__open(fx->path, false, &st), -ENOENT);
	assert_null(st);
	assert_false(exists("%s", fx->path));
	/* an empty file (a crash before the schema was written) */
	snprintf(path, sizeof(path), "%s/empty.db", fx->dir);
	write_file(path, "", 0);
	assert_int_equal(store__open(path, false, &st), -ENODATA);
	st = open_ok(path, true);
	store__close(st);
	st = open_ok(path, false);
	store__close(st);
}

static void test_modes(void **state)
{
	struct fixture *fx = *state;
	struct check c = mk(T0, 21, 1, "do_mount", "mount", "m", 0);
	mode_t old = umask(0);
	struct store *st;
	struct agg *agg;
	struct stat s;
	char dir[160], wal[160];

	st = open_ok(fx->path, true);
	umask(old);
	snprintf(dir, sizeof(dir), "%s/state", fx->dir);
	assert_int_equal(stat(dir, &s), 0);
	assert_int_equal(s.st_mode & 07777, 0700);
	assert_int_equal(stat(fx->path, &s), 0);
	assert_int_equal(s.st_mode & 07777, 0600);
	/* WAL mode: the log beside it, there after a write, has the file's mode */
	agg = agg__new(NULL);
	assert_int_equal(agg__add(agg, &c), 0);
	assert_int_equal(store__flush(st, agg, NULL, NULL), 0);
	agg__free(agg);
	snprintf(wal, sizeof(wal), "%s-wal", fx->path);
	assert_int_equal(stat(wal, &s), 0);
	assert_int_equal(s.st_mode & 07777, 0600);
	store__close(st);
	/* an existing directory's mode is not changed */
	assert_int_equal(chmod(dir, 0755), 0);
	st = open_ok(fx->path, true);
	store__close(st);
	assert_int_equal(stat(dir, &s), 0);
	assert_int_equal(s.st_mode & 07777, 0755);
}

/* Another writer holds the lock: the flush fails, nothing is lost */
static void test_failed_flush_keeps_deltas(void **state)
{
	struct fixture *fx = *state;
	const char *const frames[] = { "cap_capable+0x0", "do_syslog+0x20" };
	__u64 h = agg__hash_frames(frames, 2);
	__u64 k1[CAPAUDIT_CNT_NR] = { 5, 1, 0, 0 };
	__u64 k2[CAPAUDIT_CNT_NR] = { 8, 1, 0, 0 };
	struct agg *agg = agg__new(NULL);
	struct check a = mk(T0, 34, 1, "do_syslog", "syslog", "dmesg", h);
	struct store *st;
	struct rows r;
	sqlite3 *other;
	char **out;
	int nr;

	st = open_ok(fx->path, true);
	add_n(agg, &a, 4);
	assert_int_equal(agg__add_stack(agg, h, frames, 2), 0);
	assert_int_equal(store__flush(st, agg, k1, NULL), 0);
	agg__reset_deltas(agg);
	add_n(agg, &a, 3);
	a.stack_hash = 0;
	add_n(agg, &a, 1);

	assert_int_equal(sqlite3_open(fx->path, &other), SQLITE_OK);
	assert_int_equal(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(store__flush(st, agg, k2, NULL), -EBUSY);
	/* nothing of it was stored, and the store can still be read */
	read_rows(st, NULL, &r);
	assert_int_equal(rows__sum(&r), 4);
	assert_losses(st, 5, 1, 0, 0);
	/* the agg still holds the deltas */
	memset(&r, 0, sizeof(r));
	assert_int_equal(agg__for_each(agg, rows__collect, &r), 0);
	assert_int_equal(rows__sum(&r), 4);
	assert_int_equal(sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(other);

	/* the next flush stores all of it, losses since the last success */
	assert_int_equal(store__flush(st, agg, k2, NULL), 0);
	agg__reset_deltas(agg);
	read_rows(st, NULL, &r);
	assert_int_equal(r.nr, 2);
	assert_int_equal(rows__sum(&r), 8);
	assert_losses(st, 8, 1, 0, 0);
	assert_int_equal(store__stack_frames(st, h, &out, &nr), 0);
	assert_int_equal(nr, 2);
	assert_string_equal(out[1], "do_syslog+0x20");
	free(out);
	store__close(st);
	agg__free(agg);
}

static void test_filters(void **state)
{
	struct fixture *fx = *state;
	struct agg *agg = agg__new(NULL);
	struct check c;
	struct store_filter f;
	struct store *st;
	struct rows r;

	(void)state;
	c = mk(T0 + 100 * SEC, 21, 1, "do_mount", "mount", "a", 0);
	add_n(agg, &c, 1);
	c = mk(T0 + 200 * SEC, 21, 0, "do_mount", "mount", "b", 0);
	add_n(agg, &c, 2);
	c = mk(T0 + 300 * SEC, 12, 1, "dev_ioctl", "ioctl", "a", 0);
	add_n(agg, &c, 4);
	st = open_ok(fx->path, true);
	assert_int_equal(store__flush(st, agg, NULL, NULL), 0);

	f = (struct store_filter){ .workload = "a", .cap = -1, .granted = -1 };
	read_rows(st, &f, &r);
	assert_int_equal(r.nr, 2);
	assert_int_equal(rows__sum(&r), 5);
	f = (struct store_filter){ .cap = 21, .granted = -1 };
	read_rows(st, &f, &r);
	assert_int_equal(rows__sum(&r), 3);
	f = (struct store_filter){ .cap = 21, .granted = 0 };
	read_rows(st, &f, &r);
	assert_int_equal(r.nr, 1);
	assert_string_equal(r.row[0].workload, "b");
	f = (struct store_filter){ .cap = -1, .granted = -1, .since_ns = T0 + 150 * SEC,
				   .until_ns = T0 + 250 * SEC };
	read_rows(st, &f, &r);
	assert_int_equal(r.nr, 1);
	assert_int_equal(r.row[0].count, 2);
	f = (struct store_filter){ .cap = -1, .granted = -1, .since_ns = T0 + 200 * SEC };
	read_rows(st, &f, &r);
	assert_int_equal(rows__sum(&r), 6);
	f = (struct store_filter){ .workload = "nobody", .cap = -1, .granted = -1 };
	read_rows(st, &f, &r);
	assert_int_equal(r.nr, 0);
	store__close(st);
	agg__free(agg);
}

static void test_overflow_stored(void **state)
{
	struct fixture *fx = *state;
	struct agg_limits lim = { .max_keys = 1, .max_stacks = 1 };
	struct agg *agg = agg__new(&lim);
	const char *const f1[] = { "a+0x1" }, *const f2[] = { "b+0x1" };
	struct agg_overflow ov;
	struct store *st;
	struct check c;
	struct rows r;

	c = mk(T0, 21, 1, "s1", "x", "w1", 0);
	add_n(agg, &c, 1);
	c = mk(T0, 21, 1, "s2", "x", "w2", 0);
	add_n(agg, &c, 2);
	c = mk(T0, 19, 0, "s3", "x", "w3", 0);
	add_n(agg, &c, 3);
	assert_int_equal(agg__add_stack(agg, agg__hash_frames(f1, 1), f1, 1), 0);
	assert_int_equal(agg__add_stack(agg, agg__hash_frames(f2, 1), f2, 1), 0);
	st = open_ok(fx->path, true);
	assert_int_equal(store__flush(st, agg, NULL, NULL), 0);
	agg__reset_deltas(agg);
	/* the same overflow again: stored rows add up, counters too */
	add_n(agg, &c, 1);
	assert_int_equal(store__flush(st, agg, NULL, NULL), 0);
	assert_int_equal(store__overflow(st, &ov), 0);
	assert_int_equal(ov.checks, 2 + 3 + 1);
	assert_int_equal(ov.stacks, 1);
	read_rows(st, NULL, &r);
	assert_int_equal(r.nr, 3);
	assert_int_equal(rows__sum(&r), 7);
	assert_int_equal(r.row[0].cap, 19);
	assert_string_equal(r.row[0].call_site, AGG_OVERFLOW);
	assert_string_equal(r.row[0].workload, AGG_OVERFLOW);
	assert_int_equal(r.row[0].count, 4);
	/* "[overflow]" sorts before the names of call sites */
	assert_int_equal(r.row[1].count, 2);
	assert_string_equal(r.row[1].call_site, AGG_OVERFLOW);
	assert_string_equal(r.row[2].call_site, "s1");
	store__close(st);
	agg__free(agg);
}

/*
 * A reader who may only read the store, in a directory it cannot write
 * (where SQLite cannot make the WAL index): it still reads every count, and
 * leaves no file behind.  Needs root to become another user; skipped else.
 */
static void test_read_only_reader(void **state)
{
	struct fixture *fx = *state;
	struct check c = mk(T0, 21, 1, "do_mount", "mount", "m", 0);
	char state_dir[128];
	struct agg *agg;
	struct store *st;
	int status;
	pid_t pid;

	if (geteuid())
		skip();
	agg = agg__new(NULL);
	st = open_ok(fx->path, true);
	add_n(agg, &c, 7);
	assert_int_equal(store__flush(st, agg, NULL, NULL), 0);
	store__close(st);
	agg__free(agg);
	assert_false(exists("%s-wal", fx->path));
	snprintf(state_dir, sizeof(state_dir), "%s/state", fx->dir);
	assert_int_equal(chmod(fx->dir, 0755), 0);
	assert_int_equal(chmod(state_dir, 0755), 0);
	assert_int_equal(chmod(fx->path, 0644), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rows r;

		if (setgid(65534) || setuid(65534))
			_exit(2);
		if (store__open(fx->path, false, &st))
			_exit(3);
		read_rows(st, NULL, &r);
		store__close(st);
		_exit(r.nr == 1 && r.row[0].count == 7 ? 0 : 4);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_false(exists("%s-wal", fx->path));
	assert_false(exists("%s-shm", fx->path));
}

/*
 * A recorder killed with a WAL not checkpointed: the next open reads its
 * committed flushes through the WAL, and the file is sound
 */
/*
 * store__open_readonly(): a store in rollback-journal mode (as the sqlite3
 * tool may leave it) is read without a journal mode switch, no -wal or
 * -shm file, its bytes unchanged; a write through it fails; a foreign
 * database is refused as store__open() refuses it.
 */
static void test_open_readonly_changes_nothing(void **state)
{
	struct fixture *fx = *state;
	struct check c = mk(T0, 21, 1, "do_mount", "mount", "m", 0);
	struct agg *agg = agg__new(NULL);
	char *before, *after, foreign[160];
	size_t len0, len1;
	struct store *st;
	sqlite3 *db;
	struct rows r;

	st = open_ok(fx->path, true);
	add_n(agg, &c, 3);
	assert_int_equal(store__flush(st, agg, NULL, NULL), 0);
	store__close(st);
	assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	before = slurp(fx->path, &len0);

	assert_int_equal(store__open_readonly(fx->path, &st), 0);
	read_rows(st, NULL, &r);
	assert_int_equal(r.nr, 1);
	assert_int_equal(r.row[0].count, 3);
	assert_int_equal(store__flush(st, agg, NULL, NULL), -EROFS);
	store__close(st);
	after = slurp(fx->path, &len1);
	assert_int_equal(len0, len1);
	assert_memory_equal(before, after, len0);
	assert_false(exists("%s-wal", fx->path));
	assert_false(exists("%s-shm", fx->path));
	assert_false(exists("%s-journal", fx->path));
	free(before);
	free(after);

	snprintf(foreign, sizeof(foreign), "%s/foreign.db", fx->dir);
	make_foreign(foreign, "CREATE TABLE notes (x TEXT); INSERT INTO notes VALUES ('x');");
	before = slurp(foreign, &len0);
	assert_int_equal(store__open_readonly(foreign, &st), -EMEDIUMTYPE);
	after = slurp(foreign, &len1);
	assert_int_equal(len0, len1);
	assert_memory_equal(before, after, len0);
	assert_false(exists("%s-wal", foreign));
	free(before);
	free(after);
	agg__free(agg);
}

static void test_reopen_after_kill(void **state)
{
	struct fixture *fx = *state;
	struct check c = mk(T0, 21, 1, "do_mount", "mount", "m", 0);
	__u64 k[CAPAUDIT_CNT_NR] = { 9, 1, 0, 0 };
	struct store *st;
	struct rows r;
	sqlite3 *db;
	int status;
	pid_t pid;

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct agg *agg = agg__new(NULL);

		if (!agg || store__open(fx->path, true, &st))
			_exit(1);
		for (int i = 0; i < 2; i++) {
			if (agg__add(agg, &c) || agg__add(agg, &c) ||
			    store__flush(st, agg, k, NULL))
				_exit(1);
			agg__reset_deltas(agg);
		}
		/* a third interval, counted but never flushed */
		agg__add(agg, &c);
		raise(SIGKILL);
		_exit(1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	assert_true(exists("%s-wal", fx->path));

	st = open_ok(fx->path, true);
	read_rows(st, NULL, &r);
	assert_int_equal(r.nr, 1);
	assert_int_equal(r.row[0].count, 4);
	assert_losses(st, 9, 1, 0, 0);
	store__close(st);
	assert_int_equal(sqlite3_open(fx->path, &db), SQLITE_OK);
	{
		sqlite3_stmt *q;

		assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &q, NULL),
				 SQLITE_OK);
		assert_int_equal(sqlite3_step(q), SQLITE_ROW);
		assert_string_equal((const char *)sqlite3_column_text(q, 0), "ok");
		sqlite3_finalize(q);
	}
	sqlite3_close(db);
}

struct pair_seen {
	int nr;
	__u64 times;
};

static int count_pair(const char *call_site, unsigned int narrow_cap, __u64 times, void *ctx)
{
	struct pair_seen *p = ctx;

	if (!strcmp(call_site, "do_syslog") && narrow_cap == 34)
		p->times = times;
	p->nr++;
	return 0;
}

static void test_fallbacks_persist(void **state)
{
	struct fixture *fx = *state;
	struct fallback *fb = fallback__new(), *fb2 = fallback__new(), *fb3 = fallback__new();
	struct agg *agg = agg__new(NULL);
	struct pair_seen seen = { 0 };
	unsigned int narrow = 0;
	struct store *st;

	assert_int_equal(fallback__learn(fb, "do_syslog", 34, 3), 0);
	st = open_ok(fx->path, true);
	assert_int_equal(store__flush(st, agg, NULL, fb), 0);
	assert_int_equal(store__flush(st, agg, NULL, fb), 0);	/* not added twice */
	store__close(st);

	st = open_ok(fx->path, false);
	assert_false(fallback__accepts(fb2, "do_syslog", NULL));
	assert_int_equal(store__load_fallbacks(st, fb2), 0);
	assert_true(fallback__accepts(fb2, "do_syslog", &narrow));
	assert_int_equal(narrow, 34);
	assert_int_equal(fallback__learn(fb2, "do_syslog", 34, 2), 0);
	assert_int_equal(store__flush(st, agg, NULL, fb2), 0);
	assert_int_equal(store__load_fallbacks(st, fb3), 0);
	assert_int_equal(fallback__for_each(fb3, count_pair, &seen), 0);
	assert_int_equal(seen.nr, 1);
	assert_int_equal(seen.times, 3 + 2);
	store__close(st);
	fallback__free(fb);
	fallback__free(fb2);
	fallback__free(fb3);
	agg__free(agg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_counts_accumulate_across_reopen, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_loss_deltas, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_garbage_refused, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_foreign_schema_refused, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_missing_and_empty, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_modes, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_failed_flush_keeps_deltas, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_filters, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_overflow_stored, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_fallbacks_persist, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_reopen_after_kill, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_read_only_reader, setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_open_readonly_changes_nothing, setup,
						tmpdir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
