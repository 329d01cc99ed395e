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
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include <linux/types.h>

#include "array_size.h"
#include "commands.h"
#include "merge.h"
#include "outfmt.h"

/* Reports bigger than this are refused rather than read into memory */
#define MERGE_MAX_REPORT	(1ul << 30)

struct merge {
	json_object *by_key;	/* row key -> row */
	json_object *stacks;	/* stack hash -> frames */
	json_object *kernel;	/* counter name -> value */
};

static const char *const key_fields[] = { "cap", "verdict", "audit", "workload", "comm",
					  "syscall", "call_site", "stack" };

#define N_KEY_FIELDS ARRAY_SIZE(key_fields)

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

/* Every row has its key fields: checked before anything is merged */
static int check_rows(json_object *rows)
{
	char key[2048];
	size_t i;

	for (i = 0; i < json_object_array_length(rows); i++)
		if (row_key(json_object_array_get_idx(rows, i), key, sizeof(key)))
			return -EINVAL;
	return 0;
}

static void merge_rows(json_object *by_key, json_object *rows)
{
	json_object *row, *have;
	char key[2048];
	size_t i;

	for (i = 0; i < json_object_array_length(rows); i++) {
		row = json_object_array_get_idx(rows, i);
		row_key(row, key, sizeof(key));
		if (!json_object_object_get_ex(by_key, key, &have)) {
			/* a copy: a later report's counts must not change this one's */
			have = NULL;
			json_object_deep_copy(row, &have, NULL);
			json_object_object_add(by_key, key, have);
			continue;
		}
		add_u64(have, "count", get_u64(row, "count"), 0);
		add_u64(have, "first_seen", get_u64(row, "first_seen"), 1);
		add_u64(have, "last_seen", get_u64(row, "last_seen"), -1);
	}
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

struct merge *merge__new(void)
{
	struct merge *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->by_key = json_object_new_object();
	m->stacks = json_object_new_object();
	m->kernel = json_object_new_object();
	if (!m->by_key || !m->stacks || !m->kernel) {
		merge__free(m);
		return NULL;
	}
	return m;
}

void merge__free(struct merge *m)
{
	if (!m)
		return;
	json_object_put(m->by_key);
	json_object_put(m->stacks);
	json_object_put(m->kernel);
	free(m);
}

static bool is_report(json_object *in, json_object **rows, json_object **st, json_object **k)
{
	json_object *v;

	return json_object_object_get_ex(in, "schema", &v) && v &&
	       !strcmp(json_object_get_string(v), "capaudit-report") &&
	       json_object_object_get_ex(in, "version", &v) && json_object_get_int(v) == 1 &&
	       json_object_object_get_ex(in, "rows", rows) &&
	       json_object_is_type(*rows, json_type_array) &&
	       json_object_object_get_ex(in, "stacks", st) &&
	       json_object_is_type(*st, json_type_object) &&
	       json_object_object_get_ex(in, "kernel", k) &&
	       json_object_is_type(*k, json_type_object);
}

static bool only_blanks(const char *p, const char *end)
{
	for (; p < end; p++)
		if (!strchr(" \t\r\n", *p) || !*p)
			return false;
	return true;
}

static const char *parse_error(json_tokener *tok, json_object *in)
{
	enum json_tokener_error e = json_tokener_get_error(tok);

	if (e == json_tokener_continue)
		return "it ends in the middle of a value";
	if (e == json_tokener_success)
		return in ? "text follows the JSON value" : "empty";
	return json_tokener_error_desc(e);
}

/* Does text hold invalid UTF-8 (a report of another host may) */
static bool invalid_utf8(const char *text, size_t len)
{
	const unsigned char *s = (const unsigned char *)text;
	int n;

	for (; len; s += n, len -= n) {
		n = outfmt__utf8_len(s, len);
		if (!n)
			return true;
	}
	return false;
}

int merge__add(struct merge *m, const char *name, const char *text, size_t len, char *err,
	       size_t errlen)
{
	json_tokener *tok = json_tokener_new();
	json_object *in = NULL, *rows, *st, *k;
	char *fixed = NULL;
	int ret = -EINVAL;

	if (!tok)
		return -ENOMEM;
	/*
	 * Invalid UTF-8 can only stand in strings (elsewhere it is a syntax
	 * error either way): each invalid byte becomes U+FFFD, as in every JSON
	 * capaudit writes, so names that differ only there are one key.
	 */
	if (invalid_utf8(text, len)) {
		fixed = outfmt__utf8_dup(text, len, &len);
		if (!fixed) {
			json_tokener_free(tok);
			return -ENOMEM;
		}
		text = fixed;
	}
	if (len < (size_t)INT32_MAX)
		in = json_tokener_parse_ex(tok, text, (int)len);
	if (!in || json_tokener_get_error(tok) != json_tokener_success ||
	    !only_blanks(text + json_tokener_get_parse_end(tok), text + len)) {
		snprintf(err, errlen, "%s: not a JSON file (%s)", name, parse_error(tok, in));
		goto out_put;
	}
	if (!is_report(in, &rows, &st, &k)) {
		snprintf(err, errlen, "%s: not a capaudit report version 1 "
			 "(make it with capaudit report --json)", name);
		goto out_put;
	}
	if (check_rows(rows)) {
		snprintf(err, errlen, "%s: a row lacks a key field", name);
		goto out_put;
	}
	merge_rows(m->by_key, rows);
	merge_objects(m->stacks, st, false);
	merge_objects(m->kernel, k, true);
	ret = 0;
out_put:
	json_object_put(in);
	json_tokener_free(tok);
	free(fixed);
	return ret;
}

json_object *merge__report(const struct merge *m)
{
	json_object *out = json_object_new_object(), *rows = json_object_new_array(), *copy;

	if (!out || !rows) {
		json_object_put(out);
		json_object_put(rows);
		return NULL;
	}
	json_object_object_foreach(m->by_key, key, row)
	{
		(void)key;
		json_object_array_add(rows, json_object_get(row));
	}
	json_object_object_add(out, "schema", json_object_new_string("capaudit-report"));
	json_object_object_add(out, "version", json_object_new_int(1));
	json_object_object_add(out, "rows", rows);
	copy = NULL;
	json_object_deep_copy(m->stacks, &copy, NULL);
	json_object_object_add(out, "stacks", copy);
	copy = NULL;
	json_object_deep_copy(m->kernel, &copy, NULL);
	json_object_object_add(out, "kernel", copy);
	return out;
}

/* The whole file in a malloc()ed buffer; -errno or -EFBIG */
static int read_report(const char *path, char **ret_text, size_t *ret_len)
{
	FILE *f = fopen(path, "re");
	size_t len = 0, cap = 0, n;
	char *text = NULL, *p;
	int err = 0;

	if (!f)
		return -errno;
	do {
		if (len == cap) {
			cap = cap ? cap * 2 : 65536;
			p = cap > MERGE_MAX_REPORT ? NULL : realloc(text, cap);
			if (!p) {
				err = cap > MERGE_MAX_REPORT ? -EFBIG : -ENOMEM;
				goto out_close;
			}
			text = p;
		}
		n = fread(text + len, 1, cap - len, f);
		len += n;
	} while (n);
	if (ferror(f))
		err = -EIO;
out_close:
	fclose(f);
	if (err) {
		free(text);
		return err;
	}
	*ret_text = text;
	*ret_len = len;
	return 0;
}

static int merge_file(struct merge *m, const char *path)
{
	char err[512], *text = NULL;
	size_t len = 0;
	int ret;

	ret = read_report(path, &text, &len);
	if (ret) {
		fprintf(stderr, "capaudit merge: cannot read %s: %s\n", path, strerror(-ret));
		return ret;
	}
	ret = merge__add(m, path, text, len, err, sizeof(err));
	if (ret)
		fprintf(stderr, "capaudit merge: %s\n", err);
	free(text);
	return ret;
}

int cmd_merge(int argc, char **argv)
{
	struct merge *m;
	json_object *out;
	int i, err = 0;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fprintf(argc < 2 ? stderr : stdout,
			"usage: capaudit merge REPORT.json...\n"
			"Merge reports of capaudit report --json (from many hosts) into one.\n");
		return argc < 2 ? 2 : 0;
	}
	m = merge__new();
	if (!m)
		return 1;
	for (i = 1; i < argc && !err; i++)
		err = merge_file(m, argv[i]);
	out = err ? NULL : merge__report(m);
	merge__free(m);
	if (!out)
		return 1;
	outfmt__json_print(stdout, out);
	json_object_put(out);
	return outfmt__finish("merge") ? 1 : 0;
}
