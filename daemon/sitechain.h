/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sitechain.h: the call site without unwinding (bpf/capaudit.h).  From a
 * LEARN record's window of raw stack slots and its unwound stack, the chain
 * of return addresses from the BPF frame to the call site, each at its
 * slot; and the walk the BPF program makes with what was learned, done over
 * the same window to check it before the program relies on it.
 */
#ifndef CAPAUDIT_SITECHAIN_H
#define CAPAUDIT_SITECHAIN_H

#include <linux/types.h>

#include "capaudit.h"

struct sitechain_link {
	__u64 addr;		/* a return address */
	__u32 slot;		/* its slot in the window */
};

/*
 * The return addresses ips[0..site_idx] (innermost first; ips[site_idx]
 * the call site) that window[0..nr_slots) holds, in order, each above the
 * one before: the call site at its highest slot, each earlier address at the
 * highest slot below the next one (a stale copy of an address lies below
 * the real one).  Frames not in the window (the BPF program's own) are left
 * out.  Fills links[0..max_links) innermost first, the call site last.
 * Returns the number of links, -ENOENT when the call site is not in the
 * window, -E2BIG when the chain is longer than max_links or
 * CAPAUDIT_MAX_HOPS, -EINVAL on bad arguments.
 */
int sitechain__find(const __u64 *window, int nr_slots, const __u64 *ips, int site_idx,
		    struct sitechain_link *links, int max_links);

/* What the walk knows of a return address: 0 with *ret_hop, -ENOENT if nothing */
typedef int (*sitechain_lookup_fn)(void *ctx, __u64 addr, struct capaudit_hop *ret_hop);

/*
 * The BPF program's walk over window[0..nr_slots) from slot start: the call
 * site it ends at, 0 when it ends nowhere (an unknown, pending or unwound
 * address, a slot beyond the window, more than CAPAUDIT_MAX_HOPS hops).
 */
__u64 sitechain__walk(const __u64 *window, int nr_slots, __u32 start, sitechain_lookup_fn lookup,
		      void *ctx);

#endif
