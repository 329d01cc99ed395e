// SPDX-License-Identifier: GPL-2.0
/*
 * srcwalk.c: scan a whole tree with every core.  Worker threads share a stack
 * of directories; each reads one directory, pushes its subdirectories and
 * scans its files, mapped (mmap) rather than copied when they are large.  A
 * file that holds neither "CAP_" nor "capab" cannot hold a use or a helper
 * call, so a vector search over its bytes rules it out before tokenizing.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "srcscan.h"
#include "srcscan_int.h"

#define READ_MIN	(64 * 1024)	/* the read buffer's first size */
#define MAX_THREADS	64

struct walker {
	pthread_mutex_t lock;
	pthread_cond_t more;		/* a directory was pushed, or all is done */
	pthread_cond_t finished;	/* all is done (for the progress line) */
	char **dirs;
	size_t n_dirs, cap_dirs;
	int active;			/* workers busy with a directory */
	int done;
	int rootfd;
	int avx2;			/* the CPU has AVX2 (and CAPAUDIT_NO_AVX2 is unset) */
	const char *tree;
	const struct capdefs *defs;
	const struct srcscan_opts *opts;
	int error;			/* the first error, negative errno */
	char *err;
	size_t errlen;
	unsigned long files;		/* progress, under lock */
	unsigned long long bytes;
};

struct worker {
	struct walker *w;
	pthread_t thread;
	struct srcscan *scan;
	char *buf;			/* for read(): grows to the largest file */
	size_t buf_size;
	unsigned long files;
	unsigned long long bytes;
	int error;
};

static int is_ident_char(char c)
{
	return c == '_' || (unsigned int)((c | 0x20) - 'a') < 26u || (unsigned int)(c - '0') < 10u;
}

/*
 * Is the "capab" at p[at] inside the name of a capable()-family helper that
 * is called: followed by '(' after blanks?  Comments and strings are not
 * told apart here: a false yes only costs a tokenization.
 */
static int helper_call_at(const char *p, size_t n, size_t at)
{
	size_t s = at, e = at;

	while (s > 0 && is_ident_char(p[s - 1]))
		s--;
	while (e < n && is_ident_char(p[e]))
		e++;
	if (!srcscan__is_helper(p + s, e - s))
		return 0;
	while (e < n && (p[e] == ' ' || p[e] == '\t' || p[e] == '\n'))
		e++;
	return e < n && p[e] == '(';
}

/*
 * Can p[0..n) hold a use or a helper call?  It must hold "CAP_", or a
 * helper's name followed by '('.  Most files hold neither: the vector search
 * of srcscan__find_candidate() rules them out at memory speed.
 */
static int has_interest(int avx2, const char *p, size_t n)
{
	const char *end = p + n, *q;

	for (q = srcscan__find_candidate(avx2, p, end); q < end;
	     q = srcscan__find_candidate(avx2, q + 1, end))
		if (*q == 'C' || helper_call_at(p, n, q - p))
			return 1;
	return 0;
}

static void walker__fail(struct walker *w, int error, const char *rel, const char *name)
{
	pthread_mutex_lock(&w->lock);
	if (!w->error) {
		w->error = error;
		snprintf(w->err, w->errlen, "%s/%s%s%s: %s", w->tree, rel, *rel ? "/" : "", name,
			 strerror(-error));
	}
	pthread_mutex_unlock(&w->lock);
}

/*
 * Reads a whole file into the worker's buffer, grown as needed.  A short read
 * of a regular file is its end: one read() per file, no fstat().
 */
static int worker__read(struct worker *wk, int fd, size_t *ret_size)
{
	size_t off = 0, want;
	ssize_t got;
	char *buf;

	for (;;) {
		if (off == wk->buf_size) {
			buf = realloc(wk->buf, 2 * wk->buf_size);
			if (!buf)
				return -ENOMEM;
			wk->buf = buf;
			wk->buf_size *= 2;
		}
		want = wk->buf_size - off;
		got = read(fd, wk->buf + off, want);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		off += got;
		if ((size_t)got < want)
			break;
	}
	*ret_size = off;
	return 0;
}

