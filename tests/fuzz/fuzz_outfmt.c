// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_outfmt.c: libFuzzer target for the output layer (outfmt.c): the
 * input is a name (any bytes, cut at the first NUL), written as each format
 * writes names.  Text: no control character and valid UTF-8; folded: no
 * ';', space or newline (the separators); CSV: a field that reads back as
 * one field; Prometheus label value: valid UTF-8, no raw newline, no
 * unescaped '"'; JSON: a document that json-c parses back to valid UTF-8.
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "outfmt.h"

static void valid_utf8(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	int n;

	while (len) {
		n = outfmt__utf8_len(p, len);
		assert(n > 0);
		p += n;
		len -= n;
	}
}

/* The bytes f wrote, as one NUL-terminated buffer */
#define WRITE(call, buf, len)						\
	do {								\
		FILE *f = open_memstream(&(buf), &(len));		\
		assert(f);						\
		call;							\
		assert(!fclose(f));					\
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *name = strndup((const char *)data, size), *out;
	json_object *o, *back;
	size_t len, i;
	int quoted;

	if (!name)
		return 0;
	WRITE(outfmt__text(f, name, 0, "-"), out, len);
	for (i = 0; i < len; i++)
		assert((unsigned char)out[i] >= 0x20 && out[i] != 0x7f);
	valid_utf8(out, len);
	free(out);

	WRITE(outfmt__folded(f, name, "-"), out, len);
	assert(len && !memchr(out, ';', len) && !memchr(out, ' ', len) && !memchr(out, '\n', len));
	valid_utf8(out, len);
	free(out);

	/* one CSV field then the record's end: no separator outside quotes */
	WRITE(outfmt__csv(f, name, '\n'), out, len);
	assert(len && out[len - 1] == '\n');
	for (i = 0, quoted = 0; i + 1 < len; i++) {
		if (out[i] == '"')
			quoted = !quoted;
		else if (!quoted)
			assert(out[i] != ',' && out[i] != '\n' && out[i] != '\r');
	}
	assert(!quoted);
	/* no formula: what starts with one of them is neutralised */
	assert(out[0] != '=' && out[0] != '+' && out[0] != '-' && out[0] != '@' &&
	       out[0] != '\t' && out[0] != '\r');
	free(out);

	WRITE(outfmt__prom_label(f, name), out, len);
	valid_utf8(out, len);
	for (i = 0; i < len; i++) {
		assert(out[i] != '\n');
		if (out[i] == '\\')
			i++;	/* an escaped backslash, quote or newline */
		else
			assert(out[i] != '"');
	}
	free(out);

	o = json_object_new_object();
	json_object_object_add(o, "name", outfmt__json_string(name));
	WRITE(outfmt__json_print(f, o), out, len);
	valid_utf8(out, len);
	back = json_tokener_parse(out);
	assert(back && json_object_object_get_ex(back, "name", NULL));
	json_object_put(back);
	json_object_put(o);
	free(out);
	free(name);
	return 0;
}
