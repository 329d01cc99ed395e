// SPDX-License-Identifier: GPL-2.0
/*
 * fallback.c: the fallback-pattern detector (see fallback.h).  Two tables:
 * the last check of each recently seen task (fixed size, hashed by tid, the
 * least recently seen task evicted when full), and the learned pairs (call
 * site, narrow capability) with their counts, in the order first learned.
 * A task's last check keeps its call site and syscall as 64-bit FNV-1a
 * hashes, so feeding allocates nothing but a newly learned pair.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>

#include "fallback.h"

#define NONE	(-1)

/* The last check of one task */
struct task_slot {
	__u64 ts_ns;
	__u64 site_hash;	/* 0: no usable call site */
	__u64 syscall_hash;	/* 0: outside a syscall */
	__u32 tid;
	__u32 cap;
	__u32 granted;
	int hnext;		/* next slot in the same bucket */
	int lprev, lnext;	/* recency list, most recent first */
};

struct pair {
	char *call_site;
	__u64 site_hash;
	unsigned int cap;
	__u64 times;
	int hnext;		/* next pair in the same bucket */
};

struct fallback {
	struct task_slot *slots;
	int *task_buckets;
	unsigned int nr_slots, nr_used, task_mask;
	int lru_head, lru_tail;

	struct pair *pairs;
	int *pair_buckets;
	unsigned int nr_pairs, pairs_cap, pair_mask;
};

static __u64 str_hash(const char *s)
{
	__u64 h = 14695981039346656037ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h ? h : 1;	/* 0 means "none" in a task slot */
}

static bool site_known(const char *call_site)
{
	return call_site && call_site[0] && call_site[0] != '[';
}

