// SPDX-License-Identifier: GPL-2.0
/*
 * promfile.c: counters per capability, verdict and call site, and the loss
 * counters, in the Prometheus text format.  Label cardinality is bounded:
 * the PROMFILE_MAX_SERIES busiest (capability, verdict, call site) series
 * are written, the others add up into a series without a call_site label.
 * The file is written to a new temporary file in the directory (O_EXCL,
 * O_NOFOLLOW, by the directory's fd) and renamed, so a scrape never sees
 * half and nothing planted in the directory is followed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>

#include "capnames.h"
#include "outfmt.h"
#include "promfile.h"
#include "rowset.h"

struct series {
	__u32 cap, granted;
	const char *call_site;
	__u64 count;
};

static int series_cmp(const void *a, const void *b)
{
	const struct series *x = a, *y = b;

	return x->count < y->count ? 1 : x->count > y->count ? -1 : 0;
}

/* A call site's label value: a site without a name is "[unknown]", never "" */
static const char *site_name(const char *s)
{
	return s && *s ? s : "[unknown]";
}

/* rows (sorted by key in the store) → one series per cap, verdict, site */
static size_t fold(const struct rowset *rs, struct series *out)
{
	const struct agg_row *r;
	size_t i, j, n = 0;

	for (i = 0; i < rs->nr; i++) {
		r = &rs->rows[i];
		for (j = n; j > 0; j--) {
			if (out[j - 1].cap == r->cap && out[j - 1].granted == r->granted &&
			    !strcmp(out[j - 1].call_site, site_name(r->call_site)))
				break;
		}
		if (j) {
			out[j - 1].count += r->count;
			continue;
		}
		out[n++] = (struct series){ r->cap, r->granted, site_name(r->call_site), r->count };
	}
	return n;
}

static void write_series(FILE *f, const struct series *s, size_t n)
{
	__u64 other[64][2] = {};
	char buf[CAPNAMES_BUF_LEN];
	size_t i;
	int cap, g;

	fprintf(f, "# HELP capaudit_checks_total Capability checks recorded.\n"
		   "# TYPE capaudit_checks_total counter\n");
	for (i = 0; i < n; i++) {
		if (i >= PROMFILE_MAX_SERIES) {
			if (s[i].cap < 64)
				other[s[i].cap][!!s[i].granted] += s[i].count;
			continue;
		}
		fprintf(f, "capaudit_checks_total{cap=\"%s\",verdict=\"%s\",call_site=\"",
			capnames__name(s[i].cap, buf, sizeof(buf)),
			s[i].granted ? "granted" : "denied");
		outfmt__prom_label(f, site_name(s[i].call_site));
		fprintf(f, "\"} %llu\n", (unsigned long long)s[i].count);
	}
	/*
	 * The roll-up has no call_site label (an empty value, which no site
	 * has): a real call site named "other" is a series of its own.
	 */
	for (cap = 0; cap < 64; cap++)
		for (g = 0; g < 2; g++)
			if (other[cap][g])
				fprintf(f, "capaudit_checks_total{cap=\"%s\",verdict=\"%s\"} %llu\n",
					capnames__name(cap, buf, sizeof(buf)), g ? "granted" : "denied",
					(unsigned long long)other[cap][g]);
}

static void write_losses(FILE *f, const __u64 *losses)
{
	fprintf(f, "# HELP capaudit_kernel_checks_total Checks seen by the BPF program.\n"
		   "# TYPE capaudit_kernel_checks_total counter\n"
		   "capaudit_kernel_checks_total %llu\n"
		   "# HELP capaudit_lost_total Events not delivered, or delivered without a stack.\n"
		   "# TYPE capaudit_lost_total counter\n"
		   "capaudit_lost_total{cause=\"ringbuf_full\"} %llu\n"
		   "capaudit_lost_total{cause=\"no_stack\"} %llu\n"
		   "capaudit_lost_total{cause=\"entry_exit_mismatch\"} %llu\n"
		   "capaudit_lost_total{cause=\"recursion\"} %llu\n",
		(unsigned long long)losses[CAPAUDIT_CNT_SEEN],
		(unsigned long long)losses[CAPAUDIT_CNT_LOST_RINGBUF],
		(unsigned long long)losses[CAPAUDIT_CNT_LOST_STACK],
		(unsigned long long)losses[CAPAUDIT_CNT_MISMATCH],
		(unsigned long long)losses[CAPAUDIT_CNT_MISSED]);
}

/* ".capaudit.prom.0123456789abcdef": a name nobody can have planted */
static void temp_name(char *buf, size_t size)
{
	unsigned long long r = 0;

	if (getrandom(&r, sizeof(r), 0) != sizeof(r))
		r = (unsigned long long)getpid() << 32 ^ (unsigned long long)time(NULL);
	snprintf(buf, size, ".capaudit.prom.%016llx", r);
}

/*
 * A new file in the directory dfd: O_EXCL and O_NOFOLLOW, so that nothing
 * planted in a directory other users may write (a symlink, a FIFO, a file)
 * is followed or written to.
 */
static int create_temp(int dfd, char *name, size_t size)
{
	int fd, tries;

	for (tries = 0; tries < 16; tries++) {
		temp_name(name, size);
		fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd >= 0 || errno != EEXIST)
			return fd < 0 ? -errno : fd;
	}
	return -EEXIST;
}

static int write_file(int fd, const struct series *s, size_t n, const __u64 *losses)
{
	FILE *f = fdopen(fd, "w");
	int err = 0;

	if (!f) {
		err = -errno;
		close(fd);
		return err;
	}
	write_series(f, s, n);
	write_losses(f, losses);
	errno = 0;
	if (ferror(f) || fflush(f) || fsync(fileno(f)))
		err = errno ? -errno : -EIO;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

int promfile__write(const char *dir, struct store *store)
{
	struct store_filter all = { .cap = -1, .granted = -1 };
	__u64 losses[CAPAUDIT_CNT_NR] = {};
	struct series *s = NULL;
	char tmp[64] = "";
	struct rowset rs;
	size_t n = 0;
	int err, dfd, fd;

	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	err = rowset__load(&rs, store, &all);
	if (!err)
		err = store__losses(store, losses);
	if (!err && rs.nr) {
		s = calloc(rs.nr, sizeof(*s));
		err = s ? 0 : -ENOMEM;
	}
	if (!err && rs.nr) {
		n = fold(&rs, s);
		qsort(s, n, sizeof(*s), series_cmp);
	}
	if (!err) {
		fd = create_temp(dfd, tmp, sizeof(tmp));
		err = fd < 0 ? fd : write_file(fd, s, n, losses);
		if (fd < 0)
			tmp[0] = '\0';
	}
	if (!err && renameat(dfd, tmp, dfd, PROMFILE_NAME))
		err = -errno;
	if (err && tmp[0])
		unlinkat(dfd, tmp, 0);
	close(dfd);
	free(s);
	rowset__free(&rs);
	return err;
}
