// SPDX-License-Identifier: GPL-2.0
/*
 * merge.c: `capaudit merge A.json B.json ...`: reports from many hosts as
 * one.  Rows with the same key add their counts (first_seen: the earliest,
 * last_seen: the latest), stacks and kernel counters are united and added,
 * so merging is associative and equals the report of the combined data.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>
#include <linux/types.h>

#include "commands.h"

static const char *const key_fields[] = { "cap", "verdict", "audit", "workload", "comm",
					  "syscall", "call_site", "stack" };

#define N_KEY_FIELDS (sizeof(key_fields) / sizeof(key_fields[0]))

/* "CAP_SYS_ADMIN\x1fgranted\x1f..." : the row's key as one string */
static int row_key(json_object *row, char *buf, size_t size)
{
	json_object *v;
	size_t i, o = 0;
	int n;

	for (i = 0; i < N_KEY_FIELDS; i++) {
		if (!json_object_object_get_ex(row, key_fields[i], &v))
			return -EINVAL;
		n = snprintf(buf + o, size - o, "%s\x1f", v ? json_object_get_string(v) : "");
		if (n < 0 || (size_t)n >= size - o)
			return -ENAMETOOLONG;
		o += n;
	}
	return 0;
}

static __u64 get_u64(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_uint64(v) : 0;
}

static void add_u64(json_object *o, const char *key, __u64 delta, int keep_min)
{
	__u64 have = get_u64(o, key), v = have + delta;

	if (keep_min == 1)
		v = have && have < delta ? have : delta;
	else if (keep_min == -1)
		v = have > delta ? have : delta;
	json_object_object_add(o, key, json_object_new_uint64(v));
}

static int merge_rows(json_object *by_key, json_object *rows)
{
	json_object *row, *have;
	char key[2048];
	size_t i;

	for (i = 0; i < json_object_array_length(rows); i++) {
		row = json_object_array_get_idx(rows, i);
		if (row_key(row, key, sizeof(key)))
			return -EINVAL;
		if (!json_object_object_get_ex(by_key, key, &have)) {
			json_object_object_add(by_key, key, json_object_get(row));
			continue;
		}
		add_u64(have, "count", get_u64(row, "count"), 0);
		add_u64(have, "first_seen", get_u64(row, "first_seen"), 1);
		add_u64(have, "last_seen", get_u64(row, "last_seen"), -1);
	}
	return 0;
}

static void merge_objects(json_object *dst, json_object *src, bool add)
{
	json_object_object_foreach(src, k, v)
	{
		if (add)
			add_u64(dst, k, json_object_get_uint64(v), 0);
		else if (!json_object_object_get_ex(dst, k, NULL))
			json_object_object_add(dst, k, json_object_get(v));
	}
}

/* Checks one input and merges it; -EINVAL with a message naming the file. */
static int merge_file(const char *path, json_object *by_key, json_object *stacks,
		      json_object *kernel)
{
	json_object *in = json_object_from_file(path), *v, *rows, *st, *k;
	int err = -EINVAL;

	if (!in) {
		fprintf(stderr, "capaudit merge: %s: not a JSON file (%s)\n", path,
			json_util_get_last_err());
		return -EINVAL;
	}
	if (!json_object_object_get_ex(in, "schema", &v) ||
	    strcmp(json_object_get_string(v), "capaudit-report") ||
	    !json_object_object_get_ex(in, "version", &v) || json_object_get_int(v) != 1 ||
	    !json_object_object_get_ex(in, "rows", &rows) ||
	    !json_object_is_type(rows, json_type_array) ||
	    !json_object_object_get_ex(in, "stacks", &st) ||
	    !json_object_is_type(st, json_type_object) ||
	    !json_object_object_get_ex(in, "kernel", &k) ||
	    !json_object_is_type(k, json_type_object)) {
		fprintf(stderr, "capaudit merge: %s: not a capaudit report version 1 "
				"(make it with capaudit report --json)\n",
			path);
		goto out_put;
	}
	err = merge_rows(by_key, rows);
	if (err) {
		fprintf(stderr, "capaudit merge: %s: a row lacks a key field\n", path);
		goto out_put;
	}
	merge_objects(stacks, st, false);
	merge_objects(kernel, k, true);
out_put:
	json_object_put(in);
	return err;
}

int cmd_merge(int argc, char **argv)
{
	json_object *out, *by_key, *stacks, *kernel, *rows;
	int i, err = 0;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc < 2 ? stderr : stdout,
			"usage: capaudit merge REPORT.json...\n"
			"Merge reports of capaudit report --json (from many hosts) into one.\n");
		return argc < 2 ? 2 : 0;
	}
	by_key = json_object_new_object();
	stacks = json_object_new_object();
	kernel = json_object_new_object();
	for (i = 1; i < argc && !err; i++)
		err = merge_file(argv[i], by_key, stacks, kernel);
	if (err) {
		json_object_put(by_key);
		json_object_put(stacks);
		json_object_put(kernel);
		return 1;
	}
	out = json_object_new_object();
	rows = json_object_new_array();
	json_object_object_foreach(by_key, key, row)
	{
		(void)key;
		json_object_array_add(rows, json_object_get(row));
	}
	json_object_put(by_key);
	json_object_object_add(out, "schema", json_object_new_string("capaudit-report"));
	json_object_object_add(out, "version", json_object_new_int(1));
	json_object_object_add(out, "rows", rows);
	json_object_object_add(out, "stacks", stacks);
	json_object_object_add(out, "kernel", kernel);
	puts(json_object_to_json_string_ext(out, JSON_C_TO_STRING_PRETTY |
							 JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(out);
	return 0;
}
