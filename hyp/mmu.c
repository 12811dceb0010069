// SPDX-License-Identifier: GPL-2.0
/*
 * The EL2 stage-1 identity map. RAM is Normal write-back inner-shareable,
 * the attributes Linux uses, so pages shared with Linux stay coherent on
 * real hardware; the UART is Device; our own text is read-only and
 * executable, everything else execute-never. Nothing else is mapped.
 *
 * The boot CPU builds the tables once with its MMU off; every CPU then
 * loads the same tables in mmu_enable().
 */
#include "hyp.h"
#include "print.h"
#include "sysregs.h"

#define PTE_VALID	BIT(0)
#define PTE_TABLE	BIT(1)		/* at levels 1-2; level 3 pages too */
#define PTE_BLOCK	0		/* bit 1 clear: a 1 GiB or 2 MiB block */
#define PTE_PAGE	BIT(1)
#define PTE_ATTRINDX(i)	((u64)(i) << 2)
#define PTE_AP_RW	(1UL << 6)	/* EL2 read/write (AP[1] is RES1) */
#define PTE_AP_RO	(3UL << 6)	/* EL2 read-only */
#define PTE_SH_INNER	(3UL << 8)
#define PTE_AF		BIT(10)		/* access flag, or the first use faults */
#define PTE_XN		BIT(54)
#define PTE_ADDR_MASK	GENMASK(47, 12)

#define VA_BITS		39		/* three levels, starting at level 1 */
#define PAGE_SHIFT	12
#define TABLE_ENTRIES	512
#define LEVEL_SHIFT(l)	(PAGE_SHIFT + 9 * (3 - (l)))

#define PROT_TEXT	(PTE_ATTRINDX(MT_NORMAL) | PTE_SH_INNER | PTE_AF | PTE_AP_RO)
#define PROT_RODATA	(PROT_TEXT | PTE_XN)
#define PROT_DATA	(PTE_ATTRINDX(MT_NORMAL) | PTE_SH_INNER | PTE_AF | \
			 PTE_AP_RW | PTE_XN)
#define PROT_DEVICE	(PTE_ATTRINDX(MT_DEVICE) | PTE_AF | PTE_AP_RW | PTE_XN)

#define TABLE_POOL_PAGES 32

static u64 table_pool[TABLE_POOL_PAGES][TABLE_ENTRIES] __aligned(SZ_4K);
static unsigned int tables_used;
static u64 *root_table;

static u64 *alloc_table(void)
{
	if (tables_used == TABLE_POOL_PAGES)
		hyp_panic("out of EL2 page-table pages (%u)", TABLE_POOL_PAGES);
	return table_pool[tables_used++];
}

static u64 *next_level(u64 *entry)
{
	if (!(*entry & PTE_VALID))
		*entry = (u64)alloc_table() | PTE_TABLE | PTE_VALID;
	else if (!(*entry & PTE_TABLE))
		hyp_panic("EL2 map: overlapping block at entry %p", entry);
	return (u64 *)(*entry & PTE_ADDR_MASK);
}

/* Map [pa, pa + size) 1:1, using the largest blocks alignment allows */
static void map_range(u64 pa, u64 size, u64 prot)
{
	u64 end = ALIGN_UP(pa + size, SZ_4K);

	pa = ALIGN_DOWN(pa, SZ_4K);
	if (end > (1UL << VA_BITS))
		hyp_panic("EL2 map: 0x%lx is beyond the %u-bit map", end, VA_BITS);

	while (pa < end) {
		u64 *table = root_table;
		unsigned int level;

		for (level = 1; level <= 3; level++) {
			u64 block = 1UL << LEVEL_SHIFT(level);
			u64 *entry = &table[(pa >> LEVEL_SHIFT(level)) %
					    TABLE_ENTRIES];

			if (level == 3) {
				*entry = pa | prot | PTE_PAGE | PTE_VALID;
				pa += block;
				break;
			}
			if (!(pa & (block - 1)) && end - pa >= block) {
				*entry = pa | prot | PTE_BLOCK | PTE_VALID;
				pa += block;
				break;
			}
			table = next_level(entry);
		}
	}
}

/* RAM minus the hypervisor's own region, which gets finer permissions */
static void map_ram(void)
{
	u64 hyp = hyp_layout.hyp_base, hyp_end = hyp + HYP_REGION_SIZE;
	unsigned int i;

	for (i = 0; i < hyp_layout.nr_mem; i++) {
		u64 base = hyp_layout.mem[i].base;
		u64 end = base + hyp_layout.mem[i].size;

		if (hyp >= base && hyp_end <= end) {
			map_range(base, hyp - base, PROT_DATA);
			map_range(hyp_end, end - hyp_end, PROT_DATA);
		} else {
			map_range(base, end - base, PROT_DATA);
		}
	}
}

void mmu_build_tables(void)
{
	u64 hyp = hyp_layout.hyp_base;

	root_table = alloc_table();
	map_ram();
	map_range(hyp, (u64)__text_end - hyp, PROT_TEXT);
	map_range((u64)__text_end, (u64)__rodata_end - (u64)__text_end,
		  PROT_RODATA);
	map_range((u64)__rodata_end, hyp + HYP_REGION_SIZE - (u64)__rodata_end,
		  PROT_DATA);
	map_range(hyp_layout.uart, SZ_4K, PROT_DEVICE);
}

void mmu_enable(void)
{
	u64 parange = FIELD_GET(ID_AA64MMFR0_PARANGE,
				read_sysreg(id_aa64mmfr0_el1));
	u64 tcr = TCR_EL2_RES1 | FIELD_PREP(TCR_T0SZ, 64 - VA_BITS) |
		  TCR_IRGN0_WBWA | TCR_ORGN0_WBWA | TCR_SH0_INNER |
		  TCR_TG0_4K | FIELD_PREP(TCR_PS, min(parange, (u64)TCR_PS_48BIT));

	write_sysreg(MAIR_EL2_VALUE, mair_el2);
	write_sysreg(tcr, tcr_el2);
	write_sysreg((u64)root_table, ttbr0_el2);
	isb();
	asm volatile("tlbi alle2" : : : "memory");
	dsb_ish();
	isb();
	write_sysreg(SCTLR_EL2_RES1 | SCTLR_EL2_M | SCTLR_EL2_C | SCTLR_EL2_I |
		     SCTLR_EL2_SA | SCTLR_EL2_WXN, sctlr_el2);
	isb();
}
