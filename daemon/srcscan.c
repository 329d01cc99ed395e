// SPDX-License-Identifier: GPL-2.0
/*
 * srcscan.c: count the capability uses of one file's text.  A use is a whole
 * identifier that is a capability name (capdefs) outside comments and
 * literals (ctok).  Each use gets its line, its enclosing function (found from
 * brace depth and the declarator before the opening brace, with #if/#else
 * branches kept balanced), and the innermost capable()-family call whose
 * parentheses hold it.  The results of many files accumulate in a srcscan.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __x86_64__
#include <immintrin.h>
#endif

#include "array_size.h"
#include "ctok.h"
#include "srcscan.h"
#include "srcscan_int.h"

#define MAX_PARENS	128
#define MAX_IFS		64
#define ARENA_CHUNK	(64 * 1024)

struct arena_chunk {
	struct arena_chunk *next;
	size_t used;
	char data[ARENA_CHUNK];
};

struct srcscan {
	const struct capdefs *defs;
	struct srcscan_site *sites;
	size_t n_sites, cap_sites;
	struct srcscan_helper *helpers;
	size_t n_helpers, cap_helpers;
	struct arena_chunk *arena;
	unsigned long files;
	unsigned long long bytes;
	int sorted;
	int avx2;
	int no_skip;		/* tokenize function bodies even without candidates */
};

struct paren {
	int helper;		/* index in srcscan.helpers, or -1 */
};

/* A declarator that is a macro call names its function with its first argument. */
enum {
	CAND_PLAIN,
	CAND_SYSCALL,		/* SYSCALL_DEFINEn(name, ...): "sys_name" */
	CAND_MACRO,		/* FIXTURE_SETUP(layout1): "FIXTURE_SETUP(layout1)" */
	CAND_NAMED,		/* the argument is in cand_buf */
};

/* What the scan keeps of the token before the current one. */
struct prev_token {
	enum ctok_kind kind;
	const char *text;
	size_t len;
};

struct if_frame {
	int depth_at_if;
	int depth_after_branch;
	int has_else;
};

/* The state of the scan of one file. */
struct filescan {
	struct srcscan *s;
	const char *path;	/* as given */
	const char *path_copy;	/* in the arena, made at the first site */
	const char *outer;	/* function name for code outside any function */
	int depth;
	/* the declarator before a top-level '{' */
	const char *cand;
	size_t cand_len;
	int cand_arg;		/* CAND_* */
	char cand_buf[160];	/* "sys_NAME", "MACRO(ARG)" */
	const char *var;	/* "name = {": an initializer, not a function */
	size_t var_len;
	const char *top;	/* the last identifier at file scope */
	size_t top_len;
	int saw_eq;
	const char *func;
	size_t func_len;
	/* the current directive */
	int in_dir;
	int dir_first;
	int dir_define;
	const char *macro;
	size_t macro_len;
	int saved_parens;
	struct prev_token saved_prev;
	struct if_frame ifs[MAX_IFS];
	int n_ifs;
	struct paren parens[MAX_PARENS];
	int n_parens;		/* may exceed MAX_PARENS: those are not stored */
	struct prev_token prev;
};

/* Names that look like a call before a function's name but are not it. */
static const char *const not_declarators[] = {
	"__attribute__", "__attribute", "__printf", "__scanf", "__section", "__aligned",
	"__alloc_size", "__malloc", "__must_hold", "__acquires", "__releases", "__diag_push",
	"__no_sanitize_address", "typeof", "__typeof__", "__typeof", "__cond_acquires",
};

static const char *const helper_patterns[] = {
	"capable", "ns_capable", "ns_capable_noaudit", "ns_capable_setid", "file_ns_capable",
	"has_*capability*", "capable_wrt_inode_uidgid", "sockopt_*capable", "netlink_*capable",
	"sk_*capable", "perfmon_capable", "bpf_capable", "checkpoint_restore_ns_capable*",
	"*capable_or_sys_admin",	/* kernel/patches: a narrower capability or CAP_SYS_ADMIN */
};

