// SPDX-License-Identifier: GPL-2.0
/*
 * store.c: the SQLite store of counts (docs/schema.md).  A file is checked
 * before SQLite writes anything to it: a file that is not a capaudit
 * database of a known schema version is refused and left as it is.  Each
 * flush is one transaction (WAL, synchronous=FULL), so a crash loses at most
 * the flush in progress and never leaves a half-written interval.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <sqlite3.h>

#include "fallback.h"
#include "store.h"

#define BUSY_TIMEOUT_MS	1000	/* only another writer can hold the lock that long */
#define NS_PER_SEC	1000000000ull
#define SQLITE_MAGIC	"SQLite format 3"	/* and its NUL: the file's first 16 bytes */

enum store_counter {
	/* CAPAUDIT_CNT_* first, in their order */
	STORE_CNT_OVERFLOW_CHECKS = CAPAUDIT_CNT_NR,
	STORE_CNT_OVERFLOW_STACKS,
	STORE_CNT_NR
};

static const char *const counter_names[STORE_CNT_NR] = {
	[CAPAUDIT_CNT_SEEN] = "seen",
	[CAPAUDIT_CNT_LOST_RINGBUF] = "lost_ringbuf",
	[CAPAUDIT_CNT_LOST_STACK] = "lost_stack",
	[CAPAUDIT_CNT_MISMATCH] = "mismatch",
	[CAPAUDIT_CNT_COUNTED] = "counted_in_kernel",
	[CAPAUDIT_CNT_KEYS_FULL] = "keys_full",
	[CAPAUDIT_CNT_BY_STACK] = "keyed_by_stack",
	[CAPAUDIT_CNT_MISSED] = "missed_recursion",
	[STORE_CNT_OVERFLOW_CHECKS] = "overflow_checks",
	[STORE_CNT_OVERFLOW_STACKS] = "overflow_stacks",
};

/* Added to schema 1 later: created when a writer opens a store without it */
#define USERS_SQL \
	"CREATE TABLE IF NOT EXISTS users (" \
	" workload TEXT NOT NULL, uid INTEGER NOT NULL, count INTEGER NOT NULL," \
	" PRIMARY KEY (workload, uid)) WITHOUT ROWID;" \
	"CREATE TABLE IF NOT EXISTS containers (" \
	" workload TEXT PRIMARY KEY, image TEXT NOT NULL) WITHOUT ROWID;"

static const char schema_sql[] =
	"CREATE TABLE checks ("
	" cap INTEGER NOT NULL, granted INTEGER NOT NULL, audit INTEGER NOT NULL,"
	" call_site TEXT NOT NULL, syscall TEXT NOT NULL, workload TEXT NOT NULL,"
	" comm TEXT NOT NULL, stack_hash INTEGER NOT NULL,"
	" count INTEGER NOT NULL, first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL,"
	" PRIMARY KEY (cap, granted, audit, call_site, syscall, workload, comm, stack_hash)"
	") WITHOUT ROWID;"
	"CREATE INDEX checks_workload ON checks (workload);"
	"CREATE TABLE stacks ("
	" stack_hash INTEGER PRIMARY KEY, nr_frames INTEGER NOT NULL,"
	" frames TEXT NOT NULL, first_seen INTEGER NOT NULL);"
	"CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;"
	"CREATE TABLE fallbacks ("
	" call_site TEXT NOT NULL, narrow_cap INTEGER NOT NULL, times INTEGER NOT NULL,"
	" PRIMARY KEY (call_site, narrow_cap));"
	USERS_SQL;

static const char upsert_check_sql[] =
	"INSERT INTO checks VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"
	" ON CONFLICT DO UPDATE SET count = count + excluded.count,"
	" first_seen = min(first_seen, excluded.first_seen),"
	" last_seen = max(last_seen, excluded.last_seen)";
static const char upsert_user_sql[] =
	"INSERT INTO users VALUES (?1, ?2, ?3) ON CONFLICT DO UPDATE SET count = count + excluded.count";
static const char insert_stack_sql[] =
	"INSERT OR IGNORE INTO stacks VALUES (?1, ?2, ?3, ?4)";
static const char upsert_counter_sql[] =
	"INSERT INTO counters VALUES (?1, ?2)"
	" ON CONFLICT DO UPDATE SET value = value + excluded.value";
