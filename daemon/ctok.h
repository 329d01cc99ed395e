/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ctok.h: a C tokenizer for counting, not compiling: comments, string and
 * character literals are skipped whole, identifiers come out whole, and
 * preprocessor directives are bracketed so a caller can treat them apart.
 */
#ifndef CAPAUDIT_CTOK_H
#define CAPAUDIT_CTOK_H

#include <stddef.h>

enum ctok_kind {
	CTOK_EOF = 0,
	CTOK_IDENT,		/* [A-Za-z_$][A-Za-z0-9_$]* */
	CTOK_NUMBER,		/* a preprocessing number */
	CTOK_LITERAL,		/* a string or character literal, skipped whole */
	CTOK_PUNCT,		/* one punctuation byte, in .ch */
	CTOK_DIRECTIVE,		/* the '#' that starts a directive line */
	CTOK_DIRECTIVE_END,	/* the end of that (possibly continued) line */
};

struct ctok_token {
	enum ctok_kind kind;
	const char *text;	/* points into the buffer */
	size_t len;
	unsigned int line;	/* 1-based line of the token's first byte */
	char ch;		/* CTOK_PUNCT: the byte */
};

/* The state is public so that it lives on the caller's stack. */
struct ctok {
	const char *p;
	const char *end;
	unsigned int line;
	int at_line_start;	/* only blanks since the last newline */
	int in_directive;
};

void ctok__init(struct ctok *t, const char *buf, size_t len);

/* Fills *ret_tok with the next token; returns its kind (CTOK_EOF at the end). */
enum ctok_kind ctok__next(struct ctok *t, struct ctok_token *ret_tok);

/*
 * Just after a '{': skips to its matching '}' (left as the next token),
 * counting lines, faster than tokenizing.  Gives up (returns 0, @t as it was)
 * when the '}' is not before @limit, or at any '#' outside comments and
 * literals (a directive's #if/#else matter to the caller).  Returns 1 when it
 * skipped.
 */
int ctok__skip_block(struct ctok *t, const char *limit);

#endif
