// SPDX-License-Identifier: GPL-2.0
/*
 * Building identity maps (pgtable.h). Tables come from the hypervisor's
 * private memory at boot; nothing is ever unmapped, so no break-before-make
 * is needed: each CPU loads finished tables.
 */
#include "hyp.h"
#include "pgtable.h"
#include "print.h"

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

void pgtable_map(struct pgtable *pt, u64 pa, u64 size, u64 attrs)
{
	u64 end = ALIGN_UP(pa + size, SZ_4K);

	pa = ALIGN_DOWN(pa, SZ_4K);
	if (end > (1UL << pt->ia_bits))
		hyp_panic("%s: 0x%lx is beyond the %u-bit map", pt->name, end,
			  pt->ia_bits);

	while (pa < end) {
		u64 *table = pt->root;
		u64 index_mask = (1UL << (pt->ia_bits -
					  PGTABLE_LEVEL_SHIFT(1))) - 1;
		unsigned int level;

		for (level = 1; level <= 3; level++) {
			u64 block = 1UL << PGTABLE_LEVEL_SHIFT(level);
			u64 *entry = &table[(pa >> PGTABLE_LEVEL_SHIFT(level)) &
					    index_mask];

			if (level == 3) {
				*entry = pa | attrs | PTE_PAGE | PTE_VALID;
				pa += block;
				break;
			}
			if (!(pa & (block - 1)) && end - pa >= block) {
				*entry = pa | attrs | PTE_BLOCK | PTE_VALID;
				pa += block;
				break;
			}
			table = next_level(pt, entry);
			index_mask = PGTABLE_ENTRIES - 1;
		}
	}
}

void pgtable_map_ram(struct pgtable *pt, u64 attrs)
{
	u64 hyp = hyp_layout.hyp_base, hyp_end = hyp + HYP_REGION_SIZE;
	unsigned int i;

	for (i = 0; i < hyp_layout.nr_mem; i++) {
		u64 base = hyp_layout.mem[i].base;
		u64 end = base + hyp_layout.mem[i].size;

		if (hyp >= base && hyp_end <= end) {
			pgtable_map(pt, base, hyp - base, attrs);
			pgtable_map(pt, hyp_end, end - hyp_end, attrs);
		} else {
			pgtable_map(pt, base, end - base, attrs);
		}
	}
}
