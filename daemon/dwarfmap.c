// SPDX-License-Identifier: GPL-2.0
/*
 * dwarfmap.c: kernel frames "func+0xoff" to file:line and their inline
 * chain, through libdwfl on an offline vmlinux: the ELF symbol table gives
 * the function's address, the line table the innermost line, and the DWARF
 * scopes (DW_TAG_inlined_subroutine's call_file/call_line) the lines it was
 * inlined into.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <linux/types.h>

#include "dwarfmap.h"

struct fsym {
	const char *name; /* in the ELF string table: lives with the dwfl */
	Dwarf_Addr addr;
	Dwarf_Word size;
};

struct cached {
	char *func;
	unsigned long off;
	bool return_addr;
	int err;
	struct dwarfmap_result res;
};

struct dwarfmap {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	struct fsym *syms; /* function symbols sorted by name, then address */
	size_t nr_syms;
	struct cached **cache;
	size_t nr_cache;
};

/* The DWARF is in vmlinux itself: never look elsewhere (nor on the network) */
static int no_separate_debuginfo(Dwfl_Module *mod, void **userdata,
				 const char *modname, Dwarf_Addr base,
				 const char *file_name,
				 const char *debuglink_file,
				 GElf_Word debuglink_crc,
				 char **debuginfo_file_name)
{
	(void)mod, (void)userdata, (void)modname, (void)base, (void)file_name;
	(void)debuglink_file, (void)debuglink_crc, (void)debuginfo_file_name;
	return -1;
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = no_separate_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static int by_name_addr(const void *a, const void *b)
{
	const struct fsym *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int load_symbols(struct dwarfmap *m)
{
	int i, n = dwfl_module_getsymtab(m->mod);
	const char *name;
	GElf_Addr addr;
	GElf_Sym sym;

	if (n <= 0)
		return -ENODATA;
	m->syms = calloc(n, sizeof(*m->syms));
	if (!m->syms)
		return -ENOMEM;
	for (i = 1; i < n; i++) {
		name = dwfl_module_getsym_info(m->mod, i, &sym, &addr, NULL,
					       NULL, NULL);
		if (!name || !*name || GELF_ST_TYPE(sym.st_info) != STT_FUNC)
			continue;
		m->syms[m->nr_syms++] =
			(struct fsym){ name, addr, sym.st_size };
	}
	qsort(m->syms, m->nr_syms, sizeof(*m->syms), by_name_addr);
	return 0;
}

int dwarfmap__open(const char *path, struct dwarfmap **ret_map)
{
	struct dwarfmap *m;
	Dwarf_Addr bias;
	struct stat st;
	int err;

	if (!path || !ret_map)
		return -EINVAL;
	if (stat(path, &st))
		return -errno;
	if (access(path, R_OK))
		return -errno;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	err = -ENOMEM;
	m->dwfl = dwfl_begin(&offline_callbacks);
	if (!m->dwfl)
		goto out_free_map;
	err = -ENOEXEC;
	m->mod = dwfl_report_offline(m->dwfl, "vmlinux", path, -1);
	if (!m->mod || dwfl_report_end(m->dwfl, NULL, NULL))
		goto out_end_dwfl;
	err = -ENODATA;
	if (!dwfl_module_getdwarf(m->mod, &bias))
		goto out_end_dwfl;
	err = load_symbols(m);
	if (err)
		goto out_end_dwfl;
	*ret_map = m;
	return 0;

out_end_dwfl:
	dwfl_end(m->dwfl);
out_free_map:
	free(m);
	return err;
}

void dwarfmap__free(struct dwarfmap *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nr_cache; i++) {
		free(m->cache[i]->func);
		free(m->cache[i]);
	}
	free(m->cache);
	free(m->syms);
	dwfl_end(m->dwfl);
	free(m);
}

/* The symbol named func that holds off; several: the first, *ambiguous set */
static const struct fsym *find_symbol(const struct dwarfmap *m,
				      const char *func, unsigned long off,
				      bool *ambiguous)
{
	size_t lo = 0, hi = m->nr_syms, mid;
	const struct fsym *found = NULL;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strcmp(m->syms[mid].name, func) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*ambiguous = false;
	for (; lo < m->nr_syms && !strcmp(m->syms[lo].name, func); lo++) {
		if (m->syms[lo].size && off >= m->syms[lo].size)
			continue;
		if (found)
			*ambiguous = true;
		else
			found = &m->syms[lo];
	}
	return found;
}

static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;

	if (!dwarf_attr_integrate(die, DW_AT_name, &attr))
		return NULL;
	return dwarf_formstring(&attr);
}