static void *arena_alloc(struct srcscan *s, size_t len)
{
	struct arena_chunk *c = s->arena;
	void *p;

	len = (len + 7) & ~(size_t)7;
	if (len > ARENA_CHUNK)
		return NULL;
	if (!c || c->used + len > ARENA_CHUNK) {
		c = malloc(sizeof(*c));
		if (!c)
			return NULL;
		c->next = s->arena;
		c->used = 0;
		s->arena = c;
	}
	p = c->data + c->used;
	c->used += len;
	return p;
}

static const char *arena_strndup(struct srcscan *s, const char *str, size_t len)
{
	char *p = arena_alloc(s, len + 1);

	if (!p)
		return NULL;
	memcpy(p, str, len);
	p[len] = '\0';
	return p;
}

struct srcscan *srcscan__new(const struct capdefs *defs)
{
	struct srcscan *s = calloc(1, sizeof(*s));

	if (s) {
		s->defs = defs;
		s->avx2 = srcscan__cpu_avx2();
	}
	return s;
}

void srcscan__free(struct srcscan *s)
{
	struct arena_chunk *c, *next;

	if (!s)
		return;
	for (c = s->arena; c; c = next) {
		next = c->next;
		free(c);
	}
	free(s->sites);
	free(s->helpers);
	free(s);
}

int srcscan__is_helper(const char *name, size_t len)
{
	char buf[64];
	size_t i;

	if (!name || len < 7 || len >= sizeof(buf) || !memmem(name, len, "capab", 5))
		return 0;
	memcpy(buf, name, len);
	buf[len] = '\0';
	for (i = 0; i < ARRAY_SIZE(helper_patterns); i++)
		if (!fnmatch(helper_patterns[i], buf, 0))
			return 1;
	return 0;
}

/* Index of the helper @name in s->helpers, added when new; -1 on ENOMEM. */
static int helper_index(struct srcscan *s, const char *name, size_t len)
{
	struct srcscan_helper *h;
	size_t i;

	for (i = 0; i < s->n_helpers; i++)
		if (!strncmp(s->helpers[i].name, name, len) && !s->helpers[i].name[len])
			return i;
	if (s->n_helpers == s->cap_helpers) {
		size_t n = s->cap_helpers ? 2 * s->cap_helpers : 16;

		h = realloc(s->helpers, n * sizeof(*h));
		if (!h)
			return -1;
		s->helpers = h;
		s->cap_helpers = n;
	}
	h = &s->helpers[s->n_helpers];
	h->name = arena_strndup(s, name, len);
	if (!h->name)
		return -1;
	h->calls = 0;
	return s->n_helpers++;
}

static int srcscan__add_site(struct srcscan *s, const struct srcscan_site *site)
{
	if (s->n_sites == s->cap_sites) {
		size_t n = s->cap_sites ? 2 * s->cap_sites : 256;
		struct srcscan_site *v = realloc(s->sites, n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->sites = v;
		s->cap_sites = n;
	}
	s->sites[s->n_sites++] = *site;
	s->sorted = 0;
	return 0;
}

/* Statements before a '{' at the top of a diff hunk that starts inside a function. */
static const char *const statements[] = {
	"if", "for", "while", "switch", "return", "sizeof", "do", "else", "case",
};

static int is_not_declarator(const char *s, size_t len)
{
	size_t i;

	for (i = 0; len <= 6 && i < ARRAY_SIZE(statements); i++)
		if (!strncmp(statements[i], s, len) && !statements[i][len])
			return 1;
	if (len < 6 || (s[0] != '_' && s[0] != 't'))
		return 0;
	for (i = 0; i < ARRAY_SIZE(not_declarators); i++)
		if (!strncmp(not_declarators[i], s, len) && !not_declarators[i][len])
			return 1;
	return 0;
}

/* ALL_CAPS (digits and '_' allowed, one letter at least): a macro. */
static int is_macro_name(const char *s, size_t len)
{
	int letters = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		if (s[i] >= 'A' && s[i] <= 'Z')
			letters++;
		else if (s[i] != '_' && (s[i] < '0' || s[i] > '9'))
			return 0;
	}
	return letters > 0;
}

