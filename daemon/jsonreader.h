/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jsonreader.h: a JSON document read one value at a time, from a file
 * descriptor in 64 KiB chunks or from memory, so that a large document (a
 * report of millions of rows) never stands whole in memory.  The caller walks
 * the structure: jsonreader__next() for the punctuation ({ } [ ] : ,),
 * jsonreader__value() for each value it wants as a json-c object, each
 * bounded in size.
 */
#ifndef CAPAUDIT_JSONREADER_H
#define CAPAUDIT_JSONREADER_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>

struct jsonreader;

/*
 * A reader of fd (read(2) until end of file, at most max_bytes, not closed
 * here), or of the len bytes at text (fd < 0).  NULL on ENOMEM.
 */
struct jsonreader *jsonreader__new(int fd, const char *text, size_t len,
				   unsigned long long max_bytes);
void jsonreader__free(struct jsonreader *r);

/*
 * The next character that is not JSON white space, consumed when take is
 * true: 0 and *ret_c, -ENODATA at the end of the input, -EFBIG past
 * max_bytes, or -errno of read(2).
 */
int jsonreader__next(struct jsonreader *r, int *ret_c, bool take);

/*
 * The next value, a new object (json_object_put() it; a JSON null is
 * NULL with 0 returned).  Its text is at most max_len bytes; invalid UTF-8
 * in it becomes U+FFFD, as in every JSON capaudit writes.  0, -E2BIG past
 * max_len, -EBADMSG not JSON (see jsonreader__error()), -ENODATA the input
 * ends in it, or as jsonreader__next().
 */
int jsonreader__value(struct jsonreader *r, size_t max_len, json_object **ret);

/* The text of the last value read (after U+FFFD replacement), and its length */
const char *jsonreader__text(const struct jsonreader *r, size_t *ret_len);

/* Why the last value was not JSON (-EBADMSG), for a message */
const char *jsonreader__error(const struct jsonreader *r);

/* Bytes of the input consumed so far */
unsigned long long jsonreader__offset(const struct jsonreader *r);

#endif
