// SPDX-License-Identifier: GPL-2.0
/*
 * kcounts.c: where the checks counted in the kernel meet the agg.
 *
 * The BPF program never sends most checks: it gives each struct
 * capaudit_key an index and counts its checks per CPU in "counts", which
 * the daemon maps, and sends one KEY record (with the index) per new key.
 * This file remembers each index's attribution (the struct check its KEY
 * record became), turns LEARN records into "hops" (sitechain.c), and at
 * each flush sums each index's row entries: a total only grows (an
 * index is never reused: a delete would race an increment on another CPU),
 * so what it grew by since the last read is exact.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>

#include "agg.h"
#include "kcounts.h"
#include "sitechain.h"
#include "stacks.h"

/* A LEARN for site_start that found nothing is retried this many times */
#define START_RETRIES	8

struct kkey {
	struct check c;		/* strings owned: freed with the kkey */
	__u64 last_total;
};

struct kcounts {
	struct kcounts_maps maps;
	struct kkey *by_idx[CAPAUDIT_COUNT_KEYS];	/* NULL: no KEY record yet */
	__u32 max_idx;		/* one past the highest index known */
	int start_retries;
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

/* What the BPF program will find for return address addr */
static void set_hop(struct kcounts *kc, __u64 addr, __u32 state, __u32 delta)
{
	struct capaudit_hop hop = { .state = state, .delta = delta };

	if (kc->maps.hops_fd < 0)
		return;
	bpf_map_update_elem(kc->maps.hops_fd, &addr, &hop, BPF_ANY);
}

/* After writes to "hops": a walk cached before them is not used again */
static void hops_changed(struct kcounts *kc)
{
	if (kc->maps.sites_gen)
		__atomic_fetch_add(kc->maps.sites_gen, 1, __ATOMIC_SEQ_CST);
}

/* A site that is not the unwound call site: its checks are keyed by stack */
static void check_site(struct kcounts *kc, const struct capaudit_event *e,
		       const struct stack_info *si)
{
	if (!e->site || !si || si->call_site_ip == e->site)
		return;
	kc->stats.conflicts++;
	set_hop(kc, e->site, CAPAUDIT_HOP_UNWIND, 0);
	hops_changed(kc);
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

static int lookup_hop(void *ctx, __u64 addr, struct capaudit_hop *ret_hop)
{
	const struct kcounts *kc = ctx;

	return bpf_map_lookup_elem(kc->maps.hops_fd, &addr, ret_hop) ? -ENOENT : 0;
}

/* The index of the call site in si's raw frames, or -1 */
static int site_index(const struct stack_info *si)
{
	__u32 i;

	for (i = 0; si && si->call_site_ip && i < si->nr_ips; i++)
		if (si->ips[i] == si->call_site_ip)
			return i;
	return -1;
}

/* Nothing learned from the LEARN record for e->site */
static int learn_failed(struct kcounts *kc, const struct capaudit_event *e)
{
	kc->stats.unwound++;
	if (e->site) {
		set_hop(kc, e->site, CAPAUDIT_HOP_UNWIND, 0);
	} else if (kc->maps.hops_fd >= 0 && kc->start_retries++ < START_RETRIES) {
		__u64 zero = 0;

		bpf_map_delete_elem(kc->maps.hops_fd, &zero);	/* a later check retries */
	}
	hops_changed(kc);
	return -ENOENT;
}

int kcounts__learn(struct kcounts *kc, const struct capaudit_event *e, const __u64 *window,
		   const struct stack_info *si)
{
	struct sitechain_link links[CAPAUDIT_MAX_HOPS];
	int n, i, idx = site_index(si);
	__u32 start;

	if (!window || idx < 0)
		return learn_failed(kc, e);
	n = sitechain__find(window, CAPAUDIT_WINDOW_SLOTS, si->ips, idx, links, CAPAUDIT_MAX_HOPS);
	if (n <= 0 || kc->maps.hops_fd < 0)
		return learn_failed(kc, e);
	for (i = 0; i + 1 < n; i++)
		set_hop(kc, links[i].addr, CAPAUDIT_HOP_NEXT, links[i + 1].slot - links[i].slot);
	set_hop(kc, links[n - 1].addr, CAPAUDIT_HOP_SITE, 0);
	kc->stats.hops += n;
	start = kc->maps.site_start ? *kc->maps.site_start : 0;
	if (!start && kc->maps.site_start)
		*kc->maps.site_start = start = links[0].slot;
	/* the program's walk over this very window must end at the call site */
	if (sitechain__walk(window, CAPAUDIT_WINDOW_SLOTS, start, lookup_hop, kc) !=
	    si->call_site_ip)
		return learn_failed(kc, e);
	kc->stats.learned++;
	hops_changed(kc);
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