/* The name of the code the scan is in: function, "#define NAME", variable, or "-". */
static const char *filescan__where(struct filescan *f, char *buf, size_t size)
{
	if (f->in_dir && f->macro) {
		snprintf(buf, size, "#define %.*s", (int)f->macro_len, f->macro);
		return buf;
	}
	if (f->depth > 0 && f->func) {
		snprintf(buf, size, "%.*s", (int)f->func_len, f->func);
		return buf;
	}
	return f->outer ? f->outer : "-";
}

static int filescan__site(struct filescan *f, const struct ctok_token *tok, int cap)
{
	struct srcscan_site site = { .line = tok->line, .cap = cap };
	char buf[160];
	const char *where;
	int i;

	if (!f->path_copy) {
		f->path_copy = arena_strndup(f->s, f->path, strlen(f->path));
		if (!f->path_copy)
			return -ENOMEM;
	}
	site.file = f->path_copy;
	where = filescan__where(f, buf, sizeof(buf));
	site.function = arena_strndup(f->s, where, strlen(where));
	if (!site.function)
		return -ENOMEM;
	for (i = (f->n_parens < MAX_PARENS ? f->n_parens : MAX_PARENS) - 1; i >= 0; i--) {
		if (f->parens[i].helper >= 0) {
			site.helper = f->s->helpers[f->parens[i].helper].name;
			break;
		}
	}
	return srcscan__add_site(f->s, &site);
}

static void filescan__reset_top(struct filescan *f)
{
	f->cand = NULL;
	f->cand_arg = CAND_PLAIN;
	f->saw_eq = 0;
	f->var = NULL;
}

/*
 * #if/#else/#endif: each branch starts at the depth the #if had, and the
 * first branch's depth wins, so that duplicated function heads in both
 * branches do not open two braces.
 */
static void filescan__conditional(struct filescan *f, const struct ctok_token *tok)
{
	struct if_frame *fr;

	if ((tok->len == 2 && !memcmp(tok->text, "if", 2)) ||
	    (tok->len == 5 && !memcmp(tok->text, "ifdef", 5)) ||
	    (tok->len == 6 && !memcmp(tok->text, "ifndef", 6))) {
		if (f->n_ifs < MAX_IFS) {
			fr = &f->ifs[f->n_ifs];
			fr->depth_at_if = f->depth;
			fr->has_else = 0;
		}
		f->n_ifs++;
		return;
	}
	if (!f->n_ifs || f->n_ifs > MAX_IFS)
		goto out_unmatched;
	fr = &f->ifs[f->n_ifs - 1];
	if ((tok->len == 4 && (!memcmp(tok->text, "else", 4) || !memcmp(tok->text, "elif", 4))) ||
	    (tok->len == 7 && !memcmp(tok->text, "elifdef", 7)) ||
	    (tok->len == 8 && !memcmp(tok->text, "elifndef", 8))) {
		if (!fr->has_else) {
			fr->depth_after_branch = f->depth;
			fr->has_else = 1;
		}
		f->depth = fr->depth_at_if;
		return;
	}
	if (tok->len == 5 && !memcmp(tok->text, "endif", 5)) {
		if (fr->has_else)
			f->depth = fr->depth_after_branch;
		f->n_ifs--;
	}
	return;

out_unmatched:
	if (f->n_ifs && tok->len == 5 && !memcmp(tok->text, "endif", 5))
		f->n_ifs--;
}

static int filescan__ident(struct filescan *f, const struct ctok_token *tok)
{
	int cap;

	if (f->in_dir && f->dir_first) {
		f->dir_first = 0;
		f->dir_define = tok->len == 6 && !memcmp(tok->text, "define", 6);
		if (!f->dir_define)
			filescan__conditional(f, tok);
		return 0;
	}
	if (f->in_dir && f->dir_define && !f->macro) {
		f->macro = tok->text;
		f->macro_len = tok->len;
	}
	if (!f->in_dir && f->depth == 0 && f->n_parens == 1 &&
	    (f->cand_arg == CAND_SYSCALL || f->cand_arg == CAND_MACRO)) {
		if (f->cand_arg == CAND_SYSCALL)
			snprintf(f->cand_buf, sizeof(f->cand_buf), "%ssys_%.*s",
				 f->cand[0] == 'C' ? "compat_" : "", (int)tok->len, tok->text);
		else
			snprintf(f->cand_buf, sizeof(f->cand_buf), "%.*s(%.*s)", (int)f->cand_len,
				 f->cand, (int)tok->len, tok->text);
		f->cand = f->cand_buf;
		f->cand_len = strlen(f->cand_buf);
		f->cand_arg = CAND_NAMED;
	}
	if (!f->in_dir && f->depth == 0 && f->n_parens == 0) {
		f->top = tok->text;
		f->top_len = tok->len;
	}
	if (tok->len > 4 && tok->text[0] == 'C' && tok->text[3] == '_' && tok->text[1] == 'A' &&
	    tok->text[2] == 'P') {
		cap = capdefs__lookup(f->s->defs, tok->text, tok->len);
		if (cap >= 0)
			return filescan__site(f, tok, cap);
	}
	return 0;
}

