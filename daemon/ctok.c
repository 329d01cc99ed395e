// SPDX-License-Identifier: GPL-2.0
/*
 * ctok.c: tokenize C source for counting: skip comments (both kinds, with
 * backslash-newline continuations), string and character literals (which end
 * at an unescaped newline when unterminated, as in GCC), return identifiers
 * and preprocessing numbers whole, and mark directive lines.
 */
#include <string.h>
#ifdef __x86_64__
#include <immintrin.h>
#endif

#include "ctok.h"

enum {
	C_OTHER = 0,
	C_BLANK,	/* space, \t, \v, \f, \r */
	C_NL,
	C_IDENT,	/* may start an identifier */
	C_DIGIT,
	C_SLASH,
	C_QUOTE,	/* " or ' */
	C_HASH,
	C_BACKSLASH,
	C_DOT,
};

static unsigned char cls[256];
static unsigned char identch[256];
static int have_avx2;

static void __attribute__((constructor)) ctok__init_tables(void)
{
	int c;

	for (c = 'a'; c <= 'z'; c++)
		cls[c] = cls[c - 'a' + 'A'] = C_IDENT;
	cls['_'] = cls['$'] = C_IDENT;
	for (c = '0'; c <= '9'; c++)
		cls[c] = C_DIGIT;
	for (c = 0; c < 256; c++)
		identch[c] = cls[c] == C_IDENT || cls[c] == C_DIGIT;
	cls[' '] = cls['\t'] = cls['\v'] = cls['\f'] = cls['\r'] = C_BLANK;
	cls['\n'] = C_NL;
	cls['/'] = C_SLASH;
	cls['"'] = cls['\''] = C_QUOTE;
	cls['#'] = C_HASH;
	cls['\\'] = C_BACKSLASH;
	cls['.'] = C_DOT;
#ifdef __x86_64__
	have_avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
#endif
}

void ctok__init(struct ctok *t, const char *buf, size_t len)
{
	t->p = buf;
	t->end = buf + len;
	t->line = 1;
	t->at_line_start = 1;
	t->in_directive = 0;
}

static unsigned int count_newlines(const char *p, const char *end)
{
	unsigned int n = 0;

	while ((p = memchr(p, '\n', end - p))) {
		n++;
		p++;
	}
	return n;
}

/* Is p (a '\\') followed by a newline, possibly after a '\r'?  Returns its length. */
static size_t splice_len(const char *p, const char *end)
{
	if (p + 1 < end && p[1] == '\n')
		return 2;
	if (p + 2 < end && p[1] == '\r' && p[2] == '\n')
		return 3;
	return 0;
}

/* p points after the opening slash-star; returns the byte after the closing one. */
static const char *skip_block_comment(struct ctok *t, const char *p)
{
	const char *end = t->end;
	const char *star;

	for (;;) {
		star = memchr(p, '*', end - p);
		if (!star || star + 1 >= end) {
			t->line += count_newlines(p, end);
			return end;
		}
		if (star[1] == '/') {
			t->line += count_newlines(p, star);
			return star + 2;
		}
		t->line += count_newlines(p, star + 1);
		p = star + 1;
	}
}

/* p points after the two slashes; returns the newline that ends the comment. */
static const char *skip_line_comment(struct ctok *t, const char *p)
{
	const char *end = t->end;
	const char *nl;

	for (;;) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			return end;
		/* "\\\n" or "\\\r\n" continues the comment on the next line */
		if (nl > p && (nl[-1] == '\\' || (nl[-1] == '\r' && nl - 1 > p && nl[-2] == '\\'))) {
			t->line++;
			p = nl + 1;
			continue;
		}
		return nl;
	}
}

/* p points after the opening quote q; returns the byte after the literal. */
static const char *skip_literal(struct ctok *t, const char *p, char q)
{
	const char *end = t->end;
	size_t n;

	while (p < end) {
		char c = *p;

		if (c == q)
			return p + 1;
		if (c == '\n')
			return p;	/* unterminated: ends at the newline */
		if (c == '\\') {
			n = splice_len(p, end);
			if (n) {
				t->line++;
				p += n;
				continue;
			}
			p += p + 1 < end ? 2 : 1;
			continue;
		}
		p++;
	}
	return end;
}

static const char *skip_number(const char *p, const char *end)
{
	while (p < end) {
		unsigned char c = *p;

		if (identch[c] || c == '.') {
			p++;
		} else if ((c == '+' || c == '-') &&
			   (p[-1] == 'e' || p[-1] == 'E' || p[-1] == 'p' || p[-1] == 'P')) {
			p++;
		} else {
			break;
		}
	}
	return p;
}

static enum ctok_kind emit(struct ctok_token *tok, enum ctok_kind kind, const char *s,
			   size_t len, unsigned int line)
{
	tok->kind = kind;
	tok->text = s;
	tok->len = len;
	tok->line = line;
	tok->ch = kind == CTOK_PUNCT ? *s : 0;
	return kind;
}

