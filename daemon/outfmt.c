// SPDX-License-Identifier: GPL-2.0
/*
 * outfmt.c: the one place where names reach an output: text, folded stacks,
 * CSV, JSON and Prometheus each get the escaping of their format (outfmt.h,
 * docs/schema.md).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "outfmt.h"

#define REPLACEMENT "\xef\xbf\xbd"	/* U+FFFD in UTF-8 */

int outfmt__utf8_len(const unsigned char *s, size_t avail)
{
	size_t n, i;

	if (!avail)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (n > avail)
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
		return 0;	/* overlong, surrogate or past U+10FFFF */
	return n;
}

/* A control character: C0, DEL, or C1 (U+0080..U+009F, 0xc2 0x80..0x9f) */
static bool is_control(const unsigned char *s, int n)
{
	if (n == 1)
		return s[0] < 0x20 || s[0] == 0x7f;
	return n == 2 && s[0] == 0xc2 && s[1] < 0xa0;
}

/* Text and folded frames; extra: more bytes shown as \xNN.  Returns bytes written */
static int put_escaped(FILE *f, const char *str, const char *extra)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t left = strlen(str);
	int n, i, out = 0;

	while (left) {
		n = outfmt__utf8_len(s, left);
		if (n == 1 && *s == '\\') {
			fputs("\\\\", f);
			out += 2;
		} else if (!n || is_control(s, n) || (n == 1 && strchr(extra, *s))) {
			if (!n)
				n = 1;
			for (i = 0; i < n; i++)
				fprintf(f, "\\x%02x", s[i]);
			out += 4 * n;
		} else {
			fwrite(s, 1, n, f);
			out += n;
		}
		s += n;
		left -= n;
	}
	return out;
}

void outfmt__text(FILE *f, const char *s, int width, const char *dflt)
{
	int n = put_escaped(f, s && *s ? s : dflt, "");

	for (; n < width; n++)
		fputc(' ', f);
}

void outfmt__folded(FILE *f, const char *s, const char *dflt)
{
	put_escaped(f, s && *s ? s : dflt, "; ");
}

/* s with each byte of invalid UTF-8 as U+FFFD */
static void put_utf8(FILE *f, const char *str, size_t left)
{
	const unsigned char *s = (const unsigned char *)str;
	int n;

	while (left) {
		n = outfmt__utf8_len(s, left);
		if (n)
			fwrite(s, 1, n, f);
		else
			fputs(REPLACEMENT, f);
		n = n ? n : 1;
		s += n;
		left -= n;
	}
}

void outfmt__csv(FILE *f, const char *s, char sep)
{
	bool quote;
	size_t n;

	if (!s)
		s = "";
	quote = strpbrk(s, ",\"\r\n");
	if (quote)
		fputc('"', f);
	if (*s && strchr("=+-@\t\r", *s))
		fputc('\'', f);
	for (;;) {
		n = strcspn(s, "\"");
		put_utf8(f, s, n);
		s += n;
		if (!*s)
			break;
		fputs("\"\"", f);
		s++;
	}
	if (quote)
		fputc('"', f);
	fputc(sep, f);
}

void outfmt__prom_label(FILE *f, const char *s)
{
	size_t n;

	while (*s) {
		n = strcspn(s, "\\\"\n");
		put_utf8(f, s, n);
		s += n;
		if (!*s)
			break;
		fputs(*s == '\\' ? "\\\\" : *s == '"' ? "\\\"" : "\\n", f);
		s++;
	}
}

char *outfmt__utf8_dup(const char *str, size_t len, size_t *ret_len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t o = 0, left = len;
	char *out;
	int n;

	/* each invalid byte grows to 3 */
	if (len > (SIZE_MAX - 1) / 3)
		return NULL;
	out = malloc(len * 3 + 1);
	if (!out)
		return NULL;
	while (left) {
		n = outfmt__utf8_len(s, left);
		if (n) {
			memcpy(out + o, s, n);
			o += n;
		} else {
			memcpy(out + o, REPLACEMENT, 3);
			o += 3;
			n = 1;
		}
		s += n;
		left -= n;
	}
	out[o] = '\0';
	if (ret_len)
		*ret_len = o;
	return out;
}

json_object *outfmt__json_string(const char *s)
{
	json_object *o;
	size_t len;
	char *fixed;

	if (!s)
		return NULL;
	fixed = outfmt__utf8_dup(s, strlen(s), &len);
	if (!fixed)
		return NULL;
	o = json_object_new_string_len(fixed, (int)len);
	free(fixed);
	return o;
}

void outfmt__json_print(FILE *f, json_object *o)
{
	const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
								 JSON_C_TO_STRING_NOSLASHESCAPE);

	/* json-c escapes control characters; invalid UTF-8 it writes raw */
	put_utf8(f, text, strlen(text));
	fputc('\n', f);
}

void outfmt__json_put(FILE *f, json_object *o)
{
	const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_SPACED |
								 JSON_C_TO_STRING_NOSLASHESCAPE);

	put_utf8(f, text, strlen(text));
}

int outfmt__finish(const char *cmd)
{
	int err = 0;

	errno = 0;
	if (fflush(stdout))
		err = errno ? -errno : -EIO;
	else if (ferror(stdout))
		err = -EIO;
	if (err)
		fprintf(stderr, "capaudit %s: cannot write the output: %s\n", cmd, strerror(-err));
	return err;
}