static bool is_function(Dwarf_Die *die)
{
	int tag = dwarf_tag(die);

	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine;
}

/* The function around scopes[from..n): its name, or "?" */
static const char *function_at(Dwarf_Die *scopes, int from, int n)
{
	const char *name;

	for (; from < n; from++) {
		if (!is_function(&scopes[from]))
			continue;
		name = die_name(&scopes[from]);
		return name ? name : "?";
	}
	return "?";
}

/* The file and line an inlined_subroutine DIE was inlined at */
static int call_site_of(Dwarf_Die *cu, Dwarf_Die *inl, struct dwarfmap_loc *loc)
{
	Dwarf_Attribute attr;
	Dwarf_Files *files;
	Dwarf_Word idx, line;
	size_t nfiles;

	if (!dwarf_attr(inl, DW_AT_call_file, &attr) ||
	    dwarf_formudata(&attr, &idx))
		return -ENODATA;
	if (!dwarf_attr(inl, DW_AT_call_line, &attr) ||
	    dwarf_formudata(&attr, &line))
		return -ENODATA;
	if (dwarf_getsrcfiles(cu, &files, &nfiles) || idx >= nfiles)
		return -ENODATA;
	loc->file = dwarf_filesrc(files, idx, NULL, NULL);
	loc->line = line;
	return loc->file ? 0 : -ENODATA;
}

/*
 * The inline chain at addr after the innermost line in res->locs[0].
 * dwarf_getscopes() continues past an inlined_subroutine with the scopes
 * of its abstract definition; dwarf_getscopes_die() on the innermost scope
 * gives the concrete parents: the callers it was inlined into.
 */
static void inline_chain(struct dwarfmap *m, Dwarf_Addr addr,
			 struct dwarfmap_result *res)
{
	Dwarf_Die *cu, *scopes = NULL, *chain = NULL;
	Dwarf_Addr bias;
	int i, n;

	cu = dwfl_module_addrdie(m->mod, addr, &bias);
	if (!cu)
		return;
	if (dwarf_getscopes(cu, addr - bias, &scopes) <= 0)
		goto out_free_scopes;
	n = dwarf_getscopes_die(&scopes[0], &chain);
	if (n <= 0)
		goto out_free_scopes;
	res->locs[0].function = function_at(chain, 0, n);
	for (i = 0; i < n && res->nr < DWARFMAP_MAX_DEPTH; i++) {
		if (dwarf_tag(&chain[i]) != DW_TAG_inlined_subroutine)
			continue;
		if (call_site_of(cu, &chain[i], &res->locs[res->nr]))
			break;
		res->locs[res->nr].function = function_at(chain, i + 1, n);
		res->nr++;
	}
	free(chain);
out_free_scopes:
	free(scopes);
}

static int map_addr(struct dwarfmap *m, const char *func, unsigned long off,
		    bool return_addr, struct dwarfmap_result *res)
{
	const struct fsym *sym = find_symbol(m, func, off, &res->ambiguous);
	Dwarf_Addr addr;
	Dwfl_Line *line;
	int lineno = 0;

	if (!sym)
		return -ENOENT;
	addr = sym->addr + off - (return_addr && off ? 1 : 0);
	line = dwfl_module_getsrc(m->mod, addr);
	if (!line)
		return -ENODATA;
	res->locs[0].file =
		dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
	if (!res->locs[0].file || lineno <= 0)
		return -ENODATA;
	res->locs[0].line = lineno;
	res->locs[0].function = func;
	res->nr = 1;
	inline_chain(m, addr, res);
	return 0;
}

static struct cached *cache_find(const struct dwarfmap *m, const char *func,
				 unsigned long off, bool return_addr)
{
	size_t i;

	for (i = 0; i < m->nr_cache; i++)
		if (m->cache[i]->off == off &&
		    m->cache[i]->return_addr == return_addr &&
		    !strcmp(m->cache[i]->func, func))
			return m->cache[i];
	return NULL;
}