static inline enum ctok_kind next_token(struct ctok *t, struct ctok_token *ret_tok)
{
	const char *p = t->p;
	const char *end = t->end;
	const char *s;
	size_t n;

	while (p < end) {
		unsigned char c = *p;

		switch (cls[c]) {
		case C_BLANK:
			do
				p++;
			while (p < end && cls[(unsigned char)*p] == C_BLANK);
			continue;
		case C_NL:
			s = p++;
			t->line++;
			t->at_line_start = 1;
			if (t->in_directive) {
				t->in_directive = 0;
				t->p = p;
				return emit(ret_tok, CTOK_DIRECTIVE_END, s, 1, t->line - 1);
			}
			continue;
		case C_IDENT:
			s = p++;
			while (p < end && identch[(unsigned char)*p])
				p++;
			t->at_line_start = 0;
			t->p = p;
			return emit(ret_tok, CTOK_IDENT, s, p - s, t->line);
		case C_DIGIT:
			s = p;
			p = skip_number(p + 1, end);
			t->at_line_start = 0;
			t->p = p;
			return emit(ret_tok, CTOK_NUMBER, s, p - s, t->line);
		case C_DOT:
			if (p + 1 < end && cls[(unsigned char)p[1]] == C_DIGIT) {
				s = p;
				p = skip_number(p + 1, end);
				t->at_line_start = 0;
				t->p = p;
				return emit(ret_tok, CTOK_NUMBER, s, p - s, t->line);
			}
			break;
		case C_SLASH:
			if (p + 1 < end && p[1] == '*') {
				p = skip_block_comment(t, p + 2);
				continue;
			}
			if (p + 1 < end && p[1] == '/') {
				p = skip_line_comment(t, p + 2);
				continue;
			}
			break;
		case C_QUOTE: {
			unsigned int line = t->line;

			s = p;
			p = skip_literal(t, p + 1, c);
			t->at_line_start = 0;
			t->p = p;
			return emit(ret_tok, CTOK_LITERAL, s, p - s, line);
		}
		case C_BACKSLASH:
			n = splice_len(p, end);
			if (n) {
				t->line++;
				p += n;
				continue;
			}
			break;
		case C_HASH:
			if (t->at_line_start && !t->in_directive) {
				t->at_line_start = 0;
				t->in_directive = 1;
				t->p = p + 1;
				return emit(ret_tok, CTOK_DIRECTIVE, p, 1, t->line);
			}
			break;
		default:
			break;
		}
		/* any other byte is one punctuation token */
		t->at_line_start = 0;
		t->p = p + 1;
		return emit(ret_tok, CTOK_PUNCT, p, 1, t->line);
	}
	t->p = end;
	if (t->in_directive) {
		t->in_directive = 0;
		return emit(ret_tok, CTOK_DIRECTIVE_END, end, 0, t->line);
	}
	return emit(ret_tok, CTOK_EOF, end, 0, t->line);
}

enum ctok_kind ctok__next(struct ctok *t, struct ctok_token *ret_tok)
{
	return next_token(t, ret_tok);
}

/*
 * The next byte that matters when skipping a block: a brace, a comment's or
 * literal's start, a backslash or a '#'.  Newlines on the way are counted
 * into *lines.  AVX2 looks at 32 bytes a step.
 */
#ifdef __x86_64__
__attribute__((target("avx2,popcnt"))) static const char *find_special_avx2(const char *p, const char *end,
									   unsigned int *lines)
{
	const __m256i nl = _mm256_set1_epi8('\n');
	static const char specials[] = "{}/\"'\\#";
	__m256i sp[7];
	int i;

	for (i = 0; i < 7; i++)
		sp[i] = _mm256_set1_epi8(specials[i]);
	for (; p + 32 <= end; p += 32) {
		__m256i v = _mm256_loadu_si256((const __m256i *)p);
		__m256i hit = _mm256_cmpeq_epi8(v, sp[0]);
		unsigned int m, n;

		for (i = 1; i < 7; i++)
			hit = _mm256_or_si256(hit, _mm256_cmpeq_epi8(v, sp[i]));
		m = _mm256_movemask_epi8(hit);
		n = _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, nl));
		if (m) {
			unsigned int k = __builtin_ctz(m);

			*lines += __builtin_popcount(n & ((1u << k) - 1));
			return p + k;
		}
		*lines += __builtin_popcount(n);
	}
	return p;
}
#endif

static const char *find_special(const char *p, const char *end, unsigned int *lines)
{
#ifdef __x86_64__
	if (have_avx2)
		p = find_special_avx2(p, end, lines);
#endif
	for (; p < end; p++) {
		switch (*p) {
		case '\n':
			(*lines)++;
			break;
		case '{': case '}': case '/': case '"': case '\'': case '\\': case '#':
			return p;
		}
	}
	return end;
}

int ctok__skip_block(struct ctok *t, const char *limit)
{
	const char *p = t->p, *end = limit < t->end ? limit : t->end;
	unsigned int orig_line = t->line;
	int depth = 1;
	size_t n;

	if (t->in_directive)
		return 0;
	for (;;) {
		p = find_special(p, end, &t->line);
		if (p >= end)
			break;
		switch (*p) {
		case '#':
			goto out_give_up;	/* a directive (likely): its #if/#else matter */
		case '/':
			if (p + 1 < end && p[1] == '*')
				p = skip_block_comment(t, p + 2);
			else if (p + 1 < end && p[1] == '/')
				p = skip_line_comment(t, p + 2);
			else
				p++;
			continue;
		case '"':
		case '\'':
			p = skip_literal(t, p + 1, *p);
			continue;
		case '\\':
			n = splice_len(p, end);
			t->line += n > 0;
			p += n ? n : 1;
			continue;
		case '{':
			depth++;
			p++;
			continue;
		default:	/* '}' */
			if (!--depth) {
				t->p = p;
				t->at_line_start = 0;
				return 1;
			}
			p++;
		}
	}
out_give_up:
	t->line = orig_line;
	return 0;
}
