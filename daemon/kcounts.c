// SPDX-License-Identifier: GPL-2.0
/*
 * kcounts.c: where the checks counted in the kernel meet the agg.
 *
 * The BPF program never sends most checks: it gives each struct
 * capaudit_key an index and counts its checks per CPU in "counts", which
 * the daemon maps, and sends one KEY record (with the index) per new key.
 * This file remembers each index's attribution (the struct check its KEY
 * record became), resolves fingerprints from LEARN records into "sites",
 * and at each flush sums each index's row entries: a total only grows (an
 * index is never reused: a delete would race an increment on another CPU),
 * so what it grew by since the last read is exact.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>

#include "agg.h"
#include "kcounts.h"
#include "stacks.h"

struct kkey {
	struct check c;		/* strings owned: freed with the kkey */
	__u64 last_total;
};

struct kcounts {
	struct kcounts_maps maps;
	struct kkey *by_idx[CAPAUDIT_COUNT_KEYS];	/* NULL: no KEY record yet */
	__u32 max_idx;		/* one past the highest index known */
	struct kcounts_stats stats;
};

static void kkey__free(struct kkey *k)
{
	if (!k)
		return;
	free((char *)k->c.call_site);
	free((char *)k->c.syscall);
	free((char *)k->c.workload);
	free((char *)k->c.comm);
	free(k);
}

struct kcounts *kcounts__new(const struct kcounts_maps *maps)
{
	struct kcounts *kc;

	if (!maps->counts || maps->ncpus < 1)
		return NULL;
	kc = calloc(1, sizeof(*kc));
	if (!kc)
		return NULL;
	kc->maps = *maps;
	return kc;
}

void kcounts__free(struct kcounts *kc)
{
	__u32 i;

	if (!kc)
		return;
	for (i = 0; i < kc->max_idx; i++)
		kkey__free(kc->by_idx[i]);
	free(kc);
}

static void set_site(struct kcounts *kc, const struct capaudit_event *e, __u32 state, __u32 slot)
{
	struct capaudit_fp fp = { .depth = e->depth, .cap = e->cap, .syscall_nr = e->syscall_nr };
	struct capaudit_site st = { .state = state, .slot = slot };

	if (kc->maps.sites_fd < 0)
		return;
	bpf_map_update_elem(kc->maps.sites_fd, &fp, &st, BPF_ANY);
	/* after the write: a slot cached before it is not used again */
	if (kc->maps.sites_gen)
		__atomic_fetch_add(kc->maps.sites_gen, 1, __ATOMIC_SEQ_CST);
}

/* A site read from a slot that is not the unwound call site: unwind instead */
static void check_site(struct kcounts *kc, const struct capaudit_event *e,
		       const struct stack_info *si)
{
	if (!e->site || !si || si->call_site_ip == e->site)
		return;
	kc->stats.conflicts++;
	set_site(kc, e, CAPAUDIT_SITE_UNWIND, 0);
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

int kcounts__add_key(struct kcounts *kc, const struct capaudit_event *e, const struct check *c,
		     const struct stack_info *si)
{
	struct kkey *k;

	check_site(kc, e, si);
	if (e->key_idx >= CAPAUDIT_COUNT_KEYS)
		return -ERANGE;
	if (kc->by_idx[e->key_idx])
		return -EEXIST;
	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	k->c = *c;
	k->c.call_site = dup_or_null(c->call_site);
	k->c.syscall = dup_or_null(c->syscall);
	k->c.workload = dup_or_null(c->workload);
	k->c.comm = dup_or_null(c->comm);
	if ((c->call_site && !k->c.call_site) || (c->syscall && !k->c.syscall) ||
	    (c->workload && !k->c.workload) || (c->comm && !k->c.comm))
		goto out_free_key;
	kc->by_idx[e->key_idx] = k;
	if (e->key_idx >= kc->max_idx)
		kc->max_idx = e->key_idx + 1;
	kc->stats.keys++;
	return 0;

out_free_key:
	kkey__free(k);
	return -ENOMEM;
}

int kcounts__find_slot(const __u64 *window, int nr, __u64 site_ip)
{
	int i;

	if (!window || !site_ip)
		return -ENOENT;
	for (i = nr - 1; i >= 0; i--)
		if (window[i] == site_ip)
			return i;
	return -ENOENT;
}

int kcounts__learn(struct kcounts *kc, const struct capaudit_event *e, const __u64 *window,
		   const struct stack_info *si)
{
	int slot = kcounts__find_slot(window, CAPAUDIT_WINDOW_SLOTS, si ? si->call_site_ip : 0);

	if (slot < 0) {
		kc->stats.unwound++;
		set_site(kc, e, CAPAUDIT_SITE_UNWIND, 0);
		return slot;
	}
	kc->stats.learned++;
	set_site(kc, e, CAPAUDIT_SITE_READY, slot);
	return 0;
}

void kcounts__check_sample(struct kcounts *kc, const struct capaudit_event *e,
			   const struct stack_info *si)
{
	kc->stats.samples++;
	check_site(kc, e, si);
}

/* An index's total over the CPUs' rows (another CPU may be adding to it) */
static __u64 read_total(const struct kcounts *kc, __u32 idx)
{
	__u64 total = 0;
	int cpu;

	for (cpu = 0; cpu < kc->maps.ncpus; cpu++)
		total += kc->maps.counts[(size_t)cpu * CAPAUDIT_COUNT_KEYS + idx];
	return total;
}

long long kcounts__collect(struct kcounts *kc, struct agg *agg, __u64 ts_ns)
{
	long long added = 0;
	__u64 total;
	struct kkey *k;
	__u32 idx;

	for (idx = 0; idx < kc->max_idx; idx++) {
		k = kc->by_idx[idx];
		if (!k)
			continue;	/* its KEY record is still in the ring buffer */
		total = read_total(kc, idx);
		if (total <= k->last_total)
			continue;
		k->c.ts_ns = ts_ns;
		agg__add_n(agg, &k->c, total - k->last_total);
		added += total - k->last_total;
		k->last_total = total;
	}
	return added;
}

void kcounts__stats(const struct kcounts *kc, struct kcounts_stats *ret_stats)
{
	*ret_stats = kc->stats;
}
