// SPDX-License-Identifier: GPL-2.0
/* test_ksyms.c: unit tests of ksyms.c on the kallsyms files in tests/fixtures/kallsyms. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "array_size.h"
#include "fixture.h"
#include "ksyms.h"

static const char *fixture(const char *name)
{
	return fixture_path("kallsyms", name);
}

static struct ksyms *load(const char *name)
{
	struct ksyms *ksyms = NULL;

	assert_int_equal(ksyms__load(fixture(name), &ksyms), 0);
	assert_non_null(ksyms);
	return ksyms;
}

/* The symbol named name, which must exist */
static const struct ksym *get_symbol(const struct ksyms *ksyms, const char *name)
{
	const struct ksym *sym = ksyms__get_symbol(ksyms, name);

	if (!sym)
		fail_msg("no symbol %s", name);
	return sym;
}

static void assert_maps_to(const struct ksyms *ksyms, unsigned long addr, const char *name)
{
	const struct ksym *sym = ksyms__map_addr(ksyms, addr);

	assert_non_null(sym);
	assert_string_equal(sym->name, name);
	assert_true(sym->addr <= addr);
}

static void test_sorted(void **state)
{
	struct ksyms *ksyms = load("sorted.txt");
	const struct ksym *sym;

	(void)state;
	assert_int_equal(ksyms__count(ksyms), 8);	/* init_user_ns, data, not kept */
	assert_false(ksyms__addrs_hidden(ksyms));
	sym = get_symbol(ksyms, "cap_capable");
	assert_int_equal(sym->addr, 0xffffffff81001000UL);
	assert_int_equal(sym->type, 'T');
	assert_null(sym->module);
	sym = get_symbol(ksyms, "ns_capable_common");
	assert_int_equal(sym->type, 't');
	assert_null(ksyms__get_symbol(ksyms, "cap_capabl"));
	assert_null(ksyms__get_symbol(ksyms, "cap_capable_"));
	assert_null(ksyms__get_symbol(ksyms, "zzz"));
	assert_null(ksyms__get_symbol(ksyms, ""));
	ksyms__free(ksyms);
}

static void test_map_addr(void **state)
{
	struct ksyms *ksyms = load("sorted.txt");

	(void)state;
	assert_maps_to(ksyms, 0xffffffff81001000UL, "cap_capable");	/* exact */
	assert_maps_to(ksyms, 0xffffffff8100101fUL, "cap_capable");	/* inside */
	assert_maps_to(ksyms, 0xffffffff810010ffUL, "cap_capable");	/* last byte */
	assert_maps_to(ksyms, 0xffffffff81001100UL, "security_capable");
	assert_maps_to(ksyms, 0xffffffff81000000UL, "_stext");		/* first */
	/* data symbols are not kept: an address past the last function maps to it */
	assert_maps_to(ksyms, 0xffffffff81003fffUL, "__do_sys_sethostname");
	assert_null(ksyms__get_symbol(ksyms, "init_user_ns"));
	assert_null(ksyms__map_addr(ksyms, 0xffffffff80ffffffUL));	/* before first */
	assert_null(ksyms__map_addr(ksyms, 0));
	/* after the last symbol: within KSYMS_LAST_SYM_MAX_SIZE only */
	assert_maps_to(ksyms, 0xffffffff81004000UL, "_etext");
	assert_maps_to(ksyms, 0xffffffff81004000UL + KSYMS_LAST_SYM_MAX_SIZE - 1, "_etext");
	assert_null(ksyms__map_addr(ksyms, 0xffffffff81004000UL + KSYMS_LAST_SYM_MAX_SIZE));
	assert_null(ksyms__map_addr(ksyms, ULONG_MAX));
	assert_null(ksyms__map_addr(NULL, 0xffffffff81001000UL));
	ksyms__free(ksyms);
}

static void test_unsorted_same_as_sorted(void **state)
{
	struct ksyms *sorted = load("sorted.txt");
	struct ksyms *unsorted = load("unsorted.txt");
	const struct ksym *a, *b;
	unsigned long addr;

	(void)state;
	assert_int_equal(ksyms__count(sorted), ksyms__count(unsorted));
	for (addr = 0xffffffff80fff000UL; addr < 0xffffffff81005000UL; addr += 0x80) {
		a = ksyms__map_addr(sorted, addr);
		b = ksyms__map_addr(unsorted, addr);
		assert_true((a == NULL) == (b == NULL));
		if (a) {
			assert_string_equal(a->name, b->name);
			assert_int_equal(a->addr, b->addr);
		}
	}
	assert_maps_to(unsorted, 0xffffffff81002010UL, "__do_sys_sethostname");
	ksyms__free(sorted);
	ksyms__free(unsorted);
}

/*
 * The alias rule (data symbols are not kept): global text, local text; then
 * fewer leading underscores, shorter, strcmp, module
 */
