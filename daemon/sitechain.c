// SPDX-License-Identifier: GPL-2.0
/*
 * sitechain.c: the chain of return addresses from the BPF frame to the call
 * site, found in a LEARN record, and the BPF program's walk along it.
 *
 * Every frame between the BPF program and the call site has a fixed size at
 * a given return address, so the distance from one return address to the
 * next is a property of the first one: what the daemon learns here holds
 * wherever in the task's stack the frames are, and a stack whose offset is
 * randomised at each system call learns a call site once.
 */
#include <errno.h>

#include "sitechain.h"

/* The highest i in [0, below) with window[i] == addr, or -1 */
static int highest_below(const __u64 *window, int below, __u64 addr)
{
	int i;

	for (i = below - 1; i >= 0; i--)
		if (window[i] == addr)
			return i;
	return -1;
}

int sitechain__find(const __u64 *window, int nr_slots, const __u64 *ips, int site_idx,
		    struct sitechain_link *links, int max_links)
{
	struct sitechain_link rev[CAPAUDIT_MAX_HOPS];
	int n = 0, i, slot, below;

	if (!window || !ips || !links || site_idx < 0 || nr_slots < 0 ||
	    nr_slots > CAPAUDIT_WINDOW_SLOTS || max_links < 1)
		return -EINVAL;
	if (!ips[site_idx])
		return -ENOENT;
	below = nr_slots;
	for (i = site_idx; i >= 0; i--) {
		if (!ips[i])
			continue;
		slot = highest_below(window, below, ips[i]);
		if (slot < 0) {
			if (i == site_idx)
				return -ENOENT;
			continue;	/* not a return address on this stack */
		}
		if (n == CAPAUDIT_MAX_HOPS || n == max_links)
			return -E2BIG;
		rev[n].addr = ips[i];
		rev[n].slot = slot;
		n++;
		below = slot;
	}
	for (i = 0; i < n; i++)
		links[i] = rev[n - 1 - i];
	return n;
}

__u64 sitechain__walk(const __u64 *window, int nr_slots, __u32 start, sitechain_lookup_fn lookup,
		      void *ctx)
{
	struct capaudit_hop hop;
	__u32 s = start;
	int i;

	if (!window || !lookup || !start)
		return 0;
	for (i = 0; i < CAPAUDIT_MAX_HOPS; i++) {
		if (s >= (__u32)nr_slots || !window[s])
			return 0;
		if (lookup(ctx, window[s], &hop))
			return 0;
		if (hop.state == CAPAUDIT_HOP_SITE)
			return window[s];
		if (hop.state != CAPAUDIT_HOP_NEXT || !hop.delta ||
		    hop.delta >= CAPAUDIT_WINDOW_SLOTS)
			return 0;
		s += hop.delta;
	}
	return 0;
}
