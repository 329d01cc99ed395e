/* SPDX-License-Identifier: GPL-2.0 */
/*
 * containers.h: a container's name and image from its runtime's own records,
 * for the workload a container's cgroup names.
 */
#ifndef CAPAUDIT_CONTAINERS_H
#define CAPAUDIT_CONTAINERS_H

#include <stddef.h>

/*
 * The name and image of the container with the full hex id (64 digits), as
 * podman (containers/storage under root, any driver) or docker recorded
 * them: 0, or -ENOENT when neither knows it (or what they say is not a
 * plain name).  root: "" for /, or a directory standing for / (tests).
 */
int containers__lookup(const char *root, const char *id, char *name, size_t name_size,
		       char *image, size_t image_size);

#endif
