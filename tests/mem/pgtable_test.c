// SPDX-License-Identifier: GPL-2.0
/*
 * hyp/arch/pgtable.c on the host: tables from the C library, hyp_panic()
 * a longjmp back into the test, which checks that it came and why.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgtable.h"
#include "print.h"

#define ATTRS	(0xfUL << 2 | 3UL << 6 | PTE_AF)	/* stage-2 RAM */

static int failures;

/* "ok: ..." for a part of the test, if it added no failure since @before */
#define OK(before, ...) do {						\
	if (failures == (before)) {					\
		printf("ok: ");						\
		printf(__VA_ARGS__);					\
		printf("\n");						\
	}								\
} while (0)
static jmp_buf panic_jmp;
static char panic_msg[256];

#define CHECK(cond, ...) do {						\
	if (!(cond)) {							\
		failures++;						\
		printf("FAIL %s:%d: ", __FILE__, __LINE__);		\
		printf(__VA_ARGS__);					\
		printf("\n");						\
	}								\
} while (0)

void *hyp_mem_alloc_boot(u64 size, u64 align, const char *what)
{
	void *p = aligned_alloc(align, size);

	if (!p) {
		printf("no memory for %s\n", what);
		abort();
	}
	memset(p, 0, size);
	return p;
}

void hyp_panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(panic_msg, sizeof(panic_msg), fmt, ap);
	va_end(ap);
	longjmp(panic_jmp, 1);
}

/* Whether pgtable_map() panics, its message in panic_msg */
static bool map_panics(struct pgtable *pt, u64 pa, u64 size)
{
	panic_msg[0] = '\0';
	if (setjmp(panic_jmp))
		return true;
	pgtable_map(pt, pa, size, ATTRS);
	return false;
}

static bool mapped(const struct pgtable *pt, u64 ia)
{
	unsigned int level;

	return *pgtable_walk(pt, ia, &level) & PTE_VALID;
}

/*
 * RAM with the hypervisor's 2 MiB cut out leaves a table at level 1 that
 * keeps the hole; a second map of the whole GiB (an overlapping /memory
 * node, before they were merged) would have put a 1 GiB block in its
 * place, and the hole with it
 */
static void test_block_over_table(void)
{
	int before = failures;
	struct pgtable pt;

	pgtable_init(&pt, 40, "test map");
	CHECK(!map_panics(&pt, 0x40000000, 0x200000) &&
	      !map_panics(&pt, 0x40400000, 0x3fc00000),
	      "RAM around the hole: %s", panic_msg);
	CHECK(!mapped(&pt, 0x40200000) && !mapped(&pt, 0x403ff000),
	      "the hole is mapped");
	CHECK(map_panics(&pt, 0x40000000, 0x40000000),
	      "a 1 GiB block replaced the table that keeps the hole");
	CHECK(strstr(panic_msg, "is mapped already (a table"),
	      "the panic says '%s'", panic_msg);
	CHECK(!mapped(&pt, 0x40200000), "the hole is mapped after the refusal");
	OK(before, "a block over a table refused, the hole kept (%s)",
	       panic_msg);
}

static void test_leaf_over_leaf(void)
{
	int before = failures;
	struct pgtable pt;

	pgtable_init(&pt, 40, "test map");
	CHECK(!map_panics(&pt, 0x9000000, 0x1000), "a page: %s", panic_msg);
	CHECK(map_panics(&pt, 0x9000000, 0x1000), "a page mapped twice");
	CHECK(!map_panics(&pt, 0x80000000, 0x40000000), "a GiB: %s", panic_msg);
	CHECK(map_panics(&pt, 0x80200000, 0x1000),
	      "a page inside a GiB block");
	CHECK(map_panics(&pt, 0xbffff000, 0x2000),
	      "a range from a block into free space");
	CHECK(map_panics(&pt, 0xfffffffffffff000ULL, 0x2000),
	      "a range that wraps");
	OK(before, "leaves over leaves, beyond the map and wrapping refused");
}

static void test_walk(void)
{
	int before = failures;
	struct pgtable pt;
	unsigned int level;
	u64 *e;

	pgtable_init(&pt, 40, "test map");
	map_panics(&pt, 0x40000000, 0x40000000);
	map_panics(&pt, 0x80200000, 0x200000);
	map_panics(&pt, 0x9000000, 0x1000);
	e = pgtable_walk(&pt, 0x40123000, &level);
	CHECK(level == 1 && (*e & PTE_ADDR_MASK) == 0x40000000,
	      "a GiB block: level %u, %llx", level, (unsigned long long)*e);
	e = pgtable_walk(&pt, 0x80234000, &level);
	CHECK(level == 2 && (*e & PTE_ADDR_MASK) == 0x80200000,
	      "a 2 MiB block: level %u", level);
	e = pgtable_walk(&pt, 0x9000fff, &level);
	CHECK(level == 3 && (*e & PTE_ADDR_MASK) == 0x9000000,
	      "a page: level %u", level);
	e = pgtable_walk(&pt, 0x9001000, &level);
	CHECK(level == 3 && !(*e & PTE_VALID), "the next page: level %u", level);
	e = pgtable_walk(&pt, 0x80400000, &level);
	CHECK(level == 2 && !(*e & PTE_VALID), "the next block: level %u",
	      level);
	e = pgtable_walk(&pt, 0xc0000000, &level);
	CHECK(level == 1 && !(*e & PTE_VALID), "the next GiB: level %u", level);
	OK(before, "the walk stops at blocks, pages and invalid entries");
}

static void test_split(void)
{
	int before = failures;
	u64 table[PGTABLE_ENTRIES], xn = 2UL << 53, e;
	unsigned int i;
	bool ok = true;

	pgtable_split(table, 0x80000000 | ATTRS | xn | PTE_BLOCK | PTE_VALID, 1);
	for (i = 0; i < PGTABLE_ENTRIES; i++) {
		e = table[i];
		ok &= e == ((0x80000000 + i * 0x200000UL) | ATTRS | xn |
			    PTE_BLOCK | PTE_VALID);
	}
	CHECK(ok, "a GiB block split into 2 MiB blocks: [1] = %llx",
	      (unsigned long long)table[1]);
	pgtable_split(table, 0x80200000 | ATTRS | PTE_BLOCK | PTE_VALID, 2);
	for (ok = true, i = 0; i < PGTABLE_ENTRIES; i++)
		ok &= table[i] == ((0x80200000 + i * 0x1000UL) | ATTRS |
				   PTE_PAGE | PTE_VALID);
	CHECK(ok, "a 2 MiB block split into pages: [511] = %llx",
	      (unsigned long long)table[511]);
	OK(before, "blocks split into equivalent next-level entries");
}

int main(void)
{
	test_block_over_table();
	test_leaf_over_leaf();
	test_walk();
	test_split();
	if (failures) {
		printf("pgtable_test: %d failures\n", failures);
		return 1;
	}
	printf("pgtable_test: passed\n");
	return 0;
}