/* Smallest power of two >= n (n >= 1, well below 2^31) */
static unsigned int pow2_at_least(unsigned int n)
{
	unsigned int p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

static int *buckets_new(unsigned int n)
{
	int *b = malloc(n * sizeof(*b));
	unsigned int i;

	if (!b)
		return NULL;
	for (i = 0; i < n; i++)
		b[i] = NONE;
	return b;
}

struct fallback *fallback__new_sized(unsigned int nr_tasks)
{
	struct fallback *fb;

	if (!nr_tasks || nr_tasks > (1U << 24))
		return NULL;
	fb = calloc(1, sizeof(*fb));
	if (!fb)
		return NULL;
	fb->nr_slots = nr_tasks;
	fb->task_mask = pow2_at_least(2 * nr_tasks) - 1;
	fb->slots = calloc(nr_tasks, sizeof(*fb->slots));
	fb->task_buckets = buckets_new(fb->task_mask + 1);
	if (!fb->slots || !fb->task_buckets)
		goto out_free_fb;
	fb->lru_head = fb->lru_tail = NONE;
	return fb;

out_free_fb:
	fallback__free(fb);
	return NULL;
}

struct fallback *fallback__new(void)
{
	return fallback__new_sized(FALLBACK_TASKS_DEFAULT);
}

void fallback__free(struct fallback *fb)
{
	unsigned int i;

	if (!fb)
		return;
	for (i = 0; i < fb->nr_pairs; i++)
		free(fb->pairs[i].call_site);
	free(fb->pairs);
	free(fb->pair_buckets);
	free(fb->task_buckets);
	free(fb->slots);
	free(fb);
}

/* Task table */

static unsigned int tid_bucket(const struct fallback *fb, __u32 tid)
{
	return (unsigned int)((tid * 2654435761U) & fb->task_mask);
}

static void lru_unlink(struct fallback *fb, int i)
{
	struct task_slot *s = &fb->slots[i];

	if (s->lprev != NONE)
		fb->slots[s->lprev].lnext = s->lnext;
	else
		fb->lru_head = s->lnext;
	if (s->lnext != NONE)
		fb->slots[s->lnext].lprev = s->lprev;
	else
		fb->lru_tail = s->lprev;
}

static void lru_push_front(struct fallback *fb, int i)
{
	struct task_slot *s = &fb->slots[i];

	s->lprev = NONE;
	s->lnext = fb->lru_head;
	if (fb->lru_head != NONE)
		fb->slots[fb->lru_head].lprev = i;
	fb->lru_head = i;
	if (fb->lru_tail == NONE)
		fb->lru_tail = i;
}

/* Index of tid's slot, or NONE */
static int task_find(const struct fallback *fb, __u32 tid)
{
	int i = fb->task_buckets[tid_bucket(fb, tid)];

	while (i != NONE && fb->slots[i].tid != tid)
		i = fb->slots[i].hnext;
	return i;
}

static void task_unhash(struct fallback *fb, int i)
{
	int *link = &fb->task_buckets[tid_bucket(fb, fb->slots[i].tid)];

	while (*link != i)
		link = &fb->slots[*link].hnext;
	*link = fb->slots[i].hnext;
}

/* A slot for tid, not yet holding a check: a free one or the oldest task's */
static int task_insert(struct fallback *fb, __u32 tid)
{
	unsigned int b = tid_bucket(fb, tid);
	int i;

	if (fb->nr_used < fb->nr_slots) {
		i = (int)fb->nr_used++;
	} else {
		i = fb->lru_tail;
		lru_unlink(fb, i);
		task_unhash(fb, i);
	}
	memset(&fb->slots[i], 0, sizeof(fb->slots[i]));
	fb->slots[i].tid = tid;
	fb->slots[i].hnext = fb->task_buckets[b];
	fb->task_buckets[b] = i;
	lru_push_front(fb, i);
	return i;
}

/* Learned pairs */

static int pair_find(const struct fallback *fb, const char *call_site, __u64 h,
		     unsigned int cap)
{
	int i;

	if (!fb->pair_buckets)
		return NONE;
	for (i = fb->pair_buckets[h & fb->pair_mask]; i != NONE; i = fb->pairs[i].hnext)
		if (fb->pairs[i].site_hash == h && fb->pairs[i].cap == cap &&
		    !strcmp(fb->pairs[i].call_site, call_site))
			return i;
	return NONE;
}

/* Doubles the pair array and rebuilds its buckets (twice as many) */
static int pairs_grow(struct fallback *fb)
{
	unsigned int cap = fb->pairs_cap ? 2 * fb->pairs_cap : 16;
	struct pair *pairs;
	int *buckets;
	unsigned int i;

	pairs = realloc(fb->pairs, cap * sizeof(*pairs));
	if (!pairs)
		return -ENOMEM;
	fb->pairs = pairs;
	buckets = buckets_new(2 * cap);
	if (!buckets)
		return -ENOMEM;
	free(fb->pair_buckets);
	fb->pair_buckets = buckets;
	fb->pair_mask = 2 * cap - 1;
	fb->pairs_cap = cap;
	for (i = 0; i < fb->nr_pairs; i++) {
		pairs[i].hnext = buckets[pairs[i].site_hash & fb->pair_mask];
		buckets[pairs[i].site_hash & fb->pair_mask] = (int)i;
	}
	return 0;
}

static int pair_add(struct fallback *fb, const char *call_site, unsigned int cap, __u64 times)
{
	__u64 h = str_hash(call_site);
	int i = pair_find(fb, call_site, h, cap);
	struct pair *p;
	int err;

	if (i != NONE) {
		p = &fb->pairs[i];
		p->times = p->times > UINT64_MAX - times ? UINT64_MAX : p->times + times;
		return 0;
	}
	if (fb->nr_pairs == fb->pairs_cap) {
		err = pairs_grow(fb);
		if (err)
			return err;
	}
	p = &fb->pairs[fb->nr_pairs];
	p->call_site = strdup(call_site);
	if (!p->call_site)
		return -ENOMEM;
	p->site_hash = h;
	p->cap = cap;
	p->times = times;
	p->hnext = fb->pair_buckets[h & fb->pair_mask];
	fb->pair_buckets[h & fb->pair_mask] = (int)fb->nr_pairs++;
	return 0;
}

/* Does c, following the task's last check prev, complete a fallback? */
static bool is_fallback(const struct task_slot *prev, const struct check *c, __u64 site_hash,
			__u64 syscall_hash)
{
	return c->cap == CAP_SYS_ADMIN && prev->cap != CAP_SYS_ADMIN && !prev->granted &&
	       site_hash && prev->site_hash == site_hash &&
	       prev->syscall_hash == syscall_hash &&
	       c->ts_ns >= prev->ts_ns && c->ts_ns - prev->ts_ns <= FALLBACK_MAX_GAP_NS;
}

int fallback__feed(struct fallback *fb, const struct check *c)
{
	__u64 site_hash = site_known(c->call_site) ? str_hash(c->call_site) : 0;
	__u64 syscall_hash = c->syscall ? str_hash(c->syscall) : 0;
	int i = task_find(fb, c->tid);
	struct task_slot *s;
	int err = 0;

	if (i == NONE) {
		i = task_insert(fb, c->tid);
	} else {
		if (is_fallback(&fb->slots[i], c, site_hash, syscall_hash))
			err = pair_add(fb, c->call_site, fb->slots[i].cap, 1);
		lru_unlink(fb, i);
		lru_push_front(fb, i);
	}
	s = &fb->slots[i];
	s->ts_ns = c->ts_ns;
	s->site_hash = site_hash;
	s->syscall_hash = syscall_hash;
	s->cap = c->cap;
	s->granted = c->granted;
	return err;
}

int fallback__learn(struct fallback *fb, const char *call_site, unsigned int narrow_cap,
		    __u64 times)
{
	if (!site_known(call_site) || narrow_cap == CAP_SYS_ADMIN)
		return -EINVAL;
	return pair_add(fb, call_site, narrow_cap, times);
}

int fallback__for_each(const struct fallback *fb,
		       int (*fn)(const char *call_site, unsigned int narrow_cap, __u64 times,
				 void *ctx),
		       void *ctx)
{
	unsigned int i;
	int ret;

	for (i = 0; i < fb->nr_pairs; i++) {
		ret = fn(fb->pairs[i].call_site, fb->pairs[i].cap, fb->pairs[i].times, ctx);
		if (ret)
			return ret;
	}
	return 0;
}

bool fallback__accepts(const struct fallback *fb, const char *call_site,
		       unsigned int *ret_narrow_cap)
{
	const struct pair *p, *best = NULL;
	__u64 h;
	int i;

	if (!site_known(call_site) || !fb->pair_buckets)
		return false;
	h = str_hash(call_site);
	for (i = fb->pair_buckets[h & fb->pair_mask]; i != NONE; i = p->hnext) {
		p = &fb->pairs[i];
		if (p->site_hash != h || strcmp(p->call_site, call_site))
			continue;
		if (!best || p->times > best->times ||
		    (p->times == best->times && p->cap < best->cap))
			best = p;
	}
	if (!best)
		return false;
	if (ret_narrow_cap)
		*ret_narrow_cap = best->cap;
	return true;
}

__u64 fallback__times(const struct fallback *fb, const char *call_site, unsigned int narrow_cap)
{
	int i;

	if (!site_known(call_site))
		return 0;
	i = pair_find(fb, call_site, str_hash(call_site), narrow_cap);
	return i == NONE ? 0 : fb->pairs[i].times;
}