static int filescan__lparen(struct filescan *f)
{
	int helper = -1;

	if (f->prev.kind == CTOK_IDENT) {
		const char *id = f->prev.text;
		size_t len = f->prev.len;

		if (srcscan__is_helper(id, len)) {
			helper = helper_index(f->s, id, len);
			if (helper < 0)
				return -ENOMEM;
			/* at file scope outside macros: a definition or prototype */
			if (f->in_dir || f->depth > 0)
				f->s->helpers[helper].calls++;
		}
		if (!f->in_dir && f->depth == 0 && f->n_parens == 0 && !f->cand &&
		    !is_not_declarator(id, len)) {
			f->cand = id;
			f->cand_len = len;
			if ((len >= 15 && !memcmp(id, "SYSCALL_DEFINE", 14)) ||
			    (len >= 22 && !memcmp(id, "COMPAT_SYSCALL_DEFINE", 21)))
				f->cand_arg = CAND_SYSCALL;
			else if (is_macro_name(id, len))
				f->cand_arg = CAND_MACRO;
		}
	}
	if (f->n_parens < MAX_PARENS)
		f->parens[f->n_parens].helper = helper;
	f->n_parens++;
	return 0;
}

static void filescan__punct(struct filescan *f, char ch)
{
	switch (ch) {
	case ')':
		if (f->n_parens > (f->in_dir ? f->saved_parens : 0))
			f->n_parens--;
		/* SEC("...") with no name in it: the declarator is still to come */
		if (!f->in_dir && f->depth == 0 && !f->n_parens && f->cand_arg == CAND_MACRO) {
			f->cand = NULL;
			f->cand_arg = CAND_PLAIN;
		}
		break;
	case '{':
		if (f->in_dir)
			break;
		if (f->depth == 0) {
			if (f->saw_eq && !f->outer) {
				f->func = f->var;
				f->func_len = f->var_len;
			} else {
				f->func = f->cand;
				f->func_len = f->cand_len;
			}
			f->n_parens = 0;
		}
		f->depth++;
		break;
	case '}':
		if (f->in_dir)
			break;
		if (f->depth > 0)
			f->depth--;
		else
			f->outer = NULL;	/* the end of a hunk's function */
		if (f->depth == 0) {
			f->func = NULL;
			f->n_parens = 0;
			filescan__reset_top(f);
		}
		break;
	case ';':
		if (!f->in_dir && f->depth == 0 && f->n_parens == 0)
			filescan__reset_top(f);
		break;
	case '=':
		if (!f->in_dir && f->depth == 0 && f->n_parens == 0 && !f->saw_eq) {
			f->saw_eq = 1;
			f->var = f->top;
			f->var_len = f->top_len;
		}
		break;
	}
}

static int filescan__token(struct filescan *f, const struct ctok_token *tok)
{
	int ret = 0;

	switch (tok->kind) {
	case CTOK_DIRECTIVE:
		f->in_dir = 1;
		f->dir_first = 1;
		f->dir_define = 0;
		f->macro = NULL;
		f->saved_parens = f->n_parens;
		f->saved_prev = f->prev;
		return 0;
	case CTOK_DIRECTIVE_END:
		f->in_dir = 0;
		f->n_parens = f->saved_parens;
		f->prev = f->saved_prev;
		return 0;
	case CTOK_IDENT:
		ret = filescan__ident(f, tok);
		break;
	case CTOK_PUNCT:
		if (tok->ch == '(')
			ret = filescan__lparen(f);
		else
			filescan__punct(f, tok->ch);
		break;
	default:
		break;
	}
	f->prev.kind = tok->kind;
	f->prev.text = tok->text;
	f->prev.len = tok->len;
	return ret;
}