static void check_aliases(const struct ksyms *ksyms)
{
	const struct ksym *sym;

	assert_int_equal(ksyms__count(ksyms), 22);	/* data_alias not kept */
	assert_maps_to(ksyms, 0xffffffff81000000UL, "startup_64");	/* not _text */
	assert_maps_to(ksyms, 0xffffffff81000fffUL, "startup_64");
	assert_maps_to(ksyms, 0xffffffff81001000UL, "local_fn");	/* t beats D */
	assert_maps_to(ksyms, 0xffffffff81002004UL, "weak_global");	/* W beats t */
	/* every alias stays reachable by name */
	get_symbol(ksyms, "_text");
	get_symbol(ksyms, "zz_local_alias");
	assert_null(ksyms__get_symbol(ksyms, "data_alias"));	/* data: not kept */
	get_symbol(ksyms, "a_local");
	/* same name twice: the lowest address; T beats t whatever the address */
	sym = get_symbol(ksyms, "helper");
	assert_int_equal(sym->addr, 0xffffffff81003000UL);
	sym = get_symbol(ksyms, "shared");
	assert_int_equal(sym->type, 'T');
	assert_int_equal(sym->addr, 0xffffffff81006000UL);
	assert_maps_to(ksyms, 0xffffffff81005001UL, "shared");
	/* same address, type and name: the module decides */
	sym = ksyms__map_addr(ksyms, 0xffffffff81006801UL);
	assert_non_null(sym);
	assert_string_equal(sym->module, "mod_a");
	assert_maps_to(ksyms, 0xffffffff81006910UL, "memcpy");
	assert_maps_to(ksyms, 0xffffffff81006a10UL, "__x64_sys_vhangup");
	assert_maps_to(ksyms, 0xffffffff81006b10UL, "same_len_a");
}

static void test_aliases(void **state)
{
	struct ksyms *ksyms = load("aliases.txt");
	struct ksyms *reversed = load("aliases-reversed.txt");

	(void)state;
	check_aliases(ksyms);
	check_aliases(reversed);
	ksyms__free(ksyms);
	ksyms__free(reversed);
}

static void test_hidden(void **state)
{
	struct ksyms *ksyms = load("hidden.txt");
	const struct ksym *sym;
	char buf[64];

	(void)state;
	assert_true(ksyms__addrs_hidden(ksyms));
	assert_int_equal(ksyms__count(ksyms), 6);
	assert_null(ksyms__map_addr(ksyms, 0));
	assert_null(ksyms__map_addr(ksyms, 0x10));
	assert_null(ksyms__map_addr(ksyms, 0xffffffff81001000UL));
	sym = get_symbol(ksyms, "cap_capable");
	assert_int_equal(sym->addr, 0);
	assert_int_equal(ksyms__format(ksyms, 0xffffffff81001000UL, buf, sizeof(buf)), 9);
	assert_string_equal(buf, "[unknown]");
	ksyms__free(ksyms);
}

static void test_modules(void **state)
{
	struct ksyms *ksyms = load("modules.txt");
	const struct ksym *sym, *sym2;

	(void)state;
	assert_int_equal(ksyms__count(ksyms), 10);	/* the 'A' symbol not kept */
	/* a per-CPU symbol at 0 does not make the table hidden */
	assert_false(ksyms__addrs_hidden(ksyms));
	sym = get_symbol(ksyms, "ext4_fill_super");
	assert_string_equal(sym->module, "ext4");
	assert_int_equal(sym->addr, 0xffffffffc0000000UL);
	sym2 = ksyms__map_addr(ksyms, 0xffffffffc0000810UL);
	assert_non_null(sym2);
	assert_string_equal(sym2->name, "ext4_getattr");
	assert_string_equal(sym2->module, "ext4");
	sym = ksyms__map_addr(ksyms, 0xffffffffc0010004UL);
	assert_non_null(sym);
	assert_string_equal(sym->module, "nf_tables");
	/* a module whose name is a prefix of the previous line's */
	assert_string_equal(get_symbol(ksyms, "ctnetlink_new_conntrack")->module,
			    "nf_conntrack_netlink");
	assert_string_equal(get_symbol(ksyms, "nf_conntrack_alloc")->module, "nf_conntrack");
	sym = ksyms__map_addr(ksyms, 0xffffffffc0100040UL);
	assert_non_null(sym);
	assert_string_equal(sym->name, "bpf_prog_6deef7357e7b4530_handler");
	assert_string_equal(sym->module, "bpf");
	assert_null(get_symbol(ksyms, "cap_capable")->module);
	assert_maps_to(ksyms, 0xffffffffc0101fffUL, "bpf_trampoline_6442453466");
	assert_null(ksyms__map_addr(ksyms, 0xffffffffc0101000UL + KSYMS_LAST_SYM_MAX_SIZE));
	ksyms__free(ksyms);
}

