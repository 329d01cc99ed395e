/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workload.h: who made a check: the systemd unit when the cgroup path names
 * one, else the container, else the cgroup path, else the executable.
 */
#ifndef CAPAUDIT_WORKLOAD_H
#define CAPAUDIT_WORKLOAD_H

#include <stddef.h>
#include <linux/types.h>

/*
 * The workload a cgroup v2 path ("/system.slice/foo.service") names, into
 * buf: "foo.service", "container:0123456789ab", or "" when the path names
 * neither (the root cgroup, a plain slice).  Returns buf.
 */
const char *workload__from_cgroup_path(const char *path, char *buf, size_t size);

struct workloads;

/* root: the cgroup v2 mount ("/sys/fs/cgroup"); a missing one is no error */
struct workloads *workloads__new(const char *root);
void workloads__free(struct workloads *w);
/* the path of a cgroup id, relative to root ("/" for the root), or NULL */
const char *workloads__cgroup_path(struct workloads *w, __u64 cgroup_id);
/*
 * The workload's name for a check: unit or container from the cgroup (a
 * container by its name where podman or docker recorded one,
 * "container:NAME", else by its id), else
 * the cgroup path (not "/"), else the executable of pid, else comm.  The
 * string stays valid until workloads__free().
 */
const char *workloads__name(struct workloads *w, __u64 cgroup_id, __u32 pid, const char *comm);

/*
 * fn for each container named (with its image) since the last successful
 * call, then forgotten; a non-zero return stops and keeps them for the next
 * call, and is returned.
 */
int workloads__for_each_new_container(struct workloads *w,
				      int (*fn)(const char *workload, const char *image, void *ctx),
				      void *ctx);

#endif