/* Maps a whole file (--io mmap, mmap-populate, or auto for a large file). */
static int worker__map(struct worker *wk, int fd, char **ret_p, size_t *ret_size)
{
	struct stat st;
	char *p;

	if (fstat(fd, &st))
		return -errno;
	if (!st.st_size || (wk->w->opts->io == SRCSCAN_IO_AUTO && (size_t)st.st_size <= READ_MIN)) {
		int ret = worker__read(wk, fd, ret_size);

		*ret_p = wk->buf;	/* after the read: it may move the buffer */
		return ret;
	}
	p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE |
		 (wk->w->opts->io == SRCSCAN_IO_MMAP_POPULATE ? MAP_POPULATE : 0), fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	*ret_p = p;
	*ret_size = st.st_size;
	return 0;
}

static int worker__file(struct worker *wk, int dirfd, const char *name, const char *path)
{
	size_t size = 0;
	char *p = NULL;
	int fd, ret;

	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	if (wk->w->opts->io == SRCSCAN_IO_READ) {
		ret = worker__read(wk, fd, &size);
		p = wk->buf;
	} else {
		ret = worker__map(wk, fd, &p, &size);
	}
	close(fd);
	if (ret)
		return ret;
	srcscan__count_file(wk->scan, size);
	wk->files++;
	wk->bytes += size;
	if (has_interest(wk->w->avx2, p, size))
		ret = srcscan__buffer(wk->scan, path, p, size, NULL);
	if (p != wk->buf)
		munmap(p, size);
	return ret;
}

static int wanted_file(const struct walker *w, const char *name)
{
	size_t len = strlen(name);

	if (len < 3 || name[len - 2] != '.')
		return 0;
	return name[len - 1] == 'c' || (w->opts->headers && name[len - 1] == 'h');
}

/* The article's filter: no drivers/, and of arch/ only x86 (i386 and x86_64 in old trees). */
static int wanted_dir(const struct walker *w, const char *rel, const char *name)
{
	if (!w->opts->article_filter)
		return 1;
	if (!*rel)
		return strcmp(name, "drivers") != 0;
	if (!strcmp(rel, "arch"))
		return !strcmp(name, "x86") || !strcmp(name, "i386") || !strcmp(name, "x86_64");
	return 1;
}

static int walker__push(struct walker *w, char *dir)
{
	pthread_mutex_lock(&w->lock);
	if (w->n_dirs == w->cap_dirs) {
		size_t n = w->cap_dirs ? 2 * w->cap_dirs : 1024;
		char **v = realloc(w->dirs, n * sizeof(*v));

		if (!v) {
			pthread_mutex_unlock(&w->lock);
			return -ENOMEM;
		}
		w->dirs = v;
		w->cap_dirs = n;
	}
	w->dirs[w->n_dirs++] = dir;
	pthread_cond_signal(&w->more);
	pthread_mutex_unlock(&w->lock);
	return 0;
}

static int worker__dir(struct worker *wk, const char *rel)
{
	struct walker *w = wk->w;
	char path[4096];
	struct dirent *de;
	struct stat st;
	DIR *d;
	int fd, type, ret = 0;

	fd = openat(w->rootfd, *rel ? rel : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		ret = -errno;
		close(fd);
		return ret;
	}
	while ((de = readdir(d))) {
		const char *name = de->d_name;

		if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2])))
			continue;
		type = de->d_type;
		if (type == DT_UNKNOWN) {
			if (fstatat(dirfd(d), name, &st, AT_SYMLINK_NOFOLLOW))
				continue;
			type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_LNK;
		}
		if ((size_t)snprintf(path, sizeof(path), "%s%s%s", rel, *rel ? "/" : "", name) >= sizeof(path)) {
			walker__fail(w, -ENAMETOOLONG, rel, name);
			continue;
		}
		if (type == DT_DIR && wanted_dir(w, rel, name)) {
			char *dup = strdup(path);

			if (!dup || walker__push(w, dup)) {
				free(dup);
				ret = -ENOMEM;
				break;
			}
		} else if (type == DT_REG && wanted_file(w, name)) {
			ret = worker__file(wk, dirfd(d), name, path);
			if (ret == -ENOMEM)
				break;
			if (ret)
				walker__fail(w, ret, rel, name);
			ret = 0;
		}
	}
	closedir(d);
	return ret;
}