static const char upsert_fallback_sql[] =
	"INSERT INTO fallbacks VALUES (?1, ?2, ?3)"
	" ON CONFLICT DO UPDATE SET times = max(times, excluded.times)";

struct store {
	sqlite3 *db;
	sqlite3_stmt *upsert_check;
	sqlite3_stmt *upsert_user;	/* NULL when read-only */
	sqlite3_stmt *insert_stack;
	sqlite3_stmt *upsert_counter;
	sqlite3_stmt *upsert_fallback;
	__u64 last_loss[CAPAUDIT_CNT_NR];	/* at the last successful flush */
	__s64 now;				/* during a flush: its wall-clock second */
};

/* An SQLite result code as a negative errno */
static int sqlite_errno(sqlite3 *db, int rc)
{
	/* shorter than its header says: truncated, or not SQLite's at all */
	if (rc == SQLITE_IOERR_SHORT_READ)
		return -EBADMSG;
	switch (rc & 0xff) {
	case SQLITE_OK:
	case SQLITE_DONE:
	case SQLITE_ROW:
		return 0;
	case SQLITE_FULL:
		return -ENOSPC;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return -EBUSY;
	case SQLITE_READONLY:
		return -EROFS;
	case SQLITE_NOMEM:
		return -ENOMEM;
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		return -EBADMSG;
	case SQLITE_PERM:
	case SQLITE_AUTH:
		return -EPERM;
	case SQLITE_TOOBIG:
		return -E2BIG;
	case SQLITE_MISUSE:
	case SQLITE_RANGE:
		return -EINVAL;
	case SQLITE_CANTOPEN:
		return db && sqlite3_system_errno(db) ? -sqlite3_system_errno(db) : -EACCES;
	case SQLITE_ERROR:
		/* our own statements refused: "unsupported file format" in the header */
		return db && strstr(sqlite3_errmsg(db), "file format") ? -EBADMSG : -EIO;
	default:
		return -EIO;
	}
}

static int exec(sqlite3 *db, const char *sql)
{
	return sqlite_errno(db, sqlite3_exec(db, sql, NULL, NULL, NULL));
}

/* One step of a statement that returns no row, then its reset */
static int step_done(sqlite3 *db, sqlite3_stmt *stmt)
{
	int rc = sqlite3_step(stmt);

	sqlite3_reset(stmt);
	sqlite3_clear_bindings(stmt);
	return rc == SQLITE_DONE ? 0 : sqlite_errno(db, rc);
}

/* The integer a one-value query returns */
static int query_int(sqlite3 *db, const char *sql, __s64 *ret_val)
{
	sqlite3_stmt *stmt;
	int rc;

	rc = sqlite3_prepare_v2(db, sql, -1, &stmt, NULL);
	if (rc != SQLITE_OK)
		return sqlite_errno(db, rc);
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		*ret_val = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	if (rc == SQLITE_ROW)
		return 0;
	return rc == SQLITE_DONE ? -EIO : sqlite_errno(db, rc);
}

/* Make the missing directories above path, 0700 (existing ones untouched) */
static int make_parent_dirs(const char *path)
{
	char *dir, *p;
	int err = 0;

	dir = strdup(path);
	if (!dir)
		return -ENOMEM;
	p = strrchr(dir, '/');
	if (!p || p == dir)
		goto out_free_dir;
	*p = '\0';
	for (p = dir + 1; !err; p++) {
		char c = *p;

		if (c != '/' && c != '\0')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) == 0) {
			if (chmod(dir, 0700))
				err = -errno;
		} else if (errno != EEXIST) {
			err = -errno;
		}
		*p = c;
		if (!c)
			break;
	}
out_free_dir:
	free(dir);
	return err;
}

static int create_file(const char *path)
{
	int fd, err = 0;

	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return errno == EEXIST ? 0 : -errno;
	if (fchmod(fd, 0600))
		err = -errno;
	close(fd);
	return err;
}

