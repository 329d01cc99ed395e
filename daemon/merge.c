// SPDX-License-Identifier: GPL-2.0
/*
 * merge.c: reports from many hosts as one.  Rows with the same key add their
 * counts (first_seen: the earliest, last_seen: the latest), stacks are united
 * and kernel counters added, so merging is associative, independent of the
 * order of the reports, and equals the report of the combined data.  Every
 * value is checked for its type; a sum past 2^64 - 1 is refused.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include <linux/types.h>

#include "array_size.h"
#include "jsonreader.h"
#include "merge.h"

#define U64_MAX_TEXT	"18446744073709551615"

struct merge {
	json_object *rows;	/* row key -> row */
	json_object *stacks;	/* stack hash -> frames */
	json_object *kernel;	/* counter name -> value */
};

/* One input being read: its own rows, added to the merge once all is well */
struct input {
	const struct merge *m;
	struct merge *in;
	struct jsonreader *r;
	const char *name;
	char *err;
	size_t errlen;
	long row;		/* index of the row being read, or -1 */
	size_t limit;		/* of the value being read */
};

static const char *const key_fields[] = { "cap", "verdict", "audit", "workload", "comm",
					  "syscall", "call_site", "stack" };
static const char *const u64_fields[] = { "cap_nr", "count", "first_seen", "last_seen" };

#define N_KEY_FIELDS ARRAY_SIZE(key_fields)

/* "FILE: row N: <message>"; returns err */
static int fail(struct input *c, int err, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = c->row < 0 ? snprintf(c->err, c->errlen, "%s: ", c->name) :
			 snprintf(c->err, c->errlen, "%s: row %ld: ", c->name, c->row);
	if (n >= 0 && (size_t)n < c->errlen) {
		va_start(ap, fmt);
		vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return err;
}

static int not_report(struct input *c)
{
	c->row = -1;
	return fail(c, -EINVAL, "not a capaudit report version 1 (make it with capaudit report --json)");
}

/* A reader's error as a message */
static int read_fail(struct input *c, int err)
{
	switch (err) {
	case -ENODATA:
		if (!jsonreader__offset(c->r))
			return fail(c, -EINVAL, "empty (no report in it)");
		return fail(c, -EINVAL, "not a JSON file (it ends in the middle of a value: truncated)");
	case -EBADMSG:
		return fail(c, -EINVAL, "not a JSON file (%s near byte %llu)",
			    jsonreader__error(c->r), jsonreader__offset(c->r));
	case -E2BIG:
		return fail(c, -E2BIG, "a value longer than %zu bytes of JSON text (the limit)",
			    c->limit);
	case -EFBIG:
		return fail(c, -EFBIG, "larger than %llu bytes (the limit of an input)",
			    MERGE_MAX_INPUT);
	case -ENOMEM:
		return fail(c, -ENOMEM, "out of memory");
	}
	return fail(c, err, "cannot read: %s", strerror(-err));
}

/* Takes the punctuation c, or says what was expected */
static int expect(struct input *c, const char *chars, int *ret_c)
{
	int err, ch;

	err = jsonreader__next(c->r, &ch, true);
	if (err)
		return read_fail(c, err);
	if (!strchr(chars, ch) || !ch)
		return fail(c, -EINVAL, "not a JSON file (expected '%c'%s%.1s%s near byte %llu)",
			    chars[0], chars[1] ? " or '" : "", chars + 1, chars[1] ? "'" : "",
			    jsonreader__offset(c->r));
	if (ret_c)
		*ret_c = ch;
	return 0;
}

static int value(struct input *c, size_t max, json_object **ret)
{
	int err;

	c->limit = max;
	err = jsonreader__value(c->r, max, ret);

	return err ? read_fail(c, err) : 0;
}

/* A JSON text for a message, short */
static const char *shown(json_object *v)
{
	return v ? json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN) : "null";
}

/*
 * A non-negative integer that fits in 64 bits.  json-c saturates a larger
 * one to 2^64 - 1: that value is taken only where the text says it.
 */
