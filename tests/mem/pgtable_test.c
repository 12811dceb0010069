// SPDX-License-Identifier: GPL-2.0
/*
 * hyp/arch/pgtable.c on the host: tables from the C library, hyp_panic()
 * a longjmp back into the test, which checks that it came and why.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "panic.h"
#include "panic_catch.h"
#include "pgtable.h"
#include "check.h"

#define ATTRS	(0xfUL << 2 | 3UL << 6 | PTE_AF)	/* stage-2 RAM */

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
	struct pgtable pt;

	ck_begin();
	pgtable_init(&pt, 40, "test map");
	EXPECT(!map_panics(&pt, 0x40000000, 0x200000) &&
	       !map_panics(&pt, 0x40400000, 0x3fc00000),
	       "RAM around the hole: %s", panic_msg);
	EXPECT(!mapped(&pt, 0x40200000) && !mapped(&pt, 0x403ff000),
	       "the hole is mapped");
	EXPECT(map_panics(&pt, 0x40000000, 0x40000000),
	       "a 1 GiB block replaced the table that keeps the hole");
	EXPECT(strstr(panic_msg, "is mapped already (a table"),
	       "the panic says '%s'", panic_msg);
	EXPECT(!mapped(&pt, 0x40200000), "the hole is mapped after the refusal");
	ck_end("a block over a table refused, the hole kept (%s)",
	        panic_msg);
}

static void test_leaf_over_leaf(void)
{
	struct pgtable pt;

	ck_begin();
	pgtable_init(&pt, 40, "test map");
	EXPECT(!map_panics(&pt, 0x9000000, 0x1000), "a page: %s", panic_msg);
	EXPECT(map_panics(&pt, 0x9000000, 0x1000), "a page mapped twice");
	EXPECT(!map_panics(&pt, 0x80000000, 0x40000000), "a GiB: %s", panic_msg);
	EXPECT(map_panics(&pt, 0x80200000, 0x1000),
	       "a page inside a GiB block");
	EXPECT(map_panics(&pt, 0xbffff000, 0x2000),
	       "a range from a block into free space");
	EXPECT(map_panics(&pt, 0xfffffffffffff000ULL, 0x2000),
	       "a range that wraps");
	ck_end("leaves over leaves, beyond the map and wrapping refused");
}

static void test_walk(void)
{
	struct pgtable pt;
	unsigned int level;
	u64 *e;

	ck_begin();
	pgtable_init(&pt, 40, "test map");
	map_panics(&pt, 0x40000000, 0x40000000);
	map_panics(&pt, 0x80200000, 0x200000);
	map_panics(&pt, 0x9000000, 0x1000);
	e = pgtable_walk(&pt, 0x40123000, &level);
	EXPECT(level == 1 && (*e & PTE_ADDR_MASK) == 0x40000000,
	       "a GiB block: level %u, %llx", level, (unsigned long long)*e);
	e = pgtable_walk(&pt, 0x80234000, &level);
	EXPECT(level == 2 && (*e & PTE_ADDR_MASK) == 0x80200000,
	       "a 2 MiB block: level %u", level);
	e = pgtable_walk(&pt, 0x9000fff, &level);
	EXPECT(level == 3 && (*e & PTE_ADDR_MASK) == 0x9000000,
	       "a page: level %u", level);
	e = pgtable_walk(&pt, 0x9001000, &level);
	EXPECT(level == 3 && !(*e & PTE_VALID), "the next page: level %u", level);
	e = pgtable_walk(&pt, 0x80400000, &level);
	EXPECT(level == 2 && !(*e & PTE_VALID), "the next block: level %u",
	       level);
	e = pgtable_walk(&pt, 0xc0000000, &level);
	EXPECT(level == 1 && !(*e & PTE_VALID), "the next GiB: level %u", level);
	ck_end("the walk stops at blocks, pages and invalid entries");
}

static void test_split(void)
{
	u64 table[PGTABLE_ENTRIES], xn = 2UL << 53, e;
	unsigned int i;
	bool ok = true;

	ck_begin();
	pgtable_split(table, 0x80000000 | ATTRS | xn | PTE_BLOCK | PTE_VALID, 1);
	for (i = 0; i < PGTABLE_ENTRIES; i++) {
		e = table[i];
		ok &= e == ((0x80000000 + i * 0x200000UL) | ATTRS | xn |
			    PTE_BLOCK | PTE_VALID);
	}
	EXPECT(ok, "a GiB block split into 2 MiB blocks: [1] = %llx",
	       (unsigned long long)table[1]);
	pgtable_split(table, 0x80200000 | ATTRS | PTE_BLOCK | PTE_VALID, 2);
	for (ok = true, i = 0; i < PGTABLE_ENTRIES; i++)
		ok &= table[i] == ((0x80200000 + i * 0x1000UL) | ATTRS |
				   PTE_PAGE | PTE_VALID);
	EXPECT(ok, "a 2 MiB block split into pages: [511] = %llx",
	       (unsigned long long)table[511]);
	ck_end("blocks split into equivalent next-level entries");
}

int main(void)
{
	test_block_over_table();
	test_leaf_over_leaf();
	test_walk();
	test_split();
	return ck_exit();
}
