// SPDX-License-Identifier: GPL-2.0
/*
 * kcounts.c: where the checks counted in the kernel meet the agg.
 *
 * The BPF program never sends most checks: it counts them in the per-CPU
 * hash "counts" by struct capaudit_key, and sends one KEY record per new
 * key.  This file remembers each key's attribution (the struct check its KEY
 * record became), resolves fingerprints from LEARN records into "sites",
 * and at each flush reads the keys' totals: a total only grows (keys are
 * never deleted: a delete would race an increment on another CPU), so what
 * it grew by since the last read is exact.
 */
#include <errno.h>
#include <search.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "agg.h"
#include "kcounts.h"
#include "stacks.h"

struct kkey {
	struct capaudit_key key;
	struct check c;		/* strings owned: freed with the kkey */
	__u64 last_total;
};

struct kcounts {
	int counts_fd, sites_fd;
	int ncpus;
	void *tree;		/* tsearch() tree of struct kkey by key */
	__u64 *vals;		/* one per possible CPU */
	struct kcounts_stats stats;
};

static int kkey_cmp(const void *a, const void *b)
{
	return memcmp(&((const struct kkey *)a)->key, &((const struct kkey *)b)->key,
		      sizeof(struct capaudit_key));
}

static void kkey__free(void *p)
{
	struct kkey *k = p;

	if (!k)
		return;
	free((char *)k->c.call_site);
	free((char *)k->c.syscall);
	free((char *)k->c.workload);
	free((char *)k->c.comm);
	free(k);
}

struct kcounts *kcounts__new(int counts_fd, int sites_fd)
{
	struct kcounts *kc = calloc(1, sizeof(*kc));

	if (!kc)
		return NULL;
	kc->counts_fd = counts_fd;
	kc->sites_fd = sites_fd;
	kc->ncpus = libbpf_num_possible_cpus();
	if (kc->ncpus < 1)
		goto out_free_kc;
	kc->vals = calloc(kc->ncpus, sizeof(*kc->vals));
	if (!kc->vals)
		goto out_free_kc;
	return kc;

out_free_kc:
	free(kc);
	return NULL;
}

void kcounts__free(struct kcounts *kc)
{
	if (!kc)
		return;
	tdestroy(kc->tree, kkey__free);
	free(kc->vals);
	free(kc);
}

/* The key a record was counted under: the record's fields, as BPF set them */
static void key_of(const struct capaudit_event *e, struct capaudit_key *ret_key)
{
	memset(ret_key, 0, sizeof(*ret_key));
	ret_key->cgroup_id = e->cgroup_id;
	ret_key->syscall_nr = e->syscall_nr;
	ret_key->site = e->site;
	ret_key->kstack_id = e->site ? CAPAUDIT_NO_STACK : e->kstack_id;
	ret_key->pid = e->pid;
	ret_key->cap = e->cap;
	ret_key->ret = e->ret;
	ret_key->opts = e->opts;
	ret_key->flags = e->flags;
	ret_key->depth = e->depth;
	memcpy(ret_key->comm, e->comm, sizeof(ret_key->comm));
}

static void set_site(struct kcounts *kc, const struct capaudit_event *e, __u32 state, __u32 slot)
{
	struct capaudit_fp fp = { .depth = e->depth, .cap = e->cap, .syscall_nr = e->syscall_nr };
	struct capaudit_site st = { .state = state, .slot = slot };

	bpf_map_update_elem(kc->sites_fd, &fp, &st, BPF_ANY);
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
	struct kkey *k = calloc(1, sizeof(*k)), **found;

	check_site(kc, e, si);
	if (!k)
		return -ENOMEM;
	key_of(e, &k->key);
	k->c = *c;
	k->c.call_site = dup_or_null(c->call_site);
	k->c.syscall = dup_or_null(c->syscall);
	k->c.workload = dup_or_null(c->workload);
	k->c.comm = dup_or_null(c->comm);
	if ((c->call_site && !k->c.call_site) || (c->syscall && !k->c.syscall) ||
	    (c->workload && !k->c.workload) || (c->comm && !k->c.comm))
		goto out_free_key;
	found = tsearch(k, &kc->tree, kkey_cmp);
	if (!found)
		goto out_free_key;
	if (*found != k) {
		kkey__free(k);
		return -EEXIST;
	}
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

/* A key's total over the CPUs, or -errno */
static int read_total(struct kcounts *kc, const struct capaudit_key *key, __u64 *ret_total)
{
	int cpu;

	if (bpf_map_lookup_elem(kc->counts_fd, key, kc->vals))
		return -errno;
	*ret_total = 0;
	for (cpu = 0; cpu < kc->ncpus; cpu++)
		*ret_total += kc->vals[cpu];
	return 0;
}

long long kcounts__collect(struct kcounts *kc, struct agg *agg, __u64 ts_ns)
{
	struct capaudit_key key, next;
	struct kkey probe, **found;
	long long added = 0;
	__u64 total = 0;
	void *prev = NULL;

	while (!bpf_map_get_next_key(kc->counts_fd, prev, &next)) {
		key = next;
		prev = &key;
		probe.key = key;
		found = tfind(&probe, &kc->tree, kkey_cmp);
		if (!found || read_total(kc, &key, &total))
			continue;	/* its KEY record is still in the ring buffer */
		if (total <= (*found)->last_total)
			continue;
		(*found)->c.ts_ns = ts_ns;
		agg__add_n(agg, &(*found)->c, total - (*found)->last_total);
		added += total - (*found)->last_total;
		(*found)->last_total = total;
	}
	return errno == ENOENT ? added : -errno;
}

void kcounts__stats(const struct kcounts *kc, struct kcounts_stats *ret_stats)
{
	*ret_stats = kc->stats;
}
