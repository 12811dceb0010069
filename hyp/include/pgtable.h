/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Translation tables with the 4 KiB granule, walked from level 1, shared by
 * the hypervisor's own map (stage 1, mmu.c) and the host's (stage 2,
 * stage2.c). The two stages differ only in their attribute bits, which the
 * callers pass in; the walk, the block sizes and the descriptor types are
 * the same.
 */
#ifndef HYP_PGTABLE_H
#define HYP_PGTABLE_H

#include "types.h"

/* Descriptor bits both stages share */
#define PTE_VALID	BIT(0)
#define PTE_TABLE	BIT(1)		/* at levels 1-2; level 3 pages too */
#define PTE_BLOCK	0		/* bit 1 clear: a 1 GiB or 2 MiB block */
#define PTE_PAGE	BIT(1)
#define PTE_SH_INNER	(3UL << 8)
#define PTE_AF		BIT(10)		/* access flag, or the first use faults */
#define PTE_ADDR_MASK	GENMASK(47, 12)

#define PGTABLE_PAGE_SHIFT	12
#define PGTABLE_ENTRIES		512
#define PGTABLE_LEVEL_SHIFT(l)	(PGTABLE_PAGE_SHIFT + 9 * (3 - (l)))

struct pgtable {
	u64 *root;		/* level 1, possibly several tables concatenated */
	unsigned int ia_bits;	/* input addresses are below 2^ia_bits */
	const char *name;	/* for panics */
};

/* Give @pt an empty root for @ia_bits (30..40) of input address */
void pgtable_init(struct pgtable *pt, unsigned int ia_bits, const char *name);
/*
 * Map [pa, pa + size) 1:1 with @attrs, in the largest blocks that fit, at
 * boot: over nothing already mapped (pgtable.c panics otherwise)
 */
void pgtable_map(struct pgtable *pt, u64 pa, u64 size, u64 attrs);
/*
 * The entry where a walk for @ia stops, its level in *@level: a leaf
 * (block or page), or an invalid entry, which then covers the whole
 * block of that level
 */
u64 *pgtable_walk(const struct pgtable *pt, u64 ia, unsigned int *level);
/* Fill @table with the 512 next-level entries @block at @level maps */
void pgtable_split(u64 *table, u64 block, unsigned int level);

#endif /* HYP_PGTABLE_H */
