// SPDX-License-Identifier: GPL-2.0
/*
 * containers.c: what a container is called, read from the files its runtime
 * keeps (only root's: a rootless runtime's files are its user's to forge):
 *   podman, CRI-O: /var/lib/containers/storage/DRIVER-containers/containers.json,
 *     an array of {"id", "names": [...], "metadata": "{\"image-name\": ...}"}
 *   docker: /var/lib/docker/containers/ID/config.v2.json,
 *     {"Name": "/NAME", "Config": {"Image": ...}}
 * Names and images are checked to be plain (docker's and podman's own
 * rules, bounded), so a report never shows what a file made up.
 */
#include <errno.h>
#include <glob.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>

#include "containers.h"
#include "infile.h"
#include "privs.h"

#define MAX_FILE (64ull << 20)		/* a containers.json of many containers */
#define MAX_NAME 128

/* [a-zA-Z0-9][a-zA-Z0-9_.-]* for names; images add '/', ':' and '@' */
static bool plain(const char *s, bool image)
{
	size_t i, len = strlen(s);

	if (!len || len >= MAX_NAME * (image ? 2 : 1))
		return false;
	for (i = 0; i < len; i++) {
		char c = s[i];

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
			continue;
		if (i && (c == '_' || c == '.' || c == '-'))
			continue;
		if (image && i && (c == '/' || c == ':' || c == '@'))
			continue;
		return false;
	}
	return true;
}

static json_object *read_json(const char *path)
{
	json_object *o = NULL;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	ssize_t n;
	int fd, err;

	/* root's files: the recorder may read them only here (privs.h) */
	privs__read_begin();
	err = infile__open(path, MAX_FILE, &fd);
	privs__read_end();
	if (err)
		return NULL;
	for (;;) {
		if (len + 65536 > cap) {
			char *nb = realloc(buf, cap = len + 65536 + cap);

			if (!nb)
				goto out;
			buf = nb;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0)
			goto out;
		if (!n)
			break;
		len += n;
		if (len > MAX_FILE)
			goto out;
	}
	buf[len] = '\0';
	o = json_tokener_parse(buf);
out:
	free(buf);
	close(fd);
	return o;
}

static const char *str_at(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static int give(const char *n, const char *img, char *name, size_t name_size, char *image,
		size_t image_size)
{
	if (!n || !plain(n, false))
		return -ENOENT;
	snprintf(name, name_size, "%s", n);
	snprintf(image, image_size, "%s", img && plain(img, true) ? img : "");
	return 0;
}

static int from_storage(const char *file, const char *id, char *name, size_t name_size,
			char *image, size_t image_size)
{
	json_object *all = read_json(file), *c, *names, *meta_o = NULL;
	const char *meta;
	size_t i, nr;
	int err = -ENOENT;

	if (!all || !json_object_is_type(all, json_type_array))
		goto out;
	nr = json_object_array_length(all);
	for (i = 0; i < nr; i++) {
		c = json_object_array_get_idx(all, i);
		if (!json_object_is_type(c, json_type_object) || !str_at(c, "id") ||
		    strcmp(str_at(c, "id"), id))
			continue;
		if (!json_object_object_get_ex(c, "names", &names) ||
		    !json_object_is_type(names, json_type_array) ||
		    !json_object_array_length(names))
			break;
		meta = str_at(c, "metadata");
		if (meta && strlen(meta) < 65536)
			meta_o = json_tokener_parse(meta);
		err = give(json_object_get_string(json_object_array_get_idx(names, 0)),
			   meta_o ? str_at(meta_o, "image-name") : NULL, name, name_size, image,
			   image_size);
		break;
	}
out:
	json_object_put(meta_o);
	json_object_put(all);
	return err;
}

static int from_docker(const char *root, const char *id, char *name, size_t name_size,
		       char *image, size_t image_size)
{
	json_object *o, *cfg;
	char path[4096];
	const char *n;
	int err = -ENOENT;

	snprintf(path, sizeof(path), "%s/var/lib/docker/containers/%s/config.v2.json", root, id);
	o = read_json(path);
	if (!o)
		return -ENOENT;
	n = str_at(o, "Name");
	if (n && *n == '/')
		n++;
	if (n && json_object_object_get_ex(o, "Config", &cfg))
		err = give(n, str_at(cfg, "Image"), name, name_size, image, image_size);
	else if (n)
		err = give(n, NULL, name, name_size, image, image_size);
	json_object_put(o);
	return err;
}

int containers__lookup(const char *root, const char *id, char *name, size_t name_size,
		       char *image, size_t image_size)
{
	char pattern[4096];
	glob_t g;
	size_t i;
	int err = -ENOENT;

	for (i = 0; id[i]; i++)
		if (!((id[i] >= '0' && id[i] <= '9') || (id[i] >= 'a' && id[i] <= 'f')))
			return -ENOENT;
	if (i != 64)
		return -ENOENT;
	snprintf(pattern, sizeof(pattern), "%s/var/lib/containers/storage/*-containers/containers.json",
		 root);
	privs__read_begin();
	err = glob(pattern, GLOB_NOSORT, NULL, &g) ? -ENOENT : 0;
	privs__read_end();
	if (!err) {
		err = -ENOENT;
		for (i = 0; err && i < g.gl_pathc; i++)
			err = from_storage(g.gl_pathv[i], id, name, name_size, image, image_size);
		globfree(&g);
	}
	if (err)
		err = from_docker(root, id, name, name_size, image, image_size);
	return err;
}
