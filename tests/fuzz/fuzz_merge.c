// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_merge.c: libFuzzer target for the JSON reports `capaudit merge`
 * reads (merge.c): any bytes are merged or refused with a message naming the
 * input; every number of the merged report is a non-negative integer; a
 * report merged with itself doubles every count (or is refused, naming the
 * field, when a sum would pass 2^64 - 1, never wrapped), and the merged
 * report is itself a report that merges.
 */
#include <assert.h>
#include <stdint.h>
#include <string.h>
#include <linux/types.h>

#include "array_size.h"
#include "merge.h"

static void check_numbers(json_object *row)
{
	static const char *const fields[] = { "cap_nr", "count", "first_seen", "last_seen" };
	json_object *v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		assert(json_object_object_get_ex(row, fields[i], &v));
		assert(json_object_is_type(v, json_type_int));
		assert(json_object_get_int64(v) >= 0 || json_object_get_uint64(v) > INT64_MAX);
	}
}

/*
 * The merged report as text, merged again: it must be accepted.  Returns the
 * sum of its counts (modulo 2^64: only to compare).
 */
static __u64 check_report(const struct merge *m)
{
	json_object *out = merge__report(m), *rows, *count;
	struct merge *again = merge__new();
	const char *text;
	char err[512];
	__u64 sum = 0;
	size_t i;

	assert(out && again);
	assert(json_object_object_get_ex(out, "rows", &rows));
	for (i = 0; i < json_object_array_length(rows); i++) {
		check_numbers(json_object_array_get_idx(rows, i));
		if (json_object_object_get_ex(json_object_array_get_idx(rows, i), "count", &count))
			sum += json_object_get_uint64(count);
	}
	text = json_object_to_json_string_ext(out, JSON_C_TO_STRING_PLAIN);
	assert(!merge__add(again, "merged", text, strlen(text), err, sizeof(err)));
	merge__free(again);
	json_object_put(out);
	return sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct merge *m = merge__new();
	char err[512];
	__u64 once;

	assert(m);
	err[0] = '\0';
	if (merge__add(m, "input.json", (const char *)data, size, err, sizeof(err))) {
		assert(strstr(err, "input.json"));
		goto out_free;
	}
	once = check_report(m);
	if (merge__add(m, "input.json", (const char *)data, size, err, sizeof(err))) {
		/* only a sum past 2^64 - 1 refuses what was accepted once */
		assert(strstr(err, "input.json") && strstr(err, "the sum"));
		goto out_free;
	}
	assert(check_report(m) == 2 * once);
out_free:
	merge__free(m);
	return 0;
}