static int get_u64(struct input *c, json_object *v, const char *field, __u64 *ret)
{
	const char *text, *p;
	size_t len;

	if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
		return fail(c, -EINVAL, "%s: %.40s is not a non-negative integer", field,
			    shown(v));
	*ret = json_object_get_uint64(v);
	if (*ret != UINT64_MAX)
		return 0;
	text = jsonreader__text(c->r, &len);
	for (p = text; (p = strstr(p, U64_MAX_TEXT)); p++)
		if ((p == text || !strchr("0123456789", p[-1])) &&
		    (!p[strlen(U64_MAX_TEXT)] || !strchr("0123456789.eE", p[strlen(U64_MAX_TEXT)])))
			return 0;
	return fail(c, -ERANGE, "%s: does not fit in 64 bits (at most " U64_MAX_TEXT ")", field);
}

/* a + b, or -ERANGE with a message */
static int add_u64(struct input *c, const char *field, __u64 a, __u64 b, __u64 *ret)
{
	if (a > UINT64_MAX - b)
		return fail(c, -ERANGE, "%s: the sum with the reports merged is more than "
			    U64_MAX_TEXT " (2^64 - 1): refused rather than wrapped", field);
	*ret = a + b;
	return 0;
}

static __u64 u64_of(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_uint64(v) : 0;
}

static void set_u64(json_object *o, const char *key, __u64 v)
{
	json_object_object_add(o, key, json_object_new_uint64(v));
}

/* A name: a string of at most MERGE_MAX_STRING bytes, without NUL */
static int check_string(struct input *c, json_object *v, const char *field, bool null_ok)
{
	size_t len;

	if (!v && null_ok)
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return fail(c, -EINVAL, "%s: %.40s is not a string", field, shown(v));
	len = (size_t)json_object_get_string_len(v);
	if (len > MERGE_MAX_STRING)
		return fail(c, -E2BIG, "%s: %zu bytes, longer than the limit of %d", field, len,
			    MERGE_MAX_STRING);
	if (strlen(json_object_get_string(v)) != len)
		return fail(c, -EINVAL, "%s: holds a NUL character", field);
	return 0;
}

/* "<len>:<value>;" per key field (null: "-;"), NULL on ENOMEM */
static char *row_key(json_object *row)
{
	size_t size = 1, i, o = 0;
	json_object *v;
	char *key;

	for (i = 0; i < N_KEY_FIELDS; i++) {
		json_object_object_get_ex(row, key_fields[i], &v);
		size += 24 + (v ? (size_t)json_object_get_string_len(v) : 0);
	}
	key = malloc(size);
	if (!key)
		return NULL;
	for (i = 0; i < N_KEY_FIELDS; i++) {
		json_object_object_get_ex(row, key_fields[i], &v);
		if (v)
			o += snprintf(key + o, size - o, "%d:%s;", json_object_get_string_len(v),
				      json_object_get_string(v));
		else
			o += snprintf(key + o, size - o, "-;");
	}
	return key;
}

/* A new row of the canonical fields: the key's, then the numbers */
static json_object *new_row(json_object *row, const __u64 nums[])
{
	json_object *out = json_object_new_object(), *v;
	size_t i;

	if (!out)
		return NULL;
	for (i = 0; i < N_KEY_FIELDS; i++) {
		json_object_object_get_ex(row, key_fields[i], &v);
		json_object_object_add(out, key_fields[i], json_object_get(v));
	}
	for (i = 0; i < ARRAY_SIZE(u64_fields); i++)
		set_u64(out, u64_fields[i], nums[i]);
	return out;
}

/* Adds nums to have (the sum was checked): cap_nr the least, count added, times min and max */
static void combine(json_object *have, const __u64 nums[])
{
	__u64 first = u64_of(have, "first_seen"), last = u64_of(have, "last_seen");

	if (nums[0] < u64_of(have, "cap_nr"))
		set_u64(have, "cap_nr", nums[0]);
	set_u64(have, "count", u64_of(have, "count") + nums[1]);
	set_u64(have, "first_seen", first < nums[2] ? first : nums[2]);
	set_u64(have, "last_seen", last > nums[3] ? last : nums[3]);
}

