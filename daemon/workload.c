// SPDX-License-Identifier: GPL-2.0
/*
 * workload.c: cgroup id → cgroup path → workload name, cached.
 *
 * A cgroup v2 id is the inode number of its directory, so the path is found
 * by walking the cgroup mount.  An id never seen before walks at once (a
 * workload's cgroup is usually created just before its first check); an id
 * the walk did not find (a cgroup already gone) walks again at most once a
 * second, so a busy daemon never walks per event.
 */
#define _XOPEN_SOURCE 700
#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "array_size.h"
#include "containers.h"
#include "workload.h"

#define CACHE_SLOTS 4096	/* power of two */
#define NAME_LEN 256

struct wl_entry {
	__u64 key;		/* cgroup id, or pid for executables */
	char *path;		/* cgroup path; for executables, the comm */
	char *name;		/* workload name */
};

#define MAX_NEW_CONTAINERS 64	/* named since the last flush, with an image */

struct workloads {
	char *root;
	char *new_name[MAX_NEW_CONTAINERS], *new_image[MAX_NEW_CONTAINERS];
	int nr_new;
	const char *files_root;	/* where the runtimes' files are: "" for / */
	time_t last_walk;
	__u64 missed[CACHE_SLOTS];	/* ids a walk did not find */
	struct wl_entry cgroups[CACHE_SLOTS];
	struct wl_entry exes[CACHE_SLOTS];
};

