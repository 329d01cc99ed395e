// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_kallsyms.c: libFuzzer target for the /proc/kallsyms reader (ksyms.c):
 * any bytes load or give an error; addresses taken from the input map to a
 * symbol at or below them, within the last symbol's bound, and format into
 * a terminated string of the length returned.
 */
#include <assert.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_input.h"
#include "ksyms.h"

static void check_addr(const struct ksyms *ks, unsigned long addr)
{
	const struct ksym *sym = ksyms__map_addr(ks, addr);
	char buf[64];
	int n;

	if (sym) {
		assert(sym->addr <= addr && sym->name);
		assert(ksyms__get_symbol(ks, sym->name));
	}
	n = ksyms__format(ks, addr, buf, sizeof(buf));
	assert(n > 0);
	assert(strlen(buf) == ((size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1));
	if (!sym)
		assert(!strcmp(buf, "[unknown]"));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ksyms *ks;
	char path[64];
	unsigned long addr;
	size_t off;
	int fd = fuzz_input__file(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	if (ksyms__load(path, &ks))
		goto out_close;
	assert(ksyms__count(ks) > 0);
	if (ksyms__addrs_hidden(ks))
		assert(!ksyms__map_addr(ks, 0xffffffff81000000ul));
	for (off = 0; off + sizeof(addr) <= size && off < 64 * sizeof(addr); off += sizeof(addr)) {
		memcpy(&addr, data + off, sizeof(addr));
		check_addr(ks, addr);
		check_addr(ks, addr | 0xffff000000000000ul);
	}
	check_addr(ks, 0);
	check_addr(ks, ~0ul);
	ksyms__free(ks);
out_close:
	close(fd);
	return 0;
}