int dwarfmap__addr2line(struct dwarfmap *m, const char *func, unsigned long off,
			bool return_addr,
			const struct dwarfmap_result **ret_res)
{
	struct cached *c, **grown;

	if (!m || !func || !ret_res)
		return -EINVAL;
	c = cache_find(m, func, off, return_addr);
	if (c)
		goto out;
	grown = realloc(m->cache, (m->nr_cache + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	m->cache = grown;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->func = strdup(func);
	if (!c->func) {
		free(c);
		return -ENOMEM;
	}
	c->off = off;
	c->return_addr = return_addr;
	c->err = map_addr(m, c->func, off, return_addr, &c->res);
	m->cache[m->nr_cache++] = c;
out:
	*ret_res = c->err ? NULL : &c->res;
	return c->err;
}

/* Reads len bytes at the link-time address addr from the ELF's sections */
static int read_text(struct dwarfmap *m, Dwarf_Addr addr, unsigned char *buf,
		     size_t len)
{
	Elf_Scn *scn = NULL;
	Dwarf_Addr bias;
	GElf_Shdr shdr;
	Elf_Data *data;
	Elf *elf;

	elf = dwfl_module_getelf(m->mod, &bias);
	if (!elf)
		return -ENODATA;
	addr -= bias;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_PROGBITS ||
		    addr < shdr.sh_addr ||
		    addr + len > shdr.sh_addr + shdr.sh_size)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || !data->d_buf ||
		    addr - shdr.sh_addr + len > data->d_size)
			return -ENODATA;
		memcpy(buf, (char *)data->d_buf + (addr - shdr.sh_addr), len);
		return 0;
	}
	return -ENODATA;
}

int dwarfmap__call_target(struct dwarfmap *m, const char *func,
			  unsigned long off, const char **ret_callee)
{
	const struct fsym *sym;
	unsigned char insn[5];
	Dwarf_Addr ret_addr, target;
	GElf_Off sym_off;
	GElf_Sym target_sym;
	const char *name;
	bool ambiguous;
	__s32 rel;
	int err;

	if (!m || !func || !ret_callee)
		return -EINVAL;
	sym = find_symbol(m, func, off, &ambiguous);
	if (!sym)
		return -ENOENT;
	if (off < sizeof(insn))
		return -ENOEXEC;
	ret_addr = sym->addr + off;
	err = read_text(m, ret_addr - sizeof(insn), insn, sizeof(insn));
	if (err)
		return err;
	if (insn[0] != 0xe8)
		return -ENOEXEC;
	memcpy(&rel, insn + 1, sizeof(rel));
	target = ret_addr + (Dwarf_Addr)(__s64)rel;
	name = dwfl_module_addrinfo(m->mod, target, &sym_off, &target_sym, NULL,
				    NULL, NULL);
	if (!name || sym_off)
		return -ENOENT;
	*ret_callee = name;
	return 0;
}

int dwarfmap__build_id(struct dwarfmap *m, const unsigned char **ret_bits)
{
	GElf_Addr vaddr;
	int len = dwfl_module_build_id(m->mod, ret_bits, &vaddr);

	return len > 0 ? len : -ENODATA;
}

int dwarfmap__parse_frame(const char *frame, char *buf, size_t size,
			  unsigned long *ret_off)
{
	const char *plus;
	char *end;
	size_t len;

	if (!frame || !buf || !ret_off)
		return -EINVAL;
	plus = strstr(frame, "+0x");
	if (!plus || plus == frame)
		return -EINVAL;
	len = plus - frame;
	if (len >= size)
		return -EINVAL;
	errno = 0;
	*ret_off = strtoul(plus + 3, &end, 16);
	if (errno || end == plus + 3 || *end)
		return -EINVAL;
	memcpy(buf, frame, len);
	buf[len] = '\0';
	return 0;
}

const char *dwarfmap__strerror(int err)
{
	switch (err) {
	case -ENOEXEC:
		return "not an ELF file";
	case -ENODATA:
		return "no DWARF debug information (build the kernel with CONFIG_DEBUG_INFO, do not strip vmlinux)";
	default:
		return strerror(-err);
	}
}