int srcscan__cpu_avx2(void)
{
#ifdef __x86_64__
	return __builtin_cpu_supports("avx2");
#else
	return 0;
#endif
}

void srcscan__set_avx2(struct srcscan *s, int avx2)
{
	s->avx2 = avx2;
}

void srcscan__set_skip(struct srcscan *s, int skip)
{
	s->no_skip = !skip;
}

/* Is the "CAP"/"cap" at p "CAP_" or "capab"? */
static int is_candidate(const char *p, const char *end)
{
	if (end - p < 4)
		return 0;
	if (p[0] == 'C')
		return p[3] == '_';
	return end - p >= 5 && p[3] == 'a' && p[4] == 'b';
}

static const char *find_candidate_scalar(const char *p, const char *end)
{
	for (; p + 4 <= end; p++)
		if ((p[0] == 'C' && p[1] == 'A' && p[2] == 'P') ||
		    (p[0] == 'c' && p[1] == 'a' && p[2] == 'p'))
			if (is_candidate(p, end))
				return p;
	return end;
}

#ifdef __x86_64__
/* Where do "CAP" or "cap" start, 32 bytes at a time? */
__attribute__((target("avx2"))) static const char *find_candidate_avx2(const char *p,
									 const char *end)
{
	const __m256i C = _mm256_set1_epi8('C'), A = _mm256_set1_epi8('A'), P = _mm256_set1_epi8('P');
	const __m256i c = _mm256_set1_epi8('c'), a = _mm256_set1_epi8('a'), pp = _mm256_set1_epi8('p');

	for (; p + 32 + 2 <= end; p += 32) {
		__m256i v0 = _mm256_loadu_si256((const __m256i *)p);
		__m256i v1 = _mm256_loadu_si256((const __m256i *)(p + 1));
		__m256i v2 = _mm256_loadu_si256((const __m256i *)(p + 2));
		__m256i up = _mm256_and_si256(_mm256_and_si256(_mm256_cmpeq_epi8(v0, C),
							       _mm256_cmpeq_epi8(v1, A)),
					      _mm256_cmpeq_epi8(v2, P));
		__m256i lo = _mm256_and_si256(_mm256_and_si256(_mm256_cmpeq_epi8(v0, c),
							       _mm256_cmpeq_epi8(v1, a)),
					      _mm256_cmpeq_epi8(v2, pp));
		unsigned int m = _mm256_movemask_epi8(_mm256_or_si256(up, lo));

		for (; m; m &= m - 1)
			if (is_candidate(p + __builtin_ctz(m), end))
				return p + __builtin_ctz(m);
	}
	return find_candidate_scalar(p, end);
}

/* The same, 16 bytes at a time, for CPUs without AVX2. */
static const char *find_candidate_sse2(const char *p, const char *end)
{
	const __m128i C = _mm_set1_epi8('C'), A = _mm_set1_epi8('A'), P = _mm_set1_epi8('P');
	const __m128i c = _mm_set1_epi8('c'), a = _mm_set1_epi8('a'), pp = _mm_set1_epi8('p');

	for (; p + 16 + 2 <= end; p += 16) {
		__m128i v0 = _mm_loadu_si128((const __m128i *)p);
		__m128i v1 = _mm_loadu_si128((const __m128i *)(p + 1));
		__m128i v2 = _mm_loadu_si128((const __m128i *)(p + 2));
		__m128i up = _mm_and_si128(_mm_and_si128(_mm_cmpeq_epi8(v0, C), _mm_cmpeq_epi8(v1, A)),
					   _mm_cmpeq_epi8(v2, P));
		__m128i lo = _mm_and_si128(_mm_and_si128(_mm_cmpeq_epi8(v0, c), _mm_cmpeq_epi8(v1, a)),
					   _mm_cmpeq_epi8(v2, pp));
		unsigned int m = _mm_movemask_epi8(_mm_or_si128(up, lo));

		for (; m; m &= m - 1)
			if (is_candidate(p + __builtin_ctz(m), end))
				return p + __builtin_ctz(m);
	}
	return find_candidate_scalar(p, end);
}
#endif

