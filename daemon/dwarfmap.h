/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dwarfmap.h: map a kernel stack frame "func+0xoff" to source file:line
 * through the DWARF of the kernel's vmlinux (libdw), with the chain of
 * inlined functions around the address, innermost first.
 */
#ifndef CAPAUDIT_DWARFMAP_H
#define CAPAUDIT_DWARFMAP_H

#include <stdbool.h>

struct dwarfmap;

/* One level of the inline chain at an address. */
struct dwarfmap_loc {
	const char *file; /* as the DWARF names it (often absolute) */
	unsigned int line;
	const char *function;	/* the (possibly inlined) function holding file:line */
};

#define DWARFMAP_MAX_DEPTH 16

/*
 * Where a frame lands: locs[0] the innermost source line, each next one the
 * line that the previous level was inlined into.
 */
struct dwarfmap_result {
	struct dwarfmap_loc locs[DWARFMAP_MAX_DEPTH];
	int nr;
	bool ambiguous; /* several symbols of that name could hold the offset */
};

/*
 * Opens the ELF file at path.  Errors: -ENOENT (no such file), -ENOEXEC (not
 * an ELF file), -ENODATA (no DWARF debug information: not built with
 * CONFIG_DEBUG_INFO, or stripped), -ENOMEM, other -errno from the file
 * system.
 */
int dwarfmap__open(const char *path, struct dwarfmap **ret_map);
void dwarfmap__free(struct dwarfmap *map);

/*
 * Maps the frame func+off.  A return address (return_addr true) is moved
 * back one byte to land inside its call instruction.  The strings belong to
 * the map and live as long as it does.  Results are cached per (func, off).
 * Errors: -ENOENT (no function symbol of that name holds the offset),
 * -ENODATA (no line information for the address), -EINVAL, -ENOMEM.
 */
int dwarfmap__addr2line(struct dwarfmap *map, const char *func,
			unsigned long off, bool return_addr,
			const struct dwarfmap_result **ret_res);

/*
 * The function that the direct call (x86 "call rel32") ending just before
 * the return address func+off calls: a function that ends in a tail call to
 * a capability check leaves no frame of its own, the stack shows its
 * caller's return address.  *ret_callee lives as long as the map.
 * -ENOENT (no such symbol), -ENOEXEC (no direct call there), -ENODATA.
 */
int dwarfmap__call_target(struct dwarfmap *map, const char *func,
			  unsigned long off, const char **ret_callee);

/* The vmlinux's GNU build ID: its length (bytes at *ret_bits), or -ENODATA */
int dwarfmap__build_id(struct dwarfmap *map, const unsigned char **ret_bits);

/*
 * Splits a frame "func+0xoff" (ksyms__format()) into func (into buf) and off.
 * -EINVAL when it has no "+0x" offset or func does not fit.
 */
int dwarfmap__parse_frame(const char *frame, char *buf, size_t size,
			  unsigned long *ret_off);

/* The errors of dwarfmap__open() in words, for messages. */
const char *dwarfmap__strerror(int err);

#endif