/* Before SQLite opens it: a regular file, empty (*ret_empty) or an SQLite one */
static int check_file(const char *path, bool *ret_empty)
{
	char magic[16];
	struct stat st;
	ssize_t n;
	int fd, err = 0;

	/* O_NONBLOCK: a FIFO is refused at once, not waited on */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		err = -errno;
		goto out_close_fd;
	}
	if (!S_ISREG(st.st_mode)) {
		err = S_ISDIR(st.st_mode) ? -EISDIR : -ESPIPE;
		goto out_close_fd;
	}
	*ret_empty = st.st_size == 0;
	if (*ret_empty)
		goto out_close_fd;
	n = pread(fd, magic, sizeof(magic), 0);
	if (n < 0)
		err = -errno;
	else if (n != sizeof(magic) || memcmp(magic, SQLITE_MAGIC, sizeof(magic)))
		err = -EBADMSG;
out_close_fd:
	close(fd);
	return err;
}

/* What the file holds: ours (0), nothing yet (*ret_empty) or an error */
static int check_schema(sqlite3 *db, bool *ret_empty)
{
	__s64 app_id, version, objects;
	int err;

	err = query_int(db, "PRAGMA application_id", &app_id);
	if (!err)
		err = query_int(db, "PRAGMA user_version", &version);
	if (!err)
		err = query_int(db, "SELECT count(*) FROM sqlite_schema", &objects);
	if (err)
		return err;
	*ret_empty = !app_id && !version && !objects;
	if (*ret_empty)
		return 0;
	if (app_id != STORE_APPLICATION_ID)
		return -EMEDIUMTYPE;
	if (version > STORE_SCHEMA_VERSION)
		return -EPROTONOSUPPORT;
	return version == STORE_SCHEMA_VERSION ? 0 : -EMEDIUMTYPE;
}

/* The schema in an empty database, unless another process was quicker */
static int create_schema(sqlite3 *db)
{
	char sql[sizeof(schema_sql) + 128];
	bool empty;
	int err;

	err = exec(db, "BEGIN IMMEDIATE");
	if (err)
		return err;
	err = check_schema(db, &empty);
	if (err || !empty)
		goto out_rollback;
	snprintf(sql, sizeof(sql), "%s PRAGMA application_id = %d; PRAGMA user_version = %d;",
		 schema_sql, STORE_APPLICATION_ID, STORE_SCHEMA_VERSION);
	err = exec(db, sql);
	if (err)
		goto out_rollback;
	return exec(db, "COMMIT");
out_rollback:
	exec(db, "ROLLBACK");
	return err;
}

static int prepare(sqlite3 *db, const char *sql, sqlite3_stmt **ret_stmt)
{
	int rc = sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, ret_stmt, NULL);

	/* SQLITE_ERROR here: a table or column is missing, not our schema */
	if (rc == SQLITE_ERROR)
		return -EMEDIUMTYPE;
	return sqlite_errno(db, rc);
}

static int prepare_all(struct store *s)
{
	int err;

	err = prepare(s->db, upsert_check_sql, &s->upsert_check);
	if (!err)
		err = prepare(s->db, insert_stack_sql, &s->insert_stack);
	if (!err)
		err = prepare(s->db, upsert_counter_sql, &s->upsert_counter);
	if (!err)
		err = prepare(s->db, upsert_fallback_sql, &s->upsert_fallback);
	if (!err && !sqlite3_db_readonly(s->db, "main"))
		err = prepare(s->db, upsert_user_sql, &s->upsert_user);
	return err;
}

/* Journal and sync modes; WAL is kept in the file, synchronous per connection */
static int set_modes(sqlite3 *db)
{
	sqlite3_stmt *stmt;
	int rc, wal;

	if (sqlite3_db_readonly(db, "main"))
		return 0;
	rc = sqlite3_prepare_v2(db, "PRAGMA journal_mode = WAL", -1, &stmt, NULL);
	if (rc != SQLITE_OK)
		return sqlite_errno(db, rc);
	rc = sqlite3_step(stmt);
	wal = rc == SQLITE_ROW &&
	      !sqlite3_stricmp((const char *)sqlite3_column_text(stmt, 0), "wal");
	sqlite3_finalize(stmt);
	if (rc != SQLITE_ROW)
		return sqlite_errno(db, rc);
	if (!wal)
		return -EIO;
	return exec(db, "PRAGMA synchronous = FULL");
}

