/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksyms.h: kernel symbol table read from /proc/kallsyms (or a saved copy),
 * mapping stack addresses to "function+offset".
 */
#ifndef CAPAUDIT_KSYMS_H
#define CAPAUDIT_KSYMS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Beyond the last symbol, an address still maps to it only when it lies less
 * than this many bytes past its start: kallsyms has no sizes, and an address
 * far past the end of everything is a stale table, not a huge function.
 */
#define KSYMS_LAST_SYM_MAX_SIZE	0x10000UL

struct ksyms;

struct ksym {
	const char *name;
	unsigned long addr;
	const char *module;	/* "ext4", "bpf", ...; NULL in vmlinux */
	char type;		/* kallsyms type letter: 'T', 't', 'D', ... */
};

/*
 * Reads a kallsyms-format file ("ffffffff81000000 T _stext", optionally
 * followed by "\t[module]").  Only code symbols ('T', 't', 'W', 'w') are
 * kept: stacks hold code addresses, and data symbols are nearly half of a
 * kernel's.  Malformed lines are skipped; a file with no valid line gives
 * -ENODATA.  Returns 0 or a negative errno.
 *
 * Symbols sharing an address (aliases) are ordered by: global text ('T',
 * 'W') first, then local text ('t', 'w'), then other global, then other
 * local types; then fewer leading underscores; then the shorter name; then
 * strcmp(); then module.  ksyms__map_addr() returns the first of them, so the
 * choice does not depend on the file's order: memcpy rather than __memcpy,
 * __x64_sys_vhangup rather than __ia32_sys_vhangup or __do_sys_vhangup.
 */
int ksyms__load(const char *path, struct ksyms **ret_ksyms);
void ksyms__free(struct ksyms *ksyms);

/* Number of symbols loaded. */
size_t ksyms__count(const struct ksyms *ksyms);

/*
 * The symbol with the greatest address <= addr (the preferred alias), or
 * NULL: before the first symbol, more than KSYMS_LAST_SYM_MAX_SIZE past the
 * last one, when every address was hidden, or when ksyms is NULL.
 */
const struct ksym *ksyms__map_addr(const struct ksyms *ksyms, unsigned long addr);

/*
 * The symbol named name, or NULL.  Among several symbols of that name (static
 * functions of the same name in different files), the first by the alias
 * order's type rank, then the lowest address.  Works with hidden addresses
 * (the symbol's addr is then 0).
 */
const struct ksym *ksyms__get_symbol(const struct ksyms *ksyms, const char *name);

/* True when every address read was 0 (kptr_restrict, or no CAP_SYSLOG). */
bool ksyms__addrs_hidden(const struct ksyms *ksyms);

/*
 * Writes "func+0x1f" (or "[unknown]" when no symbol maps addr) into buf, and
 * returns the length that string has, like snprintf().
 */
int ksyms__format(const struct ksyms *ksyms, unsigned long addr, char *buf, size_t size);

#endif /* CAPAUDIT_KSYMS_H */
