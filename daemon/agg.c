// SPDX-License-Identifier: GPL-2.0
/*
 * agg.c: count capability checks by key in open-addressing hash tables
 * (linear probing), with every string interned once.  A known key
 * costs one hash over its fields and one probe; only a new key allocates.
 * Keys, strings and stacks live in arrays that grow up to the limits and are
 * compacted by agg__reset_deltas(), which forgets what an interval did not use.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "agg.h"

#define NONE		0xffffffffu	/* no index; a NULL string in a key */
#define MIN_SLOTS	64
#define NR_KEY_STRS	4		/* call_site, syscall, workload, comm */
#define FNV_OFFSET	0xcbf29ce484222325ull	/* also the seed of the in-memory hash */
#define FNV_PRIME	0x100000001b3ull

/* A slot of a table: the entry's index + 1 (0: free) and its hash's high half */
struct slot {
	__u32 tag;
	__u32 idx1;
};

struct slots {
	struct slot *v;
	__u32 mask;		/* number of slots - 1 */
	__u32 max;		/* the most slots it may grow to */
};

struct agg_str {
	char *s;
	__u64 hash;
	__u32 new_idx;		/* during a reset: its index after compaction */
};

struct agg_key {
	__u64 hash;
	__u32 cap, granted, audit, uid;
	__u32 strs[NR_KEY_STRS];	/* indexes in agg->strs, NONE for NULL */
	__u64 stack_hash;
	__u64 count;		/* since the last reset; 0: times unset */
	__u64 first_ns, last_ns;
};

struct agg_stack {
	__u64 hash;
	char **frames;		/* one block: the pointers, then the strings; NULL once flushed */
	int nr;
	bool used;		/* added since the last reset */
};

struct agg_ov_row {
	__u64 count, first_ns, last_ns;
};

/*
 * Overflow rows by cap (the last: any larger cap), verdict and audit (the
 * last: any larger audit value)
 */
#define OV_AUDITS	(CHECK_AUDIT_NR + 1)

struct agg {
	__u32 max_keys, max_stacks, max_strs;

	struct agg_key *keys;
	__u32 nr_keys, keys_alloc;
	struct slots key_slots;

	struct agg_str *strs;
	__u32 nr_strs, strs_alloc;
	struct slots str_slots;

	struct agg_stack *stacks;
	__u32 nr_stacks, stacks_alloc;
	struct slots stack_slots;

	struct agg_ov_row ov[AGG_OVERFLOW_CAPS + 1][2][OV_AUDITS];
	struct agg_overflow ov_total, ov_delta;
};

static __u64 fnv1a(__u64 h, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len--) {
		h ^= *p++;
		h *= FNV_PRIME;
	}
	return h;
}

/*
 * The in-memory hash of keys and strings, which no file keeps: a word at a
 * time (a multiply and a shift per 8 bytes), where FNV-1a would take a
 * multiply per byte.  The tail word carries the string's length; NULL
 * mixes in a value no string's tail word has (a length of 255).
 */
static inline __u64 mix(__u64 h, __u64 v)
{
	h = (h ^ v) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 29);
}

static __u64 hash_str(__u64 h, const char *s)
{
	__u64 v = 0;
	size_t len;

	if (!s)
		return mix(h, 0xffull << 56);
	len = strlen(s);
	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&v, s, 8);
		h = mix(h, v);
	}
	v = 0;
	memcpy(&v, s, len);
	return mix(h, v | (__u64)len << 56);
}

static __u32 pow2_at_least(__u64 n)
{
	__u64 p = MIN_SLOTS;

	while (p < n)
		p <<= 1;
	return (__u32)p;
}

static int slots__init(struct slots *s, __u32 max_entries)
{
	s->max = pow2_at_least(2 * (__u64)max_entries);
	s->mask = MIN_SLOTS - 1;
	s->v = calloc(MIN_SLOTS, sizeof(*s->v));
	return s->v ? 0 : -ENOMEM;
}

/*
 * Walk the probe sequence of hash from *pos: the index of the next entry
 * whose tag matches, or NONE at a free slot, which *pos then designates.
 */