/* "file:/a%3Fb?immutable=1": the path with URI specials escaped */
static int immutable_uri(const char *path, char *buf, size_t size)
{
	size_t o = 0;
	int n;

	n = snprintf(buf, size, "file:");
	o = n;
	for (; *path && o + 4 < size; path++) {
		if (strchr("?#%", *path))
			o += snprintf(buf + o, size - o, "%%%02X", (unsigned char)*path);
		else
			buf[o++] = *path;
	}
	if (*path || o + sizeof("?immutable=1") > size)
		return -ENAMETOOLONG;
	memcpy(buf + o, "?immutable=1", sizeof("?immutable=1"));
	return 0;
}

/*
 * A read-only connection that creates nothing: when no -wal file exists (no
 * writer is running, or the last one ended cleanly), the file is read as
 * immutable, since SQLite would otherwise create the -wal and -shm files of a
 * file whose header says WAL, even on a read-only connection (and cannot in
 * a directory this user may not write).  With a -wal file, an ordinary
 * read-only connection reads what the writer committed.
 */
static int open_readonly(const char *path, sqlite3 **ret_db)
{
	const int flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX;
	char wal[4096], uri[8192];
	int rc;

	*ret_db = NULL;
	if (snprintf(wal, sizeof(wal), "%s-wal", path) >= (int)sizeof(wal))
		return -ENAMETOOLONG;
	if (access(wal, F_OK) && errno == ENOENT) {
		if (immutable_uri(path, uri, sizeof(uri)))
			return -ENAMETOOLONG;
		rc = sqlite3_open_v2(uri, ret_db, flags | SQLITE_OPEN_URI, NULL);
	} else {
		rc = sqlite3_open_v2(path, ret_db, flags, NULL);
	}
	if (rc != SQLITE_OK)
		return sqlite_errno(*ret_db, rc);
	sqlite3_extended_result_codes(*ret_db, 1);
	sqlite3_busy_timeout(*ret_db, BUSY_TIMEOUT_MS);
	return 0;
}

/*
 * What the file holds, asked on a read-only connection that neither rolls
 * back a hot journal nor checkpoints a WAL on close: a file refused is left
 * byte for byte as it was.
 */
static int probe_schema(const char *path, bool *ret_empty)
{
	sqlite3 *db = NULL;
	int err;

	err = open_readonly(path, &db);
	if (!err && sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL) != SQLITE_OK)
		err = -EIO;
	if (!err)
		err = check_schema(db, ret_empty);
	sqlite3_close_v2(db);
	return err;
}

static int open_db(struct store *s, const char *path, bool create, bool readonly)
{
	bool empty;
	int rc, err;

	err = probe_schema(path, &empty);
	if (err)
		return err;
	if (empty && !create)
		return -ENODATA;
	if (readonly) {
		/* as the probe read it: no journal mode switch, no -wal, no -shm */
		err = open_readonly(path, &s->db);
		if (!err && sqlite3_db_config(s->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1,
					      NULL) != SQLITE_OK)
			err = -EIO;
		if (!err)
			err = check_schema(s->db, &empty);
		if (!err && empty)
			err = -ENODATA;
		return err ? err : prepare_all(s);
	}
	rc = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK)
		return sqlite_errno(s->db, rc);
	/* a file this user may only read: as the probe read it */
	if (sqlite3_db_readonly(s->db, "main") == 1) {
		sqlite3_close_v2(s->db);
		s->db = NULL;
		err = open_readonly(path, &s->db);
		if (err)
			return err;
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
	if (empty) {
		err = create_schema(s->db);
		if (err)
			return err;
	}
	/* again: the file may have changed since the probe */
	err = check_schema(s->db, &empty);
	if (!err && empty)
		err = -ENODATA;
	if (!err)
		err = set_modes(s->db);
	if (!err && !sqlite3_db_readonly(s->db, "main"))
		err = exec(s->db, USERS_SQL);
	if (!err)
		err = prepare_all(s);
	return err;
}

static int open_store(const char *path, bool create, bool readonly, struct store **ret_store)
{
	struct store *s;
	bool empty;
	int err;

	*ret_store = NULL;
	if (access(path, F_OK)) {
		if (errno != ENOENT || !create)
			return -errno;
		err = make_parent_dirs(path);
		if (!err)
			err = create_file(path);
		if (err)
			return err;
	}
	err = check_file(path, &empty);
	if (err)
		return err;
	if (empty && !create)
		return -ENODATA;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	err = open_db(s, path, create, readonly);
	if (err) {
		store__close(s);
		return err;
	}
	*ret_store = s;
	return 0;
}

