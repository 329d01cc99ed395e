// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_ctok.c: libFuzzer target for the source scanner's parsers: the C
 * tokenizer (tokens in order, inside the input, always progressing), the
 * per-file counter on top of it, the capability header parser, and the
 * unified-diff reader, all on arbitrary bytes.  No crash, no hang, no leak.
 *
 *   make fuzz                      build and run it for FUZZ_SECONDS (60)
 *   build/fuzz/fuzz_ctok tests/fuzz/corpus/ctok
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "capdefs.h"
#include "ctok.h"
#include "srcdiff.h"
#include "srcscan.h"
#include "srcscan_int.h"

static const char header[] =
	"#define CAP_CHOWN 0\n#define CAP_NET_ADMIN 12\n#define CAP_SYS_ADMIN 21\n";

static void check_tokens(const char *buf, size_t len)
{
	const char *prev_end = buf;
	unsigned int line = 1;
	struct ctok_token tok;
	struct ctok t;
	size_t n = 0, i;

	ctok__init(&t, buf, len);
	while (ctok__next(&t, &tok) != CTOK_EOF) {
		/* inside the input, in order, never overlapping */
		assert(tok.text >= prev_end && tok.text + tok.len <= buf + len);
		assert(tok.line >= line);
		/* every token but a directive's end moves forward: no hang */
		assert(tok.len > 0 || tok.kind == CTOK_DIRECTIVE_END);
		if (tok.kind == CTOK_IDENT)
			for (i = 0; i < tok.len; i++)
				assert(tok.text[i] == '_' || tok.text[i] == '$' ||
				       (tok.text[i] >= '0' && tok.text[i] <= '9') ||
				       ((tok.text[i] | 0x20) >= 'a' && (tok.text[i] | 0x20) <= 'z'));
		prev_end = tok.text + tok.len;
		line = tok.line;
		assert(++n <= len + 1);
	}
}

/*
 * The counter, with function bodies skipped (the default) and tokenized, and
 * with AVX2 and SSE2 candidate searches: the same sites either way.
 */
static void check_scan(const struct capdefs *defs, const char *buf, size_t len)
{
	const struct srcscan_site *a, *b;
	struct srcscan *fast = srcscan__new(defs), *slow = srcscan__new(defs);
	size_t na, nb, i;

	if (!fast || !slow)
		goto out_free;
	srcscan__set_skip(slow, 0);
	srcscan__set_avx2(slow, 0);
	if (srcscan__buffer(fast, "fuzz.c", buf, len, len & 1 ? "outer" : NULL) ||
	    srcscan__buffer(slow, "fuzz.c", buf, len, len & 1 ? "outer" : NULL))
		goto out_free;
	a = srcscan__sites(fast, &na);
	b = srcscan__sites(slow, &nb);
	assert(na == nb);
	for (i = 0; i < na; i++) {
		assert(a[i].cap >= 0 && a[i].cap < capdefs__count(defs) && a[i].line >= 1);
		assert(a[i].line == b[i].line && a[i].cap == b[i].cap);
		assert(!strcmp(a[i].function, b[i].function));
		assert((!a[i].helper && !b[i].helper) ||
		       (a[i].helper && b[i].helper && !strcmp(a[i].helper, b[i].helper)));
	}
out_free:
	srcscan__free(fast);
	srcscan__free(slow);
}

static void check_header(const char *buf, size_t len)
{
	struct capdefs *defs;
	char err[256];
	int i;

	if (capdefs__parse(buf, len, "fuzz.h", &defs, err, sizeof(err)))
		return;
	for (i = 0; i < capdefs__count(defs); i++)
		assert(capdefs__lookup(defs, capdefs__name(defs, i), strlen(capdefs__name(defs, i))) == i);
	capdefs__free(defs);
}

/* srcdiff__patch reads a file: the input goes through a memfd. */
static void check_patch(const struct capdefs *defs, const char *buf, size_t len)
{
	struct srcdiff *d;
	char path[64], err[256];
	int fd = memfd_create("fuzz.diff", 0);

	if (fd < 0)
		return;
	if (write(fd, buf, len) == (ssize_t)len) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		if (!srcdiff__patch(path, defs, 1, &d, err, sizeof(err)))
			srcdiff__free(d);
	}
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct capdefs *defs;
	char err[256];

	if (!defs && capdefs__parse(header, sizeof(header) - 1, "fuzz", &defs, err, sizeof(err)))
		abort();
	check_tokens((const char *)data, size);
	check_scan(defs, (const char *)data, size);
	check_header((const char *)data, size);
	check_patch(defs, (const char *)data, size);
	return 0;
}
