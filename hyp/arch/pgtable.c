// SPDX-License-Identifier: GPL-2.0
/*
 * Building identity maps (pgtable.h). Tables come from the hypervisor's
 * private memory at boot, and each CPU loads finished tables, so building
 * needs no break-before-make. What a build may not do is write over an
 * entry already there: a block written over a table would drop whatever
 * holes the table keeps (the hypervisor's region, at stage 2), and a leaf
 * written over a leaf means two callers disagree about an address. Both
 * stop the boot. Changing a live map is stage2_change.c's business.
 */
#include "hyp_mem.h"
#include "panic.h"
#include "pgtable.h"

void pgtable_init(struct pgtable *pt, unsigned int ia_bits, const char *name)
{
	/* Level 1 resolves bits [ia_bits - 1, 30]: concatenated above 39 */
	u64 root_size = sizeof(u64) << (ia_bits - PGTABLE_LEVEL_SHIFT(1));

	pt->ia_bits = ia_bits;
	pt->name = name;
	pt->root = hyp_mem_alloc_boot(root_size, root_size, name);
}

static u64 *alloc_table(const struct pgtable *pt)
{
	return hyp_mem_alloc_boot(SZ_4K, SZ_4K, pt->name);
}

static u64 *next_level(const struct pgtable *pt, u64 *entry)
{
	if (!(*entry & PTE_VALID))
		*entry = (u64)alloc_table(pt) | PTE_TABLE | PTE_VALID;
	else if (!(*entry & PTE_TABLE))
		hyp_panic("%s: overlapping block at entry %p", pt->name, entry);
	return (u64 *)(*entry & PTE_ADDR_MASK);
}

/* The index of @ia's entry in the level @level table */
static unsigned int entry_index(const struct pgtable *pt, u64 ia,
				unsigned int level)
{
	u64 mask = PGTABLE_ENTRIES - 1;

	/* The root may be several level-1 tables concatenated */
	if (level == 1)
		mask = (1UL << (pt->ia_bits - PGTABLE_LEVEL_SHIFT(1))) - 1;
	return (ia >> PGTABLE_LEVEL_SHIFT(level)) & mask;
}

/* A leaf into an empty entry: never over a table, a block or a page */
static void set_leaf(const struct pgtable *pt, u64 *entry, u64 val, u64 pa)
{
	if (*entry & PTE_VALID)
		hyp_panic("%s: 0x%lx is mapped already (%s at entry %p)",
			  pt->name, pa,
			  *entry & PTE_TABLE ? "a table" : "a block", entry);
	*entry = val;
}

void pgtable_map(struct pgtable *pt, u64 pa, u64 size, u64 attrs)
{
	u64 end = ALIGN_UP(pa + size, SZ_4K);

	pa = ALIGN_DOWN(pa, SZ_4K);
	if (end < pa || end > (1UL << pt->ia_bits))
		hyp_panic("%s: 0x%lx+0x%lx is beyond the %u-bit map", pt->name,
			  pa, size, pt->ia_bits);

	while (pa < end) {
		u64 *table = pt->root;
		unsigned int level;

		for (level = 1; level <= 3; level++) {
			u64 block = 1UL << PGTABLE_LEVEL_SHIFT(level);
			u64 *entry = &table[entry_index(pt, pa, level)];

			if (level == 3) {
				set_leaf(pt, entry,
					 pa | attrs | PTE_PAGE | PTE_VALID, pa);
				pa += block;
				break;
			}
			if (!(pa & (block - 1)) && end - pa >= block) {
				set_leaf(pt, entry,
					 pa | attrs | PTE_BLOCK | PTE_VALID, pa);
				pa += block;
				break;
			}
			table = next_level(pt, entry);
		}
	}
}

u64 *pgtable_walk(const struct pgtable *pt, u64 ia, unsigned int *level)
{
	u64 *table = pt->root, *entry;
	unsigned int l;

	for (l = 1;; l++) {
		entry = &table[entry_index(pt, ia, l)];
		if (l == 3 || (*entry & (PTE_VALID | PTE_TABLE)) !=
			      (PTE_VALID | PTE_TABLE))
			break;
		table = (u64 *)(*entry & PTE_ADDR_MASK);
	}
	*level = l;
	return entry;
}

void pgtable_split(u64 *table, u64 block, unsigned int level)
{
	u64 step = 1UL << PGTABLE_LEVEL_SHIFT(level + 1);
	/* The next level's descriptor type: a page at level 3 */
	u64 type = level + 1 == 3 ? PTE_PAGE : PTE_BLOCK;
	u64 pa = block & PTE_ADDR_MASK;
	u64 attrs = (block & ~PTE_ADDR_MASK & ~PTE_TABLE) | type;
	unsigned int i;

	for (i = 0; i < PGTABLE_ENTRIES; i++)
		table[i] = (pa + i * step) | attrs;
}