int store__open(const char *path, bool create, struct store **ret_store)
{
	return open_store(path, create, false, ret_store);
}

int store__open_readonly(const char *path, struct store **ret_store)
{
	return open_store(path, false, true, ret_store);
}

void store__close(struct store *s)
{
	if (!s)
		return;
	sqlite3_finalize(s->upsert_check);
	sqlite3_finalize(s->upsert_user);
	sqlite3_finalize(s->insert_stack);
	sqlite3_finalize(s->upsert_counter);
	sqlite3_finalize(s->upsert_fallback);
	sqlite3_close_v2(s->db);
	free(s);
}

const char *store__strerror(int err)
{
	switch (err) {
	case -EBADMSG:
		return "not an SQLite database, or a corrupt one";
	case -EMEDIUMTYPE:
		return "an SQLite database of another program";
	case -EPROTONOSUPPORT:
		return "a capaudit database of a newer schema version";
	case -ESPIPE:
		return "not a regular file (a FIFO, a device or a socket)";
	case -ENODATA:
		return "an empty file";
	default:
		return strerror(err < 0 ? -err : err);
	}
}

void store__explain_error(const char *path, int err)
{
	__s64 version = 0;
	sqlite3 *db;

	switch (err) {
	case -EPROTONOSUPPORT:
		/* the version again, for the message; the file is left as it is */
		if (!open_readonly(path, &db))
			query_int(db, "PRAGMA user_version", &version);
		sqlite3_close_v2(db);
		fprintf(stderr, "capaudit: the store %s was written by a newer capaudit (schema %lld; "
				"this one reads schema %d): upgrade capaudit, or pass --store\n",
			path, (long long)version, STORE_SCHEMA_VERSION);
		break;
	case -ESPIPE:
	case -EISDIR:
		fprintf(stderr, "capaudit: the store %s is %s: pass --store with the database file\n",
			path, err == -EISDIR ? "a directory" : store__strerror(err));
		break;
	case -EBADMSG:
	case -EMEDIUMTYPE:
	case -ENODATA:
		fprintf(stderr, "capaudit: the store %s is not a capaudit database (%s): "
				"move it away or pass --store\n", path, store__strerror(err));
		break;
	case -ENOENT:
		fprintf(stderr, "capaudit: there is no store %s: run capaudit record first, "
				"or pass --store\n", path);
		break;
	default:
		fprintf(stderr, "capaudit: cannot open the store %s: %s\n", path,
			store__strerror(err));
		break;
	}
}

static __s64 seconds(__u64 ns)
{
	return (__s64)(ns / NS_PER_SEC);
}

/* "" stands for NULL in the store's NOT NULL text columns */
static void bind_text(sqlite3_stmt *stmt, int i, const char *s)
{
	sqlite3_bind_text(stmt, i, s ? s : "", -1, SQLITE_STATIC);
}

static int flush_row(const struct agg_row *row, void *ctx)
{
	struct store *s = ctx;
	sqlite3_stmt *st = s->upsert_check;
	int err;

	sqlite3_bind_int64(st, 1, row->cap);
	sqlite3_bind_int64(st, 2, row->granted);
	sqlite3_bind_int64(st, 3, row->audit);
	bind_text(st, 4, row->call_site);
	bind_text(st, 5, row->syscall);
	bind_text(st, 6, row->workload);
	bind_text(st, 7, row->comm);
	sqlite3_bind_int64(st, 8, (__s64)row->stack_hash);
	sqlite3_bind_int64(st, 9, (__s64)row->count);
	sqlite3_bind_int64(st, 10, seconds(row->first_ns));
	sqlite3_bind_int64(st, 11, seconds(row->last_ns));
	err = step_done(s->db, st);
	/* who the workload's own tasks run as: the set-up's are root */
	if (err || !s->upsert_user || row->audit == CHECK_SETUP_MANAGER ||
	    row->audit == CHECK_SETUP_RUNTIME || !row->workload ||
	    !strcmp(row->workload, AGG_OVERFLOW))
		return err;
	st = s->upsert_user;
	bind_text(st, 1, row->workload);
	sqlite3_bind_int64(st, 2, row->uid);
	sqlite3_bind_int64(st, 3, (__s64)row->count);
	return step_done(s->db, st);
}

