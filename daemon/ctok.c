// SPDX-License-Identifier: GPL-2.0
/*
 * ctok.c: tokenize C source for counting: skip comments (both kinds, with
 * backslash-newline continuations), string and character literals (which end
 * at an unescaped newline when unterminated, as in GCC), return identifiers
 * and preprocessing numbers whole, and mark directive lines.
 */
#include <string.h>

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