static void test_malformed(void **state)
{
	static const char *const rejected[] = {
		"bad_hex", "too_long_addr", "two_letter_type", "unterminated_module",
		"empty_module", "extra", "tokens", "leading_blank", "hex_prefix",
		"negative", "after_module", "garbage", "T",
	};
	struct ksyms *ksyms = load("malformed.txt");
	const struct ksym *sym;
	size_t i;

	(void)state;
	assert_int_equal(ksyms__count(ksyms), 3);
	get_symbol(ksyms, "_stext");
	sym = get_symbol(ksyms, "crlf_line");
	assert_int_equal(sym->addr, 0xffffffff81001000UL);
	sym = get_symbol(ksyms, "in_module");
	assert_string_equal(sym->module, "ext4");
	for (i = 0; i < ARRAY_SIZE(rejected); i++)
		assert_null(ksyms__get_symbol(ksyms, rejected[i]));
	ksyms__free(ksyms);
}

static void test_load_errors(void **state)
{
	struct ksyms *ksyms = NULL;

	(void)state;
	assert_int_equal(ksyms__load(fixture("empty.txt"), &ksyms), -ENODATA);
	assert_int_equal(ksyms__load(fixture("all-malformed.txt"), &ksyms), -ENODATA);
	assert_int_equal(ksyms__load(fixture("no-such-file.txt"), &ksyms), -ENOENT);
	assert_int_equal(ksyms__load(fixture(""), &ksyms), -EISDIR);
	assert_null(ksyms);
}

static void test_format(void **state)
{
	struct ksyms *ksyms = load("sorted.txt");
	char buf[64], small[8];

	(void)state;
	assert_int_equal(ksyms__format(ksyms, 0xffffffff8100101fUL, buf, sizeof(buf)),
			 strlen("cap_capable+0x1f"));
	assert_string_equal(buf, "cap_capable+0x1f");
	ksyms__format(ksyms, 0xffffffff81001000UL, buf, sizeof(buf));
	assert_string_equal(buf, "cap_capable+0x0");
	ksyms__format(ksyms, 0xffffffff81001200UL + 0xab, buf, sizeof(buf));
	assert_string_equal(buf, "ns_capable_common+0xab");
	assert_int_equal(ksyms__format(ksyms, 0x1000, buf, sizeof(buf)), 9);
	assert_string_equal(buf, "[unknown]");
	/* truncated like snprintf: the full length is returned */
	assert_int_equal(ksyms__format(ksyms, 0xffffffff8100101fUL, small, sizeof(small)), 16);
	assert_string_equal(small, "cap_cap");
	assert_int_equal(ksyms__format(ksyms, 0xffffffff8100101fUL, NULL, 0), 16);
	assert_int_equal(ksyms__format(NULL, 0xffffffff8100101fUL, buf, sizeof(buf)), 9);
	ksyms__free(ksyms);
}

/* Enough symbols and name bytes to grow every array several times */
#define BIG_NR 50000

static void test_large(void **state)
{
	char path[] = "/tmp/test_ksyms.XXXXXX";
	struct ksyms *ksyms = NULL;
	const struct ksym *sym;
	char name[64];
	FILE *f;
	int fd, i;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	/* written from the highest address down: the load must sort */
	for (i = BIG_NR - 1; i >= 0; i--)
		fprintf(f, "%016lx %c function_with_a_long_name_%d%s\n",
			0xffffffff81000000UL + (unsigned long)i * 0x40, i % 2 ? 'T' : 't', i,
			i % 3 ? "" : "\t[some_module]");
	assert_int_equal(fclose(f), 0);
	assert_int_equal(ksyms__load(path, &ksyms), 0);
	unlink(path);
	assert_int_equal(ksyms__count(ksyms), BIG_NR);
	for (i = 0; i < BIG_NR; i += 997) {
		snprintf(name, sizeof(name), "function_with_a_long_name_%d", i);
		assert_maps_to(ksyms, 0xffffffff81000000UL + (unsigned long)i * 0x40 + 0x3f, name);
		sym = get_symbol(ksyms, name);
		assert_int_equal(sym->addr, 0xffffffff81000000UL + (unsigned long)i * 0x40);
		if (i % 3)
			assert_null(sym->module);
		else
			assert_string_equal(sym->module, "some_module");
	}
	ksyms__free(ksyms);
}

/* The running kernel's table, read only: hidden or not, it must parse */
static void test_proc_kallsyms(void **state)
{
	struct ksyms *ksyms = NULL;
	const struct ksym *sym;
	int err;

	(void)state;
	err = ksyms__load("/proc/kallsyms", &ksyms);
	if (err == -ENOENT || err == -EACCES)
		skip();
	assert_int_equal(err, 0);
	assert_true(ksyms__count(ksyms) > 1000);
	sym = get_symbol(ksyms, "cap_capable");
	if (ksyms__addrs_hidden(ksyms)) {
		assert_int_equal(sym->addr, 0);
		assert_null(ksyms__map_addr(ksyms, sym->addr));
	} else {
		assert_int_equal(ksyms__map_addr(ksyms, sym->addr)->addr, sym->addr);
	}
	ksyms__free(ksyms);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sorted),
		cmocka_unit_test(test_map_addr),
		cmocka_unit_test(test_unsorted_same_as_sorted),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_hidden),
		cmocka_unit_test(test_modules),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_load_errors),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_large),
		cmocka_unit_test(test_proc_kallsyms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