/* Frames joined by newlines (agg refuses frames that hold one) */
static char *frames_join(const char *const *frames, int nr)
{
	size_t len = 1, off = 0;
	char *text;
	int i;

	for (i = 0; i < nr; i++)
		len += strlen(frames[i]) + 1;
	text = malloc(len);
	if (!text)
		return NULL;
	for (i = 0; i < nr; i++) {
		size_t n = strlen(frames[i]);

		memcpy(text + off, frames[i], n);
		off += n;
		text[off++] = '\n';
	}
	text[off ? off - 1 : 0] = '\0';
	return text;
}

static int flush_stack(__u64 stack_hash, const char *const *frames, int nr, void *ctx)
{
	struct store *s = ctx;
	sqlite3_stmt *st = s->insert_stack;
	char *text;
	int err;

	text = frames_join(frames, nr);
	if (!text)
		return -ENOMEM;
	sqlite3_bind_int64(st, 1, (__s64)stack_hash);
	sqlite3_bind_int(st, 2, nr);
	sqlite3_bind_text(st, 3, text, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, s->now);
	err = step_done(s->db, st);
	free(text);
	return err;
}

static int add_counter(struct store *s, int idx, __u64 delta)
{
	if (!delta)
		return 0;
	sqlite3_bind_text(s->upsert_counter, 1, counter_names[idx], -1, SQLITE_STATIC);
	sqlite3_bind_int64(s->upsert_counter, 2, (__s64)delta);
	return step_done(s->db, s->upsert_counter);
}

static int flush_counters(struct store *s, const struct agg *agg, const __u64 *loss)
{
	struct agg_overflow ov;
	int i, err;

	for (i = 0; loss && i < CAPAUDIT_CNT_NR; i++) {
		/* below the last value: the program was reloaded, counts from 0 */
		__u64 delta = loss[i] >= s->last_loss[i] ? loss[i] - s->last_loss[i] : loss[i];

		err = add_counter(s, i, delta);
		if (err)
			return err;
	}
	agg__overflow_counts(agg, NULL, &ov);
	err = add_counter(s, STORE_CNT_OVERFLOW_CHECKS, ov.checks);
	if (!err)
		err = add_counter(s, STORE_CNT_OVERFLOW_STACKS, ov.stacks);
	return err;
}

static int flush_fallback(const char *call_site, unsigned int narrow_cap, __u64 times, void *ctx)
{
	struct store *s = ctx;

	sqlite3_bind_text(s->upsert_fallback, 1, call_site, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s->upsert_fallback, 2, narrow_cap);
	sqlite3_bind_int64(s->upsert_fallback, 3, (__s64)times);
	return step_done(s->db, s->upsert_fallback);
}

int store__flush(struct store *s, const struct agg *agg, const __u64 *loss_counters,
		 const struct fallback *fb)
{
	int err;

	s->now = time(NULL);
	err = exec(s->db, "BEGIN IMMEDIATE");
	if (err)
		return err;
	err = agg__for_each(agg, flush_row, s);
	if (!err)
		err = agg__for_each_new_stack(agg, flush_stack, s);
	if (!err)
		err = flush_counters(s, agg, loss_counters);
	if (!err && fb)
		err = fallback__for_each(fb, flush_fallback, s);
	if (!err)
		err = exec(s->db, "COMMIT");
	if (err) {
		/* a failed COMMIT may leave the transaction open */
		if (!sqlite3_get_autocommit(s->db))
			exec(s->db, "ROLLBACK");
		return err;
	}
	if (loss_counters)
		memcpy(s->last_loss, loss_counters, sizeof(s->last_loss));
	return 0;
}

/* Unix seconds of the store as ns: a negative or too large one (a hand-made store) is 0, unknown */
static __u64 time_ns(__s64 secs)
{
	if (secs < 0 || (__u64)secs > UINT64_MAX / NS_PER_SEC)
		return 0;
	return (__u64)secs * NS_PER_SEC;
}

