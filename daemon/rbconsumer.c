// SPDX-License-Identifier: GPL-2.0
/*
 * rbconsumer.c: bounded batches over libbpf's ring_buffer__consume().  The
 * sample callback stops the batch by returning -EAGAIN after its quota;
 * libbpf has advanced the consumer position past that record already, so
 * nothing is read twice or skipped.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "rbconsumer.h"

struct rbconsumer {
	struct ring_buffer *rb;
	ring_buffer_sample_fn fn;
	void *ctx;
	unsigned int left;	/* records left in this batch */
};

static int batch_cb(void *ctx, void *data, size_t size)
{
	struct rbconsumer *c = ctx;
	int err = c->fn(c->ctx, data, size);

	if (err)
		return err;
	return --c->left ? 0 : -EAGAIN;
}

struct rbconsumer *rbconsumer__new(int map_fd, ring_buffer_sample_fn fn, void *ctx)
{
	struct rbconsumer *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->fn = fn;
	c->ctx = ctx;
	c->rb = ring_buffer__new(map_fd, batch_cb, c, NULL);
	if (!c->rb) {
		free(c);
		return NULL;
	}
	return c;
}

void rbconsumer__free(struct rbconsumer *c)
{
	if (!c)
		return;
	ring_buffer__free(c->rb);
	free(c);
}

int rbconsumer__epoll_fd(const struct rbconsumer *c)
{
	return ring_buffer__epoll_fd(c->rb);
}

static int consume(struct rbconsumer *c, unsigned int quota)
{
	int n;

	c->left = quota;
	n = ring_buffer__consume(c->rb);
	if (n == -EAGAIN)
		return 1;
	return n < 0 ? n : 0;
}

int rbconsumer__consume(struct rbconsumer *c)
{
	return consume(c, RBCONSUMER_BATCH);
}

int rbconsumer__drain(struct rbconsumer *c)
{
	return consume(c, UINT_MAX);
}