static void *worker__run(void *arg)
{
	struct worker *wk = arg;
	struct walker *w = wk->w;
	char *dir;
	int ret;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (!w->n_dirs && w->active && !w->done)
			pthread_cond_wait(&w->more, &w->lock);
		if (!w->n_dirs || w->done) {
			w->done = 1;
			pthread_cond_broadcast(&w->more);
			pthread_cond_broadcast(&w->finished);
			break;
		}
		dir = w->dirs[--w->n_dirs];
		w->active++;
		w->files += wk->files;
		w->bytes += wk->bytes;
		wk->files = 0;
		wk->bytes = 0;
		pthread_mutex_unlock(&w->lock);

		ret = worker__dir(wk, dir);
		if (ret)
			walker__fail(w, ret, dir, "");
		free(dir);

		pthread_mutex_lock(&w->lock);
		w->active--;
		if (ret == -ENOMEM)
			w->done = 1;
		if (!w->active && !w->n_dirs)
			pthread_cond_broadcast(&w->more);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

static void walker__progress(struct walker *w)
{
	unsigned long long bytes;
	unsigned long files;
	struct timespec ts;
	int done;

	for (;;) {
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 200 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_mutex_lock(&w->lock);
		if (!w->done)
			pthread_cond_timedwait(&w->finished, &w->lock, &ts);
		done = w->done;
		files = w->files;
		bytes = w->bytes;
		pthread_mutex_unlock(&w->lock);
		w->opts->progress(w->opts->progress_ctx, files, bytes, done);
		if (done)
			break;
	}
}

static int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : n;
}

int srcscan__tree(const char *tree, const struct capdefs *defs, const struct srcscan_opts *opts,
		  struct srcscan **ret_scan, char *err, size_t errlen)
{
	struct walker w = {
		.lock = PTHREAD_MUTEX_INITIALIZER, .more = PTHREAD_COND_INITIALIZER,
		.finished = PTHREAD_COND_INITIALIZER,
		.tree = tree, .defs = defs, .opts = opts, .err = err, .errlen = errlen,
	};
	struct worker wk[MAX_THREADS] = { 0 };
	struct srcscan *all;
	int i, n, started = 0, ret = 0;
	char *root;

	w.avx2 = srcscan__cpu_avx2() && !getenv("CAPAUDIT_NO_AVX2");
	n = opts->threads > 0 ? (opts->threads > MAX_THREADS ? MAX_THREADS : opts->threads)
			      : online_cpus();
	w.rootfd = open(tree, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (w.rootfd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s (give the path of a kernel source tree)", tree,
			 strerror(-ret));
		return ret;
	}
	all = srcscan__new(defs);
	root = strdup("");
	if (!all || !root || walker__push(&w, root)) {
		free(root);
		ret = -ENOMEM;
		goto out_free;
	}
	for (i = 0; i < n; i++) {
		wk[i].w = &w;
		wk[i].scan = srcscan__new(defs);
		if (wk[i].scan)
			srcscan__set_avx2(wk[i].scan, w.avx2);
		wk[i].buf = malloc(READ_MIN);
		wk[i].buf_size = READ_MIN;
		if (!wk[i].scan || !wk[i].buf) {
			ret = -ENOMEM;
			break;
		}
		if (pthread_create(&wk[i].thread, NULL, worker__run, &wk[i])) {
			ret = -EAGAIN;
			break;
		}
		started++;
	}
	if (ret) {
		pthread_mutex_lock(&w.lock);
		w.done = 1;
		pthread_cond_broadcast(&w.more);
		pthread_mutex_unlock(&w.lock);
	} else if (opts->progress) {
		walker__progress(&w);
	}
	for (i = 0; i < started; i++)
		pthread_join(wk[i].thread, NULL);
	for (i = 0; !ret && i < started; i++)
		ret = srcscan__merge(all, wk[i].scan);
	if (!ret && w.error)
		ret = w.error;	/* the message is in err already */
	else if (ret)
		snprintf(err, errlen, "scanning %s: %s", tree, strerror(-ret));

out_free:
	for (i = 0; i < n; i++) {
		srcscan__free(wk[i].scan);
		free(wk[i].buf);
	}
	while (w.n_dirs)
		free(w.dirs[--w.n_dirs]);
	free(w.dirs);
	close(w.rootfd);
	if (ret) {
		srcscan__free(all);
		return ret;
	}
	*ret_scan = all;
	return 0;
}