static void row_of_stmt(sqlite3_stmt *st, struct agg_row *row)
{
	row->cap = (__u32)sqlite3_column_int64(st, 0);
	row->granted = (__u32)sqlite3_column_int64(st, 1);
	row->audit = (__u32)sqlite3_column_int64(st, 2);
	row->call_site = (const char *)sqlite3_column_text(st, 3);
	row->syscall = (const char *)sqlite3_column_text(st, 4);
	if (row->syscall && !row->syscall[0])
		row->syscall = NULL;
	row->workload = (const char *)sqlite3_column_text(st, 5);
	row->comm = (const char *)sqlite3_column_text(st, 6);
	row->stack_hash = (__u64)sqlite3_column_int64(st, 7);
	row->count = (__u64)sqlite3_column_int64(st, 8);
	row->first_ns = time_ns(sqlite3_column_int64(st, 9));
	row->last_ns = time_ns(sqlite3_column_int64(st, 10));
}

static void bind_filter(sqlite3_stmt *st, const struct store_filter *f)
{
	if (f && f->workload)
		sqlite3_bind_text(st, 1, f->workload, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, f ? f->cap : -1);
	sqlite3_bind_int(st, 3, f ? f->granted : -1);
	sqlite3_bind_int64(st, 4, f ? seconds(f->since_ns) : 0);
	sqlite3_bind_int64(st, 5, f ? seconds(f->until_ns) : 0);
}

/*
 * Step st to its end, fn called on each row (stopping at a non-zero
 * return, which is returned), then finalize it
 */
static int step_rows(sqlite3 *db, sqlite3_stmt *st, int (*fn)(sqlite3_stmt *st, void *ctx),
		     void *ctx)
{
	int rc, err = 0;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		err = fn(st, ctx);
		if (err)
			break;
	}
	if (!err && rc != SQLITE_DONE)
		err = sqlite_errno(db, rc);
	sqlite3_finalize(st);
	return err;
}

struct row_walk {
	int (*fn)(const struct agg_row *row, void *ctx);
	void *ctx;
};

static int walk_row(sqlite3_stmt *st, void *ctx)
{
	struct row_walk *w = ctx;
	struct agg_row row;

	row_of_stmt(st, &row);
	return w->fn(&row, w->ctx);
}

int store__for_each_row(struct store *s, const struct store_filter *f,
			int (*fn)(const struct agg_row *row, void *ctx), void *ctx)
{
	static const char sql[] =
		"SELECT * FROM checks WHERE (?1 IS NULL OR workload = ?1)"
		" AND (?2 < 0 OR cap = ?2) AND (?3 < 0 OR granted = ?3)"
		" AND (?4 = 0 OR last_seen >= ?4) AND (?5 = 0 OR first_seen <= ?5)"
		" ORDER BY cap, granted, audit, call_site, syscall, workload, comm, stack_hash";
	struct row_walk w = { fn, ctx };
	sqlite3_stmt *st;
	int rc;

	rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return sqlite_errno(s->db, rc);
	bind_filter(st, f);
	return step_rows(s->db, st, walk_row, &w);
}

/* Split newline-joined frames into one block: nr pointers, then the text */
static int frames_split(const char *text, int nr, char ***ret_frames)
{
	size_t len = strlen(text) + 1;
	char **blk, *p;
	int i;

	blk = malloc((size_t)nr * sizeof(char *) + len);
	if (!blk)
		return -ENOMEM;
	p = (char *)(blk + nr);
	memcpy(p, text, len);
	for (i = 0; i < nr; i++) {
		blk[i] = p;
		p = strchr(p, '\n');
		if (!p != (i == nr - 1)) {
			free(blk);
			return -EBADMSG;
		}
		if (p)
			*p++ = '\0';
	}
	*ret_frames = blk;
	return 0;
}

int store__note_container(struct store *s, const char *workload, const char *image)
{
	sqlite3_stmt *st;
	int rc, err;

	rc = sqlite3_prepare_v2(s->db, "INSERT INTO containers VALUES (?1, ?2)"
				" ON CONFLICT DO UPDATE SET image = excluded.image", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return sqlite_errno(s->db, rc);
	sqlite3_bind_text(st, 1, workload, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, image, -1, SQLITE_STATIC);
	err = step_done(s->db, st);
	sqlite3_finalize(st);
	return err;
}

int store__container_image(struct store *s, const char *workload, char *buf, size_t size)
{
	sqlite3_stmt *st;
	int rc, err = -ENOENT;

	rc = sqlite3_prepare_v2(s->db, "SELECT image FROM containers WHERE workload = ?1", -1, &st,
				NULL);
	if (rc != SQLITE_OK)	/* no such table: a store from before it */
		return -ENOENT;
	sqlite3_bind_text(st, 1, workload, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0)) {
		snprintf(buf, size, "%s", (const char *)sqlite3_column_text(st, 0));
		err = 0;
	}
	sqlite3_finalize(st);
	return err;
}