static int is_hex_id(const char *s, size_t len)
{
	size_t i;

	if (len < 32)
		return 0;
	for (i = 0; i < len; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/*
 * "docker-<64 hex>.scope", "libpod-<hex>.scope", "libpod-conmon-<hex>.scope",
 * "cri-containerd-<hex>.scope", "<64 hex>": the id, whole, into buf
 */
static int container_full_id(const char *comp, size_t len, char *buf, size_t size)
{
	const char *id = comp, *dash = NULL, *p;
	size_t idlen = len;

	if (len > 6 && !strncmp(comp + len - 6, ".scope", 6))
		idlen -= 6;
	for (p = comp; p < comp + idlen; p++)
		if (*p == '-')
			dash = p;
	if (dash) {
		idlen -= dash + 1 - comp;
		id = dash + 1;
	}
	if (!is_hex_id(id, idlen))
		return 0;
	snprintf(buf, size, "%.*s", (int)idlen, id);
	return 1;
}

static int unit_name(const char *comp, size_t len, char *buf, size_t size)
{
	static const char *const suffixes[] = { ".service", ".scope", ".socket", ".mount",
						".swap" };
	size_t i, sl;

	for (i = 0; i < ARRAY_SIZE(suffixes); i++) {
		sl = strlen(suffixes[i]);
		if (len > sl && !strncmp(comp + len - sl, suffixes[i], sl)) {
			snprintf(buf, size, "%.*s", (int)len, comp);
			return 1;
		}
	}
	return 0;
}

/*
 * The deepest component of path that names a container (1, its whole id in
 * id) or a unit (2), with the workload's name in buf; 0 (buf "") for none
 */
static int name_of_path(const char *path, char *buf, size_t size, char *id, size_t id_size)
{
	const char *end = path + strlen(path), *start;

	buf[0] = '\0';
	/* deepest component first: a container inside a unit is the container */
	while (end > path) {
		while (end > path && end[-1] == '/')
			end--;
		start = end;
		while (start > path && start[-1] != '/')
			start--;
		if (end > start && container_full_id(start, end - start, id, id_size)) {
			snprintf(buf, size, "container:%.12s", id);
			return 1;
		}
		if (end > start && unit_name(start, end - start, buf, size))
			return 2;
		end = start;
	}
	return 0;
}

const char *workload__from_cgroup_path(const char *path, char *buf, size_t size)
{
	char id[NAME_LEN];

	name_of_path(path, buf, size, id, sizeof(id));
	return buf;
}

struct workloads *workloads__new(const char *root)
{
	struct workloads *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->files_root = "";
	w->root = strdup(root);
	if (!w->root) {
		free(w);
		return NULL;
	}
	return w;
}

static void clear_slots(struct wl_entry *slots)
{
	int i;

	for (i = 0; i < CACHE_SLOTS; i++) {
		free(slots[i].path);
		free(slots[i].name);
		slots[i].path = slots[i].name = NULL;
		slots[i].key = 0;
	}
}

static void drop_new(struct workloads *w)
{
	int i;

	for (i = 0; i < w->nr_new; i++) {
		free(w->new_name[i]);
		free(w->new_image[i]);
	}
	w->nr_new = 0;
}

void workloads__free(struct workloads *w)
{
	if (!w)
		return;
	clear_slots(w->cgroups);
	clear_slots(w->exes);
	drop_new(w);
	free(w->root);
	free(w);
}

static size_t slot_index(__u64 key)
{
	return (key * 0x9E3779B97F4A7C15ull) >> 52 & (CACHE_SLOTS - 1);
}

static struct wl_entry *slot(struct wl_entry *slots, __u64 key)
{
	return &slots[slot_index(key)];
}

static int set_entry(struct wl_entry *e, __u64 key, const char *path, const char *name)
{
	char *p = path ? strdup(path) : NULL, *n = strdup(name);

	if ((path && !p) || !n) {
		free(p);
		free(n);
		return -ENOMEM;
	}
	free(e->path);
	free(e->name);
	e->key = key;
	e->path = p;
	e->name = n;
	return 0;
}

/* A container named with its image, for workloads__for_each_new_container() */
static void note_container(struct workloads *w, const char *name, const char *image)
{
	char *n, *i;

	if (!*image || w->nr_new == MAX_NEW_CONTAINERS)
		return;	/* the image is shown where known; more wait for a later walk */
	n = strdup(name);
	i = strdup(image);
	if (!n || !i) {
		free(n);
		free(i);
		return;
	}
	w->new_name[w->nr_new] = n;
	w->new_image[w->nr_new++] = i;
}

int workloads__for_each_new_container(struct workloads *w,
				      int (*fn)(const char *workload, const char *image, void *ctx),
				      void *ctx)
{
	int i, err;

	for (i = 0; i < w->nr_new; i++) {
		err = fn(w->new_name[i], w->new_image[i], ctx);
		if (err)
			return err;	/* kept: the next flush tries again */
	}
	drop_new(w);
	return 0;
}

/* nftw has no context pointer: the walk in progress */
static struct workloads *walking;
static size_t walking_root_len;

static int walk_one(const char *fpath, const struct stat *st, int type, struct FTW *ftw)
{
	const char *rel = fpath + walking_root_len;
	char name[NAME_LEN], id[NAME_LEN], cname[NAME_LEN / 2], image[NAME_LEN];
	struct wl_entry *e;

	(void)ftw;
	if (type != FTW_D)
		return 0;
	if (!*rel)
		rel = "/";
	e = slot(walking->cgroups, st->st_ino);
	if (e->key == (__u64)st->st_ino && e->path && !strcmp(e->path, rel))
		return 0;	/* named at an earlier walk */
	/* a container by the name its runtime gave it, if it gave one */
	if (name_of_path(rel, name, sizeof(name), id, sizeof(id)) == 1 &&
	    !containers__lookup(walking->files_root, id, cname, sizeof(cname), image,
				sizeof(image))) {
		snprintf(name, sizeof(name), "container:%s", cname);
		note_container(walking, name, image);
	}
	set_entry(e, st->st_ino, rel, name[0] ? name : rel);
	return 0;
}

static void walk(struct workloads *w, bool now_or_never)
{
	time_t now = time(NULL);

	if (now == w->last_walk && !now_or_never)
		return;
	w->last_walk = now;
	walking = w;
	walking_root_len = strlen(w->root);
	nftw(w->root, walk_one, 16, FTW_PHYS | FTW_MOUNT);
	walking = NULL;
}

static struct wl_entry *cgroup_entry(struct workloads *w, __u64 cgroup_id)
{
	struct wl_entry *e = slot(w->cgroups, cgroup_id);

	__u64 *missed = &w->missed[slot_index(cgroup_id)];

	if (e->key == cgroup_id && e->name)
		return e;
	walk(w, *missed != cgroup_id);
	if (e->key == cgroup_id && e->name)
		return e;
	*missed = cgroup_id;
	return NULL;
}

const char *workloads__cgroup_path(struct workloads *w, __u64 cgroup_id)
{
	struct wl_entry *e = cgroup_entry(w, cgroup_id);

	return e ? e->path : NULL;
}

static const char *exe_name(struct workloads *w, __u32 pid, const char *comm)
{
	struct wl_entry *e = slot(w->exes, pid);
	char link[32], exe[NAME_LEN];
	ssize_t n;

	/* a pid's executable changes with execve(), and so does its comm */
	if (e->key == pid && e->name && !strcmp(e->path, comm))
		return e->name;
	snprintf(link, sizeof(link), "/proc/%u/exe", pid);
	n = readlink(link, exe, sizeof(exe) - 1);
	if (n <= 0)
		return comm;	/* gone, or a kernel thread */
	exe[n] = '\0';
	return set_entry(e, pid, comm, exe) ? comm : e->name;
}

const char *workloads__name(struct workloads *w, __u64 cgroup_id, __u32 pid, const char *comm)
{
	struct wl_entry *e = cgroup_entry(w, cgroup_id);

	if (e && strcmp(e->name, "/"))
		return e->name;
	return exe_name(w, pid, comm);
}
