/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbconsumer.h: a BPF ring buffer consumed in bounded batches, so that an
 * event loop fed faster than it consumes still runs its timers and signals.
 */
#ifndef CAPAUDIT_RBCONSUMER_H
#define CAPAUDIT_RBCONSUMER_H

#include <bpf/libbpf.h>

#define RBCONSUMER_BATCH 16384	/* records per rbconsumer__consume() */

struct rbconsumer;

struct rbconsumer *rbconsumer__new(int map_fd, ring_buffer_sample_fn fn, void *ctx);
void rbconsumer__free(struct rbconsumer *c);
int rbconsumer__epoll_fd(const struct rbconsumer *c);
/*
 * At most RBCONSUMER_BATCH records: 1 when it stopped with records left
 * (call again without waiting: the kernel wakes a consumer only once it
 * has caught up), 0 when drained, or -errno.
 */
int rbconsumer__consume(struct rbconsumer *c);
/* Everything there is (at exit, once the producers are detached). */
int rbconsumer__drain(struct rbconsumer *c);

#endif
