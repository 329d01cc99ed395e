// SPDX-License-Identifier: GPL-2.0
/*
 * jsonreader.c: a JSON document read one value at a time (jsonreader.h).
 * json-c's tokener parses a value fed in pieces; the reader feeds it at most
 * a chunk at a time, keeps the value's text (bounded) and skips the white
 * space and punctuation between values itself.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jsonreader.h"
#include "outfmt.h"

#define CHUNK	65536

struct jsonreader {
	int fd;
	const char *buf;		/* the chunk: own[] or the caller's text */
	size_t pos, len;
	unsigned long long base;	/* bytes of the input before buf */
	unsigned long long max_bytes;
	json_tokener *tok;
	char *span;			/* the text of the last value */
	size_t span_len, span_size;
	const char *error;
	char own[CHUNK];
};

struct jsonreader *jsonreader__new(int fd, const char *text, size_t len,
				   unsigned long long max_bytes)
{
	struct jsonreader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->tok = json_tokener_new();
	if (!r->tok) {
		free(r);
		return NULL;
	}
	r->fd = fd;
	r->max_bytes = max_bytes;
	r->buf = fd < 0 ? text : r->own;
	r->len = fd < 0 ? len : 0;
	return r;
}

void jsonreader__free(struct jsonreader *r)
{
	if (!r)
		return;
	json_tokener_free(r->tok);
	free(r->span);
	free(r);
}

/* Something in buf at pos, or why not */
static int fill(struct jsonreader *r)
{
	ssize_t n;

	if (r->fd < 0 && r->len > r->max_bytes)
		return -EFBIG;
	if (r->pos < r->len)
		return 0;
	if (r->fd < 0)
		return -ENODATA;
	do {
		n = read(r->fd, r->own, sizeof(r->own));
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (!n)
		return -ENODATA;
	r->base += r->len;
	r->pos = 0;
	r->len = (size_t)n;
	return r->base + r->len > r->max_bytes ? -EFBIG : 0;
}

int jsonreader__next(struct jsonreader *r, int *ret_c, bool take)
{
	int err;

	for (;;) {
		err = fill(r);
		if (err)
			return err;
		if (!strchr(" \t\r\n", r->buf[r->pos]) || !r->buf[r->pos])
			break;
		r->pos++;
	}
	*ret_c = (unsigned char)r->buf[r->pos];
	if (take)
		r->pos++;
	return 0;
}

static int span_add(struct jsonreader *r, const char *s, size_t n, size_t max_len)
{
	size_t size;
	char *p;

	if (n > max_len - r->span_len)
		return -E2BIG;
	if (r->span_len + n + 1 > r->span_size) {
		size = r->span_size ? r->span_size : CHUNK;
		while (size < r->span_len + n + 1)
			size *= 2;
		p = realloc(r->span, size);
		if (!p)
			return -ENOMEM;
		r->span = p;
		r->span_size = size;
	}
	memcpy(r->span + r->span_len, s, n);
	r->span_len += n;
	r->span[r->span_len] = '\0';
	return 0;
}

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

/*
 * Invalid UTF-8 can only stand in strings (elsewhere it is a syntax error
 * either way): the value again from its text with each invalid byte U+FFFD,
 * so that names differing only there are one name.
 */
static int reparse_valid(struct jsonreader *r, json_object **ret)
{
	size_t len;
	char *fixed = outfmt__utf8_dup(r->span, r->span_len, &len);

	if (!fixed)
		return -ENOMEM;
	free(r->span);
	r->span = fixed;
	r->span_len = len;
	r->span_size = len + 1;
	json_object_put(*ret);
	json_tokener_reset(r->tok);
	*ret = json_tokener_parse_ex(r->tok, fixed, (int)len);
	return json_tokener_get_error(r->tok) == json_tokener_success ? 0 : -EBADMSG;
}

int jsonreader__value(struct jsonreader *r, size_t max_len, json_object **ret)
{
	enum json_tokener_error e;
	json_object *o = NULL;
	size_t n, used;
	int err;

	*ret = NULL;
	r->span_len = 0;
	r->error = NULL;
	json_tokener_reset(r->tok);
	for (;;) {
		err = fill(r);
		if (err)
			return err;
		n = r->len - r->pos < CHUNK ? r->len - r->pos : CHUNK;
		o = json_tokener_parse_ex(r->tok, r->buf + r->pos, (int)n);
		used = json_tokener_get_parse_end(r->tok);
		err = span_add(r, r->buf + r->pos, used, max_len);
		r->pos += used;
		e = json_tokener_get_error(r->tok);
		if (err || e != json_tokener_continue)
			break;
	}
	if (!err && e != json_tokener_success) {
		r->error = json_tokener_error_desc(e);
		err = -EBADMSG;
	}
	if (!err && invalid_utf8(r->span, r->span_len))
		err = reparse_valid(r, &o);
	if (err) {
		json_object_put(o);
		return err;
	}
	*ret = o;
	return 0;
}

const char *jsonreader__text(const struct jsonreader *r, size_t *ret_len)
{
	*ret_len = r->span_len;
	return r->span ? r->span : "";
}

const char *jsonreader__error(const struct jsonreader *r)
{
	return r->error ? r->error : "not JSON";
}

unsigned long long jsonreader__offset(const struct jsonreader *r)
{
	return r->base + r->pos;
}