int store__workload_users(struct store *s, const char *workload, __u64 *ret_root,
			  __u64 *ret_other, __u32 *ret_uid)
{
	__u64 best = 0, n;
	sqlite3_stmt *st;
	__s64 uid;
	int rc;

	*ret_root = *ret_other = 0;
	*ret_uid = 0;
	rc = sqlite3_prepare_v2(s->db, "SELECT uid, count FROM users WHERE workload = ?1", -1, &st,
				NULL);
	if (rc != SQLITE_OK)	/* no such table */
		return -ENOENT;
	sqlite3_bind_text(st, 1, workload, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		uid = sqlite3_column_int64(st, 0);
		n = (__u64)sqlite3_column_int64(st, 1);
		if (!uid) {
			*ret_root += n;
		} else if (uid > 0 && uid <= UINT32_MAX) {
			*ret_other += n;
			if (n > best) {
				best = n;
				*ret_uid = (__u32)uid;
			}
		}
	}
	rc = rc == SQLITE_DONE ? 0 : sqlite_errno(s->db, rc);
	sqlite3_finalize(st);
	return rc;
}

int store__stack_frames(struct store *s, __u64 stack_hash, char ***ret_frames, int *ret_nr)
{
	sqlite3_stmt *st;
	int rc, nr, err;

	rc = sqlite3_prepare_v2(s->db, "SELECT nr_frames, frames FROM stacks WHERE stack_hash = ?1",
				-1, &st, NULL);
	if (rc != SQLITE_OK)
		return sqlite_errno(s->db, rc);
	sqlite3_bind_int64(st, 1, (__s64)stack_hash);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		err = rc == SQLITE_DONE ? -ENOENT : sqlite_errno(s->db, rc);
		goto out_finalize;
	}
	nr = sqlite3_column_int(st, 0);
	if (nr < 1 || !sqlite3_column_text(st, 1)) {
		err = -EBADMSG;
		goto out_finalize;
	}
	err = frames_split((const char *)sqlite3_column_text(st, 1), nr, ret_frames);
	if (!err)
		*ret_nr = nr;
out_finalize:
	sqlite3_finalize(st);
	return err;
}

/* The stored values of counters [first, first + nr), 0 for those not stored */
static int read_counters(struct store *s, int first, int nr, __u64 *ret_vals)
{
	sqlite3_stmt *st;
	int rc, i, err = 0;

	rc = sqlite3_prepare_v2(s->db, "SELECT value FROM counters WHERE name = ?1", -1, &st,
				NULL);
	if (rc != SQLITE_OK)
		return sqlite_errno(s->db, rc);
	for (i = 0; i < nr && !err; i++) {
		sqlite3_bind_text(st, 1, counter_names[first + i], -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		ret_vals[i] = rc == SQLITE_ROW ? (__u64)sqlite3_column_int64(st, 0) : 0;
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			err = sqlite_errno(s->db, rc);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return err;
}

int store__losses(struct store *s, __u64 *ret_counts)
{
	return read_counters(s, 0, CAPAUDIT_CNT_NR, ret_counts);
}

int store__overflow(struct store *s, struct agg_overflow *ret_overflow)
{
	__u64 vals[2];
	int err;

	err = read_counters(s, STORE_CNT_OVERFLOW_CHECKS, 2, vals);
	if (err)
		return err;
	ret_overflow->checks = vals[0];
	ret_overflow->stacks = vals[1];
	return 0;
}

static int learn_row(sqlite3_stmt *st, void *ctx)
{
	return fallback__learn(ctx, (const char *)sqlite3_column_text(st, 0),
			       (unsigned int)sqlite3_column_int64(st, 1),
			       (__u64)sqlite3_column_int64(st, 2));
}

int store__load_fallbacks(struct store *s, struct fallback *fb)
{
	sqlite3_stmt *st;
	int rc;

	rc = sqlite3_prepare_v2(s->db, "SELECT call_site, narrow_cap, times FROM fallbacks"
				" ORDER BY rowid", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return sqlite_errno(s->db, rc);
	return step_rows(s->db, st, learn_row, fb);
}
