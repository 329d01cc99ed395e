// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_event.c: libFuzzer target for the ring-buffer record decoder: the
 * input cut into records (the last one of any size), each decoded, named
 * (capability, syscall), turned into trace JSON and counted by the
 * aggregator with tiny limits.  No crash, a record of another size refused,
 * and every decoded record counted exactly once, overflow rows included.
 */
#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agg.h"
#include "array_size.h"
#include "capnames.h"
#include "events.h"
#include "kcounts.h"
#include "sitechain.h"
#include "syscalls.h"
#include "tracejson.h"

struct sum {
	__u64 count;
	__u64 overflow;
};

static int add_row(const struct agg_row *row, void *ctx)
{
	struct sum *s = ctx;

	assert(row->count > 0 && row->call_site && row->workload && row->comm);
	assert(row->audit < CHECK_AUDIT_NR && row->granted <= 1);
	s->count += row->count;
	if (!strcmp(row->call_site, AGG_OVERFLOW))
		s->overflow += row->count;
	return 0;
}

static const char *const sites[] = { "[unknown]", "sethostname", "keyctl_chown_key",
				     "r_show.isra.0" };

/* The kind field of the record at p (unaligned: fuzz input), or ~0 */
static __u32 kind_at(const uint8_t *p, size_t size)
{
	__u32 kind = ~0u;

	if (size >= offsetof(struct capaudit_event, kind) + sizeof(kind))
		memcpy(&kind, p + offsetof(struct capaudit_event, kind), sizeof(kind));
	return kind;
}

/* The nr_kframes field of the record at p, or ~0 */
static __u32 nr_kframes_at(const uint8_t *p, size_t size)
{
	__u32 nr = ~0u;

	if (size >= offsetof(struct capaudit_event, nr_kframes) + sizeof(nr))
		memcpy(&nr, p + offsetof(struct capaudit_event, nr_kframes), sizeof(nr));
	return nr;
}

/* The size a record of that kind and that many frames has */
static size_t record_size(__u32 kind, __u32 nr)
{
	return (kind == CAPAUDIT_REC_LEARN ? sizeof(struct capaudit_learn) :
					      sizeof(struct capaudit_event)) +
	       (size_t)nr * sizeof(__u64);
}

/* One record: 1 when it was decoded and counted */
static int one_record(struct agg *agg, const uint8_t *data, size_t size)
{
	char capbuf[CAPNAMES_BUF_LEN], sysbuf[32];
	struct capaudit_event e;
	struct trace_record r = { .event = &e };
	struct sitechain_link links[CAPAUDIT_MAX_HOPS];
	const __u64 *window, *ips;
	int n, i;
	json_object *o;
	struct check c;

	if (events__decode(data, size, &e)) {
		assert(size < sizeof(e) || kind_at(data, size) > CAPAUDIT_REC_SAMPLE ||
		       nr_kframes_at(data, size) > CAPAUDIT_MAX_STACK ||
		       size != record_size(kind_at(data, size), nr_kframes_at(data, size)));
		return 0;
	}
	assert(!events__kstack(data, size) == !e.nr_kframes);
	window = events__window(data, size);
	assert(!window == (e.kind != CAPAUDIT_REC_LEARN));
	if (window && e.nr_kframes) {
		ips = events__kstack(data, size);
		n = sitechain__find(window, CAPAUDIT_WINDOW_SLOTS, ips, e.nr_kframes - 1, links,
				    CAPAUDIT_MAX_HOPS);
		assert(n == -ENOENT || n == -E2BIG || (n > 0 && n <= CAPAUDIT_MAX_HOPS));
		for (i = 0; i < n; i++)
			assert(links[i].slot < CAPAUDIT_WINDOW_SLOTS &&
			       window[links[i].slot] == links[i].addr &&
			       (!i || links[i].slot > links[i - 1].slot));
		assert(n <= 0 || links[n - 1].addr == ips[e.nr_kframes - 1]);
	}
	if (e.kind == CAPAUDIT_REC_SAMPLE)
		return 0;	/* a check counted elsewhere: not one here */
	assert(strlen(e.comm) < CAPAUDIT_COMM_LEN);
	r.cap_name = capnames__name(e.cap, capbuf, sizeof(capbuf));
	r.syscall = syscalls__describe(e.syscall_nr, sysbuf, sizeof(sysbuf));
	assert(r.cap_name && (r.syscall || e.syscall_nr == CAPAUDIT_NO_SYSCALL));
	o = trace_record__to_json(&r);
	assert(o);
	assert(json_object_to_json_string(o));
	json_object_put(o);
	c = (struct check){
		.ts_ns = e.ts_ns,
		.tid = e.tid,
		.cap = e.cap,
		.granted = events__granted(&e),
		.audit = events__audit_class(&e),
		/* a kallsyms name or "[unknown]", as stacks.c gives */
		.call_site = sites[e.nr_kframes % ARRAY_SIZE(sites)],
		.syscall = r.syscall,
		.workload = e.cgroup_id & 1 ? "probe.service" : e.comm,
		.comm = e.comm,
	};
	agg__add(agg, &c);
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct agg_limits limits = { .max_keys = 4, .max_stacks = 2 };
	static __u64 aligned[sizeof(struct capaudit_record) / sizeof(__u64)];
	size_t rec = 0;
	struct agg *agg = agg__new(&limits);
	struct sum s = {};
	__u64 decoded = 0;
	size_t off;

	if (!agg)
		abort();
	/* records one after the other, each sized by its kind and nr_kframes fields */
	for (off = 0; off < size; off += rec) {
		__u32 nr = nr_kframes_at(data + off, size - off);

		rec = record_size(kind_at(data + off, size - off),
				  nr <= CAPAUDIT_MAX_STACK ? nr : 0);
		/* the ring buffer's records are 8-byte aligned; fuzz input is not */
		memcpy(aligned, data + off, size - off < rec ? size - off : rec);
		decoded += one_record(agg, (const uint8_t *)aligned,
				      size - off < rec ? size - off : rec);
	}
	agg__for_each(agg, add_row, &s);
	assert(s.count == decoded);
	assert(s.overflow == agg__overflow(agg));
	agg__free(agg);
	return 0;
}