static inline __u32 slots__next(const struct slots *s, __u64 hash, __u32 *pos)
{
	__u32 tag = (__u32)(hash >> 32);

	while (s->v[*pos].idx1) {
		const struct slot *sl = &s->v[*pos];

		*pos = (*pos + 1) & s->mask;
		if (sl->tag == tag)
			return sl->idx1 - 1;
	}
	return NONE;
}

static void slots__put(struct slots *s, __u64 hash, __u32 idx)
{
	__u32 pos = hash & s->mask;

	while (s->v[pos].idx1)
		pos = (pos + 1) & s->mask;
	s->v[pos].tag = (__u32)(hash >> 32);
	s->v[pos].idx1 = idx + 1;
}

static void slots__clear(struct slots *s)
{
	memset(s->v, 0, ((size_t)s->mask + 1) * sizeof(*s->v));
}

/*
 * Make room for entry number nr + 1 (load at most 1/2); the hashes of the
 * entries come from hash_of(entries, i).  A full table at its maximum size
 * stays as it is: the caller's limit is below half of it.
 */
static int slots__reserve(struct slots *s, __u32 nr, const void *entries,
			  __u64 (*hash_of)(const void *entries, __u32 i))
{
	__u32 new_nr = (s->mask + 1) * 2, i;
	struct slot *v;

	if ((__u64)(nr + 1) * 2 <= (__u64)s->mask + 1 || s->mask + 1 >= s->max)
		return 0;
	v = calloc(new_nr, sizeof(*v));
	if (!v)
		return -ENOMEM;
	free(s->v);
	s->v = v;
	s->mask = new_nr - 1;
	for (i = 0; i < nr; i++)
		slots__put(s, hash_of(entries, i), i);
	return 0;
}