static int add_row(struct input *c, json_object *row)
{
	__u64 nums[ARRAY_SIZE(u64_fields)], sum = 0;
	json_object *v, *have;
	size_t i;
	char *key;
	int err;

	if (!json_object_is_type(row, json_type_object))
		return fail(c, -EINVAL, "not an object");
	for (i = 0; i < N_KEY_FIELDS; i++) {
		if (!json_object_object_get_ex(row, key_fields[i], &v))
			return fail(c, -EINVAL, "lacks the key field '%s'", key_fields[i]);
		err = check_string(c, v, key_fields[i], !strcmp(key_fields[i], "syscall"));
		if (err)
			return err;
	}
	for (i = 0; i < ARRAY_SIZE(u64_fields); i++) {
		if (!json_object_object_get_ex(row, u64_fields[i], &v))
			return fail(c, -EINVAL, "lacks the field '%s'", u64_fields[i]);
		err = get_u64(c, v, u64_fields[i], &nums[i]);
		if (err)
			return err;
	}
	key = row_key(row);
	if (!key)
		return fail(c, -ENOMEM, "out of memory");
	/* this input's sum, then with what the merge holds: refused here, naming the row */
	have = NULL;
	json_object_object_get_ex(c->in->rows, key, &have);
	err = add_u64(c, "count", have ? u64_of(have, "count") : 0, nums[1], &sum);
	if (!err && json_object_object_get_ex(c->m->rows, key, &v))
		err = add_u64(c, "count", u64_of(v, "count"), sum, &sum);
	if (!err && have) {
		combine(have, nums);
	} else if (!err) {
		have = new_row(row, nums);
		if (!have || json_object_object_add(c->in->rows, key, have))
			err = fail(c, -ENOMEM, "out of memory");
	}
	free(key);
	return err;
}

/* Of two stacks under one hash, the one whose text sorts first */
static void add_stack(struct merge *m, const char *hash, json_object *frames)
{
	json_object *have;

	if (json_object_object_get_ex(m->stacks, hash, &have) &&
	    strcmp(shown(have), shown(frames)) <= 0)
		return;
	json_object_object_add(m->stacks, hash, json_object_get(frames));
}

static int check_frames(struct input *c, json_object *frames)
{
	size_t i;
	int err;

	if (!json_object_is_type(frames, json_type_array))
		return fail(c, -EINVAL, "stacks: %.40s is not a list of frames", shown(frames));
	for (i = 0; i < json_object_array_length(frames); i++) {
		err = check_string(c, json_object_array_get_idx(frames, i), "stacks: frame",
				   false);
		if (err)
			return err;
	}
	return 0;
}

static int add_member(struct input *c, const char *section, const char *name, json_object *v)
{
	char field[128];
	__u64 n, have, sum = 0;
	json_object *o;
	int err;

	if (!strcmp(section, "stacks")) {
		err = check_frames(c, v);
		if (!err)
			add_stack(c->in, name, v);
		return err;
	}
	snprintf(field, sizeof(field), "kernel: %.64s", name);
	err = get_u64(c, v, field, &n);
	if (err)
		return err;
	have = json_object_object_get_ex(c->in->kernel, name, &o) ? json_object_get_uint64(o) : 0;
	err = add_u64(c, field, have, n, &sum);
	if (!err && json_object_object_get_ex(c->m->kernel, name, &o))
		err = add_u64(c, field, json_object_get_uint64(o), sum, &n);
	if (!err)
		set_u64(c->in->kernel, name, sum);
	return err;
}

/* The opening bracket of brackets; 1 when the closing one follows (taken) */
static int open_container(struct input *c, const char *brackets)
{
	char open[2] = { brackets[0] }, close[2] = { brackets[1] };
	int err, ch;

	err = expect(c, open, NULL);
	if (err)
		return err;
	err = jsonreader__next(c->r, &ch, false);
	if (err)
		return read_fail(c, err);
	if (ch != close[0])
		return 0;
	err = expect(c, close, NULL);
	return err ? err : 1;
}

