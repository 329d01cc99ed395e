/* SPDX-License-Identifier: GPL-2.0 */
/*
 * store.h: the recorder's SQLite database (schema: docs/schema.md).  The
 * daemon adds the agg's deltas to it in one transaction per flush; reports
 * read it back.  Counts accumulate across restarts and reboots.
 */
#ifndef CAPAUDIT_STORE_H
#define CAPAUDIT_STORE_H

#include <stdbool.h>
#include <linux/types.h>

#include "agg.h"
#include "capaudit.h"

#define STORE_DEFAULT_PATH	"/var/lib/capaudit/capaudit.db"
#define STORE_SCHEMA_VERSION	1		/* PRAGMA user_version */
#define STORE_APPLICATION_ID	0x43415041	/* PRAGMA application_id: "CAPA" */

struct store;
struct fallback;

/*
 * Open the store at path.  With create, a missing directory is made 0700 and
 * a missing (or empty) file 0600 with the schema; WAL mode, synchronous=FULL.
 * Errors, the file untouched in every case:
 *   -ENOENT           no such file (without create)
 *   -EBADMSG          not an SQLite database (or a corrupt one)
 *   -EMEDIUMTYPE      an SQLite database of something else
 *   -EPROTONOSUPPORT  a capaudit database of a newer schema version
 *   -ENODATA          an empty file, without create
 *   other -errno      from the file system (-EACCES, -ENOSPC, ...)
 * store__strerror() says which in words, for
 * "the store FILE is not a capaudit database (REASON): move it away or pass --store".
 */
int store__open(const char *path, bool create, struct store **ret_store);
/*
 * For the commands that only read (report, profile, advise): the same
 * checks and errors as store__open() without create, on a read-only
 * connection that switches no journal mode and creates no -wal or -shm
 * file: the file is left byte for byte as it was.  store__flush() on it
 * fails (-EROFS).
 */
int store__open_readonly(const char *path, struct store **ret_store);
void store__close(struct store *store);
/* The reasons above in words; strerror(-err) for the others */
const char *store__strerror(int err);
/*
 * For the edges (subcommands): print why store__open() failed and what to
 * do, "capaudit: the store PATH is not a capaudit database (REASON): move it
 * away or pass --store", or "capaudit: cannot open the store PATH: ..."
 */
void store__explain_error(const char *path, int err);

/*
 * Add the agg's deltas to the store in ONE transaction: each row's count is
 * added to the stored row of its key (first_seen / last_seen widened), the
 * agg's new stacks are stored, the counters gain their deltas, and the
 * fallback pairs fb learned are stored (fb may be NULL).
 *
 * loss_counters: the CAPAUDIT_CNT_NR current values of the BPF loss counters (cpus[])
 * (summed over CPUs), cumulative since the BPF program was loaded.  The store
 * remembers the values of its last successful flush since store__open() and
 * adds only the difference (a value below the last one, a reloaded program,
 * counts from 0 again).  So: one store__open() per BPF program load, or NULL
 * to add no counters.  The agg's overflow deltas are added to the counters
 * too.
 *
 * fb: a pair's stored count becomes the larger of the stored one and fb's;
 * fb's include what store__load_fallbacks() taught it, so counts grow
 * across runs without being added twice.
 *
 * Wall-clock time: rows' first_ns / last_ns must be CLOCK_REALTIME
 * nanoseconds (the recorder converts bpf_ktime_get_ns() before agg__add());
 * the store keeps seconds.
 *
 * 0 on success: the caller then calls agg__reset_deltas().  On error the
 * transaction is rolled back, the store's last loss values are unchanged and
 * the agg untouched, so the next flush retries all of it: -ENOSPC (disk full:
 * keep aggregating in memory), -EBUSY (another writer holds the lock),
 * -EROFS, -EIO, -ENOMEM, -EBADMSG (the file was corrupted).
 */
int store__flush(struct store *store, const struct agg *agg, const __u64 *loss_counters,
		 const struct fallback *fb);

/* Teach fb the fallback pairs stored by earlier runs (fallback__learn()) */
int store__load_fallbacks(struct store *store, struct fallback *fb);

/*
 * Rows to read back; NULL for all.  The window selects rows whose
 * [first_seen, last_seen] meets [since_ns, until_ns] (CLOCK_REALTIME ns,
 * compared at a second's precision): counts are totals per key, not split
 * by time, so a row seen across the window's edge counts whole.
 */
struct store_filter {
	const char *workload;	/* NULL: any */
	int cap;		/* -1: any */
	int granted;		/* -1: any */
	__u64 since_ns;		/* 0: open */
	__u64 until_ns;		/* 0: open */
};

/*
 * Call fn for every stored row matching f, ordered by cap, granted, audit,
 * call site, syscall, workload, comm, stack hash.  Strings stay valid during
 * the callback only; syscall is NULL outside a syscall; first_ns / last_ns
 * are whole seconds * 10^9.  A non-zero return of fn stops the walk and is
 * returned; else 0 or -errno.
 */
int store__for_each_row(struct store *store, const struct store_filter *f,
			int (*fn)(const struct agg_row *row, void *ctx), void *ctx);

/* A container workload's image (table containers); 0, or -errno */
int store__note_container(struct store *store, const char *workload, const char *image);
/* The image stored for workload into buf: 0, or -ENOENT */
int store__container_image(struct store *store, const char *workload, char *buf, size_t size);

/*
 * Whether a workload's own checks (not its set-up's) ran as root: *ret_root
 * and *ret_other count the checks made with real uid 0 and with another
 * uid; *ret_uid is the other uid seen most.  -ENOENT when the store keeps
 * no users (written before it did, or built from a report).
 */
int store__workload_users(struct store *store, const char *workload, __u64 *ret_root,
			  __u64 *ret_other, __u32 *ret_uid);

/*
 * The frames of a stored stack, innermost first, in one allocation: free
 * *ret_frames once.  -ENOENT for a hash the store has no frames for.
 */
int store__stack_frames(struct store *store, __u64 stack_hash, char ***ret_frames,
			int *ret_nr);

/* Totals of the BPF counters (CAPAUDIT_CNT_NR values, CAPAUDIT_CNT_* order) */
int store__losses(struct store *store, __u64 *ret_counts);
/* Totals of the agg's overflow: checks in overflow rows, stacks without frames */
int store__overflow(struct store *store, struct agg_overflow *ret_overflow);

#endif