/* Grow an array of entries to hold one more, doubling up to max */
static int grow(void **arr, __u32 *alloc, __u32 nr, __u32 max, size_t size)
{
	__u32 n;
	void *p;

	if (nr < *alloc)
		return 0;
	n = *alloc ? *alloc * 2 : 64;
	if (n > max)
		n = max;
	if (n <= nr)
		return -ENOMEM;
	p = realloc(*arr, (size_t)n * size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*alloc = n;
	return 0;
}

/* Room for one more entry in an array (doubling up to max) and its slots */
static int make_room(void **arr, __u32 *alloc, __u32 nr, __u32 max, size_t size,
		     struct slots *s, __u64 (*hash_of)(const void *entries, __u32 i))
{
	int err = grow(arr, alloc, nr, max, size);

	return err ? err : slots__reserve(s, nr, *arr, hash_of);
}

static __u64 key_hash_of(const void *keys, __u32 i)
{
	return ((const struct agg_key *)keys)[i].hash;
}

static __u64 str_hash_of(const void *strs, __u32 i)
{
	return ((const struct agg_str *)strs)[i].hash;
}

static __u64 stack_hash_of(const void *stacks, __u32 i)
{
	return ((const struct agg_stack *)stacks)[i].hash;
}

struct agg *agg__new(const struct agg_limits *limits)
{
	struct agg *agg;

	agg = calloc(1, sizeof(*agg));
	if (!agg) {
		errno = ENOMEM;
		return NULL;
	}
	agg->max_keys = limits && limits->max_keys ? limits->max_keys : AGG_DEFAULT_MAX_KEYS;
	agg->max_stacks = limits && limits->max_stacks ? limits->max_stacks :
		AGG_DEFAULT_MAX_STACKS;
	if (agg->max_keys > AGG_MAX_LIMIT || agg->max_stacks > AGG_MAX_LIMIT) {
		free(agg);
		errno = EINVAL;
		return NULL;
	}
	agg->max_strs = agg->max_keys * NR_KEY_STRS;
	if (slots__init(&agg->key_slots, agg->max_keys) ||
	    slots__init(&agg->str_slots, agg->max_strs) ||
	    slots__init(&agg->stack_slots, agg->max_stacks)) {
		agg__free(agg);
		errno = ENOMEM;
		return NULL;
	}
	return agg;
}

void agg__free(struct agg *agg)
{
	__u32 i;

	if (!agg)
		return;
	for (i = 0; i < agg->nr_strs; i++)
		free(agg->strs[i].s);
	for (i = 0; i < agg->nr_stacks; i++)
		free(agg->stacks[i].frames);
	free(agg->keys);
	free(agg->strs);
	free(agg->stacks);
	free(agg->key_slots.v);
	free(agg->str_slots.v);
	free(agg->stack_slots.v);
	free(agg);
}

static const char *str_of(const struct agg *agg, __u32 idx)
{
	return idx == NONE ? NULL : agg->strs[idx].s;
}

static bool str_equal(const struct agg *agg, __u32 idx, const char *s)
{
	if (idx == NONE || !s)
		return idx == NONE && !s;
	return !strcmp(agg->strs[idx].s, s);
}

/* The index of s in the string table, added if new; NONE for NULL */
static int str_intern(struct agg *agg, const char *s, __u32 *ret_idx)
{
	__u64 h;
	__u32 pos, i;
	int err;

	*ret_idx = NONE;
	if (!s)
		return 0;
	h = hash_str(FNV_OFFSET, s);
	pos = h & agg->str_slots.mask;
	while ((i = slots__next(&agg->str_slots, h, &pos)) != NONE) {
		if (agg->strs[i].hash == h && !strcmp(agg->strs[i].s, s)) {
			*ret_idx = i;
			return 0;
		}
	}
	err = make_room((void **)&agg->strs, &agg->strs_alloc, agg->nr_strs, agg->max_strs,
			sizeof(*agg->strs), &agg->str_slots, str_hash_of);
	if (err)
		return err;
	i = agg->nr_strs;
	agg->strs[i].s = strdup(s);
	if (!agg->strs[i].s)
		return -ENOMEM;
	agg->strs[i].hash = h;
	agg->nr_strs++;
	slots__put(&agg->str_slots, h, i);
	*ret_idx = i;
	return 0;
}

static void check_strs(const struct check *c, const char *strs[NR_KEY_STRS])
{
	strs[0] = c->call_site;
	strs[1] = c->syscall;
	strs[2] = c->workload;
	strs[3] = c->comm;
}

static __u64 key_hash(const struct check *c, const char *const strs[NR_KEY_STRS])
{
	__u64 h = mix(FNV_OFFSET, (__u64)c->cap << 32 | c->granted);
	int i;

	h = mix(h, (__u64)c->uid << 32 | c->audit);
	h = mix(h, c->stack_hash);
	for (i = 0; i < NR_KEY_STRS; i++)
		h = hash_str(h, strs[i]);
	return h;
}

static bool key_equal(const struct agg *agg, const struct agg_key *k, __u64 h,
		      const struct check *c, const char *const strs[NR_KEY_STRS])
{
	int i;

	if (k->hash != h || k->cap != c->cap || k->granted != c->granted ||
	    k->audit != c->audit || k->uid != c->uid || k->stack_hash != c->stack_hash)
		return false;
	for (i = 0; i < NR_KEY_STRS; i++)
		if (!str_equal(agg, k->strs[i], strs[i]))
			return false;
	return true;
}

/*
 * A new key for c; strings interned on the way stay until the next reset
 * even if a later step fails (nothing references them then).
 */
static int key_insert(struct agg *agg, const struct check *c, const char *const strs[NR_KEY_STRS],
		      __u64 h, struct agg_key **ret_key)
{
	__u32 idx[NR_KEY_STRS];
	struct agg_key *k;
	int i, err;

	err = make_room((void **)&agg->keys, &agg->keys_alloc, agg->nr_keys, agg->max_keys,
			sizeof(*agg->keys), &agg->key_slots, key_hash_of);
	if (err)
		return err;
	for (i = 0; i < NR_KEY_STRS; i++) {
		err = str_intern(agg, strs[i], &idx[i]);
		if (err)
			return err;
	}
	k = &agg->keys[agg->nr_keys];
	memset(k, 0, sizeof(*k));
	k->hash = h;
	k->cap = c->cap;
	k->granted = c->granted;
	k->audit = c->audit;
	k->uid = c->uid;
	memcpy(k->strs, idx, sizeof(idx));
	k->stack_hash = c->stack_hash;
	slots__put(&agg->key_slots, h, agg->nr_keys);
	agg->nr_keys++;
	*ret_key = k;
	return 0;
}

static void count_times(__u64 *count, __u64 *first_ns, __u64 *last_ns, __u64 ts_ns, __u64 n)
{
	__u64 before = *count;

	*count += n;
	if (!before) {
		*first_ns = ts_ns;
		*last_ns = ts_ns;
		return;
	}
	if (ts_ns < *first_ns)
		*first_ns = ts_ns;
	if (ts_ns > *last_ns)
		*last_ns = ts_ns;
}

static void count_overflow(struct agg *agg, const struct check *c, __u64 n)
{
	__u32 cap = c->cap < AGG_OVERFLOW_CAPS ? c->cap : AGG_OVERFLOW_CAPS;
	__u32 audit = c->audit < CHECK_AUDIT_NR ? c->audit : CHECK_AUDIT_NR;
	struct agg_ov_row *ov = &agg->ov[cap][!!c->granted][audit];

	count_times(&ov->count, &ov->first_ns, &ov->last_ns, c->ts_ns, n);
	agg->ov_total.checks += n;
	agg->ov_delta.checks += n;
}

int agg__add(struct agg *agg, const struct check *c)
{
	return agg__add_n(agg, c, 1);
}

int agg__add_n(struct agg *agg, const struct check *c, __u64 n)
{
	const char *strs[NR_KEY_STRS];
	struct agg_key *k = NULL;
	__u32 pos, i;
	__u64 h;
	int err;

	check_strs(c, strs);
	h = key_hash(c, strs);
	pos = h & agg->key_slots.mask;
	while ((i = slots__next(&agg->key_slots, h, &pos)) != NONE) {
		if (key_equal(agg, &agg->keys[i], h, c, strs)) {
			k = &agg->keys[i];
			break;
		}
	}
	if (!k && agg->nr_keys < agg->max_keys) {
		err = key_insert(agg, c, strs, h, &k);
		if (err) {
			count_overflow(agg, c, n);
			return err;
		}
	}
	if (!k) {
		count_overflow(agg, c, n);
		return 0;
	}
	count_times(&k->count, &k->first_ns, &k->last_ns, c->ts_ns, n);
	return 0;
}

__u64 agg__hash_frames(const char *const *frames, int nr)
{
	static const char nl = '\n';
	__u64 h = FNV_OFFSET;
	int i;

	if (nr < 1)
		return 0;
	for (i = 0; i < nr; i++) {
		h = fnv1a(h, frames[i], strlen(frames[i]));
		h = fnv1a(h, &nl, 1);
	}
	return h ? h : 1;
}

/* The frames in one block: nr pointers, then the strings */
static char **frames_dup(const char *const *frames, int nr)
{
	size_t len = (size_t)nr * sizeof(char *), off;
	char **blk;
	int i;

	for (i = 0; i < nr; i++)
		len += strlen(frames[i]) + 1;
	blk = malloc(len);
	if (!blk)
		return NULL;
	off = (size_t)nr * sizeof(char *);
	for (i = 0; i < nr; i++) {
		size_t n = strlen(frames[i]) + 1;

		blk[i] = (char *)blk + off;
		memcpy(blk[i], frames[i], n);
		off += n;
	}
	return blk;
}

static bool frames_valid(const char *const *frames, int nr)
{
	int i;

	if (nr < 1 || !frames)
		return false;
	for (i = 0; i < nr; i++)
		if (!frames[i] || strchr(frames[i], '\n'))
			return false;
	return true;
}

static int stack_insert(struct agg *agg, __u64 stack_hash, char **frames, int nr)
{
	struct agg_stack *st;
	int err;

	err = make_room((void **)&agg->stacks, &agg->stacks_alloc, agg->nr_stacks, agg->max_stacks,
			sizeof(*agg->stacks), &agg->stack_slots, stack_hash_of);
	if (err)
		return err;
	st = &agg->stacks[agg->nr_stacks];
	st->frames = frames;
	st->hash = stack_hash;
	st->nr = nr;
	st->used = true;
	slots__put(&agg->stack_slots, stack_hash, agg->nr_stacks);
	agg->nr_stacks++;
	return 0;
}

/* The stack held under stack_hash, marked used, or NULL */
static struct agg_stack *stack_find(struct agg *agg, __u64 stack_hash)
{
	__u32 pos = stack_hash & agg->stack_slots.mask, i;

	while ((i = slots__next(&agg->stack_slots, stack_hash, &pos)) != NONE) {
		if (agg->stacks[i].hash == stack_hash) {
			agg->stacks[i].used = true;
			return &agg->stacks[i];
		}
	}
	return NULL;
}

static void stack_overflow(struct agg *agg)
{
	agg->ov_total.stacks++;
	agg->ov_delta.stacks++;
}

/* Insert frames (a frames_dup() block) or count why not: 0 when taken */
static int stack_take(struct agg *agg, __u64 stack_hash, char **frames, int nr)
{
	int err = agg->nr_stacks < agg->max_stacks ? stack_insert(agg, stack_hash, frames, nr) :
		-ENOSPC;

	if (err)
		stack_overflow(agg);
	return err;
}

int agg__add_stack(struct agg *agg, __u64 stack_hash, const char *const *frames, int nr)
{
	char **blk;
	int err;

	if (!stack_hash || !frames_valid(frames, nr))
		return -EINVAL;
	if (stack_find(agg, stack_hash))
		return 0;
	blk = frames_dup(frames, nr);
	if (!blk) {
		stack_overflow(agg);
		return -ENOMEM;
	}
	err = stack_take(agg, stack_hash, blk, nr);
	if (err)
		free(blk);
	return err == -ENOSPC ? 0 : err;
}

int agg__adopt_stack(struct agg *agg, __u64 stack_hash, char **frames, int nr)
{
	if (!stack_hash || !frames_valid((const char *const *)frames, nr))
		return -EINVAL;
	if (stack_find(agg, stack_hash)) {
		free(frames);
		return 0;
	}
	return stack_take(agg, stack_hash, frames, nr);
}

static void row_of_key(const struct agg *agg, const struct agg_key *k, struct agg_row *row)
{
	row->cap = k->cap;
	row->granted = k->granted;
	row->audit = k->audit;
	row->uid = k->uid;
	row->call_site = str_of(agg, k->strs[0]);
	row->syscall = str_of(agg, k->strs[1]);
	row->workload = str_of(agg, k->strs[2]);
	row->comm = str_of(agg, k->strs[3]);
	row->stack_hash = k->stack_hash;
	row->count = k->count;
	row->first_ns = k->first_ns;
	row->last_ns = k->last_ns;
}

static int for_each_overflow(const struct agg *agg,
			     int (*fn)(const struct agg_row *row, void *ctx), void *ctx)
{
	struct agg_row row = {
		.call_site = AGG_OVERFLOW, .syscall = AGG_OVERFLOW,
		.workload = AGG_OVERFLOW, .comm = AGG_OVERFLOW,
	};
	__u32 cap, granted, audit;
	int err;

	for (cap = 0; cap <= AGG_OVERFLOW_CAPS; cap++) {
		for (granted = 0; granted < 2; granted++) {
			for (audit = 0; audit < OV_AUDITS; audit++) {
				const struct agg_ov_row *ov = &agg->ov[cap][granted][audit];

				if (!ov->count)
					continue;
				row.cap = cap < AGG_OVERFLOW_CAPS ? cap : AGG_OTHER;
				row.granted = granted;
				row.audit = audit < CHECK_AUDIT_NR ? audit : AGG_OTHER;
				row.count = ov->count;
				row.first_ns = ov->first_ns;
				row.last_ns = ov->last_ns;
				err = fn(&row, ctx);
				if (err)
					return err;
			}
		}
	}
	return 0;
}

int agg__for_each(const struct agg *agg, int (*fn)(const struct agg_row *row, void *ctx),
		  void *ctx)
{
	struct agg_row row;
	__u32 i;
	int err;

	for (i = 0; i < agg->nr_keys; i++) {
		if (!agg->keys[i].count)
			continue;
		row_of_key(agg, &agg->keys[i], &row);
		err = fn(&row, ctx);
		if (err)
			return err;
	}
	if (!agg->ov_delta.checks)
		return 0;
	return for_each_overflow(agg, fn, ctx);
}

int agg__for_each_new_stack(const struct agg *agg,
			    int (*fn)(__u64 stack_hash, const char *const *frames, int nr,
				      void *ctx),
			    void *ctx)
{
	__u32 i;
	int err;

	for (i = 0; i < agg->nr_stacks; i++) {
		const struct agg_stack *st = &agg->stacks[i];

		if (!st->frames)
			continue;
		err = fn(st->hash, (const char *const *)st->frames, st->nr, ctx);
		if (err)
			return err;
	}
	return 0;
}

/* Keep the keys counted in the interval, with their counts reset */
static void reset_keys(struct agg *agg)
{
	__u32 i, n = 0;

	for (i = 0; i < agg->nr_keys; i++) {
		if (!agg->keys[i].count)
			continue;
		agg->keys[n] = agg->keys[i];
		agg->keys[n].count = 0;
		agg->keys[n].first_ns = 0;
		agg->keys[n].last_ns = 0;
		n++;
	}
	agg->nr_keys = n;
	slots__clear(&agg->key_slots);
	for (i = 0; i < n; i++)
		slots__put(&agg->key_slots, agg->keys[i].hash, i);
}

/* Free the strings no kept key uses, compact the rest, renumber the keys' */
static void reset_strs(struct agg *agg)
{
	__u32 i, j, n = 0;

	for (i = 0; i < agg->nr_strs; i++)
		agg->strs[i].new_idx = NONE;
	for (i = 0; i < agg->nr_keys; i++)
		for (j = 0; j < NR_KEY_STRS; j++)
			if (agg->keys[i].strs[j] != NONE)
				agg->strs[agg->keys[i].strs[j]].new_idx = 0;
	for (i = 0; i < agg->nr_strs; i++) {
		if (agg->strs[i].new_idx == NONE) {
			free(agg->strs[i].s);
			continue;
		}
		agg->strs[i].new_idx = n;
		agg->strs[n].s = agg->strs[i].s;
		agg->strs[n].hash = agg->strs[i].hash;
		n++;
	}
	/*
	 * the compaction copies s and hash only: strs[old].new_idx is still
	 * the new index of the string that was at old
	 */
	for (i = 0; i < agg->nr_keys; i++)
		for (j = 0; j < NR_KEY_STRS; j++)
			if (agg->keys[i].strs[j] != NONE)
				agg->keys[i].strs[j] = agg->strs[agg->keys[i].strs[j]].new_idx;
	agg->nr_strs = n;
	slots__clear(&agg->str_slots);
	for (i = 0; i < n; i++)
		slots__put(&agg->str_slots, agg->strs[i].hash, i);
}

/* Keep the hashes of the stacks used in the interval, frames freed */
static void reset_stacks(struct agg *agg)
{
	__u32 i, n = 0;

	for (i = 0; i < agg->nr_stacks; i++) {
		struct agg_stack *st = &agg->stacks[i];

		free(st->frames);
		st->frames = NULL;
		if (!st->used)
			continue;
		st->used = false;
		agg->stacks[n++] = *st;
	}
	agg->nr_stacks = n;
	slots__clear(&agg->stack_slots);
	for (i = 0; i < n; i++)
		slots__put(&agg->stack_slots, agg->stacks[i].hash, i);
}

void agg__reset_deltas(struct agg *agg)
{
	reset_keys(agg);
	reset_strs(agg);
	reset_stacks(agg);
	memset(agg->ov, 0, sizeof(agg->ov));
	memset(&agg->ov_delta, 0, sizeof(agg->ov_delta));
}

__u64 agg__overflow(const struct agg *agg)
{
	return agg->ov_total.checks;
}

void agg__overflow_counts(const struct agg *agg, struct agg_overflow *ret_total,
			  struct agg_overflow *ret_delta)
{
	if (ret_total)
		*ret_total = agg->ov_total;
	if (ret_delta)
		*ret_delta = agg->ov_delta;
}

__u32 agg__nr_keys(const struct agg *agg)
{
	return agg->nr_keys;
}

__u32 agg__nr_stacks(const struct agg *agg)
{
	return agg->nr_stacks;
}