/* "[ row, ... ]" */
static int read_rows(struct input *c)
{
	json_object *row;
	int err, ch;

	err = open_container(c, "[]");
	if (err)
		return err < 0 ? err : 0;
	for (c->row = 0;; c->row++) {
		err = value(c, MERGE_MAX_VALUE, &row);
		if (!err)
			err = add_row(c, row);
		json_object_put(row);
		if (!err)
			err = expect(c, ",]", &ch);
		if (err || ch == ']')
			break;
	}
	c->row = -1;
	return err;
}

/* "{ "name": value, ... }" of stacks or kernel */
static int read_members(struct input *c, const char *section)
{
	json_object *name, *v;
	int err, ch;

	err = open_container(c, "{}");
	if (err)
		return err < 0 ? err : 0;
	do {
		v = NULL;
		err = value(c, MERGE_MAX_VALUE, &name);
		if (!err)
			err = check_string(c, name, section, false);
		if (!err)
			err = expect(c, ":", NULL);
		if (!err)
			err = value(c, MERGE_MAX_VALUE, &v);
		if (!err)
			err = add_member(c, section, json_object_get_string(name), v);
		json_object_put(name);
		json_object_put(v);
		if (!err)
			err = expect(c, ",}", &ch);
	} while (!err && ch == ',');
	return err;
}

/* A member of the report: the known ones checked, others skipped */
static int read_member(struct input *c, const char *key, unsigned int *seen)
{
	static const char *const known[] = { "schema", "version", "rows", "stacks", "kernel" };
	json_object *v = NULL;
	unsigned int i;
	int err = 0;

	for (i = 0; i < ARRAY_SIZE(known) && strcmp(key, known[i]); i++)
		;
	if (i < ARRAY_SIZE(known) && (*seen & (1u << i)))
		return fail(c, -EINVAL, "the member '%s' twice", key);
	*seen |= 1u << i;
	if (i == 2)
		return read_rows(c);
	if (i == 3 || i == 4)
		return read_members(c, known[i]);
	err = value(c, MERGE_MAX_VALUE, &v);
	if (!err && i == 0 && (!json_object_is_type(v, json_type_string) ||
			       strcmp(json_object_get_string(v), "capaudit-report")))
		err = not_report(c);
	if (!err && i == 1 && (!json_object_is_type(v, json_type_int) ||
			       json_object_get_int64(v) != 1))
		err = fail(c, -EINVAL, "version %.40s: this capaudit merges version 1 (the integer 1) only",
			   shown(v));
	json_object_put(v);
	return err;
}

static int read_report(struct input *c)
{
	unsigned int seen = 0;
	json_object *key;
	int err, ch;

	err = jsonreader__next(c->r, &ch, true);
	if (err)
		return read_fail(c, err);
	if (ch != '{')
		return fail(c, -EINVAL, "not a JSON object (make it with capaudit report --json)");
	err = jsonreader__next(c->r, &ch, false);
	if (err)
		return read_fail(c, err);
	if (ch == '}')
		return not_report(c);
	do {
		err = value(c, MERGE_MAX_VALUE, &key);
		if (!err && !json_object_is_type(key, json_type_string))
			err = fail(c, -EINVAL, "not a JSON file (a member name is not a string)");
		if (!err)
			err = expect(c, ":", NULL);
		if (!err)
			err = read_member(c, json_object_get_string(key), &seen);
		json_object_put(key);
		if (!err)
			err = expect(c, ",}", &ch);
	} while (!err && ch == ',');
	if (err)
		return err;
	err = jsonreader__next(c->r, &ch, false);
	if (err != -ENODATA)
		return err ? read_fail(c, err) :
			     fail(c, -EINVAL, "not a JSON file (text follows the JSON value)");
	return (seen & 0x1f) == 0x1f ? 0 : not_report(c);
}