const char *srcscan__find_candidate(int avx2, const char *p, const char *end)
{
#ifdef __x86_64__
	return avx2 ? find_candidate_avx2(p, end) : find_candidate_sse2(p, end);
#else
	(void)avx2;
	return find_candidate_scalar(p, end);
#endif
}

int srcscan__hunk(struct srcscan *s, const char *path, const char *buf, size_t len,
		  const char *function, unsigned int first_line)
{
	struct filescan f = { .s = s, .path = path, .outer = function };
	const char *next = NULL;	/* the next candidate, once searched */
	struct ctok_token tok;
	struct ctok t;
	int ret;

	if (!len)
		return 0;
	ctok__init(&t, buf, len);
	t.line = first_line;
	while (ctok__next(&t, &tok) != CTOK_EOF) {
		ret = filescan__token(&f, &tok);
		if (ret)
			return ret;
		/* a function body with no candidate in it holds nothing: skip it */
		if (tok.kind == CTOK_PUNCT && tok.ch == '{' && f.depth == 1 && !f.in_dir &&
		    !s->no_skip) {
			if (!next || next < t.p)
				next = srcscan__find_candidate(s->avx2, t.p, t.end);
			ctok__skip_block(&t, next);
		}
	}
	return 0;
}

int srcscan__buffer(struct srcscan *s, const char *path, const char *buf, size_t len,
		    const char *function)
{
	return srcscan__hunk(s, path, buf, len, function, 1);
}

void srcscan__count_file(struct srcscan *s, unsigned long long bytes)
{
	s->files++;
	s->bytes += bytes;
}

static int cmp_site(const void *a, const void *b)
{
	const struct srcscan_site *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->cap - y->cap;
}

const struct srcscan_site *srcscan__sites(struct srcscan *s, size_t *ret_n)
{
	if (!s->sorted) {
		if (s->n_sites)
			qsort(s->sites, s->n_sites, sizeof(*s->sites), cmp_site);
		s->sorted = 1;
	}
	*ret_n = s->n_sites;
	return s->sites;
}

static int cmp_helper(const void *a, const void *b)
{
	const struct srcscan_helper *x = a, *y = b;

	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return strcmp(x->name, y->name);
}

const struct srcscan_helper *srcscan__helpers(struct srcscan *s, size_t *ret_n)
{
	if (s->n_helpers)
		qsort(s->helpers, s->n_helpers, sizeof(*s->helpers), cmp_helper);
	*ret_n = s->n_helpers;
	return s->helpers;
}

/* Moves everything @src found into @dst; @src is empty afterwards. */
int srcscan__merge(struct srcscan *dst, struct srcscan *src)
{
	struct arena_chunk *c;
	size_t i;
	int h;

	for (i = 0; i < src->n_helpers; i++) {
		h = helper_index(dst, src->helpers[i].name, strlen(src->helpers[i].name));
		if (h < 0)
			return -ENOMEM;
		dst->helpers[h].calls += src->helpers[i].calls;
	}
	for (i = 0; i < src->n_sites; i++) {
		struct srcscan_site site = src->sites[i];

		if (site.helper) {
			h = helper_index(dst, site.helper, strlen(site.helper));
			if (h < 0)
				return -ENOMEM;
			site.helper = dst->helpers[h].name;
		}
		if (srcscan__add_site(dst, &site))
			return -ENOMEM;
	}
	/* the sites' strings live in src's arena: hand it over */
	while ((c = src->arena)) {
		src->arena = c->next;
		c->next = dst->arena ? dst->arena->next : NULL;
		if (dst->arena)
			dst->arena->next = c;
		else
			dst->arena = c;
	}
	dst->files += src->files;
	dst->bytes += src->bytes;
	src->n_sites = 0;
	src->n_helpers = 0;
	src->files = 0;
	src->bytes = 0;
	return 0;
}

unsigned long srcscan__files(const struct srcscan *s)
{
	return s->files;
}

unsigned long long srcscan__bytes(const struct srcscan *s)
{
	return s->bytes;
}

const struct capdefs *srcscan__defs(const struct srcscan *s)
{
	return s->defs;
}
