/* SPDX-License-Identifier: GPL-2.0 */
/*
 * callsite.h: find the frame of a kernel stack that made a capability check,
 * past the capability wrappers and the BPF frames above it.
 */
#ifndef CAPAUDIT_CALLSITE_H
#define CAPAUDIT_CALLSITE_H

#include <stdbool.h>
#include <linux/types.h>

#include "ksyms.h"

/*
 * True when func (a kallsyms name, compiler suffixes such as ".isra.0" or
 * ".constprop.0" allowed) is a capability wrapper or a BPF frame, i.e. not
 * the code that asked for the capability.  The list is in callsite.c.
 */
bool callsite__is_wrapper(const char *func);

/* A frame of BPF code (program, trampoline, dispatcher): the tracer itself */
bool callsite__is_bpf_frame(const char *func);

/*
 * Index of the first frame (0 = innermost) whose symbol is not a wrapper, or
 * -ENOENT when every frame is one (or nr_ips is 0).  A frame with no symbol
 * is not a wrapper: its index is returned.  An ip of 0 ends the stack (the
 * stack map pads with zeros).  -EINVAL when ips is NULL or nr_ips < 0.
 */
int callsite__find(const struct ksyms *ksyms, const __u64 *ips, int nr_ips);

#endif /* CAPAUDIT_CALLSITE_H */