/* The input's rows, stacks and counters into m (sums were checked) */
static void absorb(struct merge *m, struct merge *in)
{
	json_object *have;

	json_object_object_foreach(in->rows, key, row) {
		__u64 nums[ARRAY_SIZE(u64_fields)];
		size_t i;

		if (!json_object_object_get_ex(m->rows, key, &have)) {
			json_object_object_add(m->rows, key, json_object_get(row));
			continue;
		}
		for (i = 0; i < ARRAY_SIZE(u64_fields); i++)
			nums[i] = u64_of(row, u64_fields[i]);
		combine(have, nums);
	}
	json_object_object_foreach(in->stacks, hash, frames)
		add_stack(m, hash, frames);
	json_object_object_foreach(in->kernel, name, v)
		set_u64(m->kernel, name, u64_of(m->kernel, name) + json_object_get_uint64(v));
}

static int add_input(struct merge *m, const char *name, struct jsonreader *r, char *err,
		     size_t errlen)
{
	struct input c = { .m = m, .r = r, .name = name, .err = err, .errlen = errlen,
			   .row = -1 };
	int ret;

	if (!r)
		return -ENOMEM;
	c.in = merge__new();
	ret = c.in ? read_report(&c) : -ENOMEM;
	if (!ret)
		absorb(m, c.in);
	merge__free(c.in);
	jsonreader__free(r);
	return ret;
}

int merge__add(struct merge *m, const char *name, const char *text, size_t len, char *err,
	       size_t errlen)
{
	return add_input(m, name, jsonreader__new(-1, text, len, MERGE_MAX_INPUT), err, errlen);
}

int merge__add_fd(struct merge *m, const char *name, int fd, char *err, size_t errlen)
{
	return add_input(m, name, jsonreader__new(fd, NULL, 0, MERGE_MAX_INPUT), err, errlen);
}

struct merge *merge__new(void)
{
	struct merge *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->rows = json_object_new_object();
	m->stacks = json_object_new_object();
	m->kernel = json_object_new_object();
	if (!m->rows || !m->stacks || !m->kernel) {
		merge__free(m);
		return NULL;
	}
	return m;
}

void merge__free(struct merge *m)
{
	if (!m)
		return;
	json_object_put(m->rows);
	json_object_put(m->stacks);
	json_object_put(m->kernel);
	free(m);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The values of obj in the order of their keys: an array, or an object */
static json_object *sorted(json_object *obj, bool as_array)
{
	size_t n = 0, i = json_object_object_length(obj);
	const char **keys = malloc((i ? i : 1) * sizeof(*keys));
	json_object *out = as_array ? json_object_new_array() : json_object_new_object(), *v;

	if (!keys || !out) {
		free(keys);
		json_object_put(out);
		return NULL;
	}
	json_object_object_foreach(obj, key, val) {
		(void)val;
		keys[n++] = key;
	}
	qsort(keys, n, sizeof(*keys), cmp_str);
	for (i = 0; i < n; i++) {
		json_object_object_get_ex(obj, keys[i], &v);
		if (as_array)
			json_object_array_add(out, json_object_get(v));
		else
			json_object_object_add(out, keys[i], json_object_get(v));
	}
	free(keys);
	return out;
}

json_object *merge__report(const struct merge *m)
{
	json_object *out = json_object_new_object(), *rows = sorted(m->rows, true);
	json_object *stacks = sorted(m->stacks, false), *kernel = sorted(m->kernel, false);

	if (!out || !rows || !stacks || !kernel) {
		json_object_put(out);
		json_object_put(rows);
		json_object_put(stacks);
		json_object_put(kernel);
		return NULL;
	}
	json_object_object_add(out, "schema", json_object_new_string("capaudit-report"));
	json_object_object_add(out, "version", json_object_new_int(1));
	json_object_object_add(out, "rows", rows);
	json_object_object_add(out, "stacks", stacks);
	json_object_object_add(out, "kernel", kernel);
	return out;
}
