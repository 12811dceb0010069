// SPDX-License-Identifier: GPL-2.0
/*
 * The EL2 stage-1 identity map. RAM is Normal write-back inner-shareable,
 * the attributes Linux uses, so pages shared with Linux stay coherent on
 * real hardware; the console UART, if there is one, is Device; our own text is read-only and
 * executable, everything else execute-never. Nothing else is mapped.
 *
 * The boot CPU builds the tables once with its MMU off, in the
 * hypervisor's private memory (hyp_mem.c); every CPU then loads the same
 * tables in mmu_enable().
 */
#include "hyp.h"
#include "pgtable.h"
#include "sysregs.h"

#define PTE_ATTRINDX(i)	((u64)(i) << 2)
#define PTE_AP_RW	(1UL << 6)	/* EL2 read/write (AP[1] is RES1) */
#define PTE_AP_RO	(3UL << 6)	/* EL2 read-only */
#define PTE_XN		BIT(54)

#define VA_BITS		HYP_EL2_VA_BITS

#define PROT_TEXT	(PTE_ATTRINDX(MT_NORMAL) | PTE_SH_INNER | PTE_AF | PTE_AP_RO)
#define PROT_RODATA	(PROT_TEXT | PTE_XN)
#define PROT_DATA	(PTE_ATTRINDX(MT_NORMAL) | PTE_SH_INNER | PTE_AF | \
			 PTE_AP_RW | PTE_XN)
#define PROT_DEVICE	(PTE_ATTRINDX(MT_DEVICE) | PTE_AF | PTE_AP_RW | PTE_XN)

static struct pgtable el2_map;

void mmu_build_tables(void)
{
	u64 hyp = hyp_layout.hyp_base;

	pgtable_init(&el2_map, VA_BITS, "EL2 map");
	pgtable_map_ram(&el2_map, PROT_DATA);
	pgtable_map(&el2_map, hyp, (u64)__text_end - hyp, PROT_TEXT);
	pgtable_map(&el2_map, (u64)__text_end,
		    (u64)__rodata_end - (u64)__text_end, PROT_RODATA);
	pgtable_map(&el2_map, (u64)__rodata_end,
		    hyp + HYP_REGION_SIZE - (u64)__rodata_end, PROT_DATA);
	/* dt.c made sure it is outside RAM and below VA_BITS */
	if (hyp_layout.console.drv)
		pgtable_map(&el2_map, hyp_layout.console.base,
			    uart_span(&hyp_layout.console), PROT_DEVICE);
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
	write_sysreg((u64)el2_map.root, ttbr0_el2);
	isb();
	asm volatile("tlbi alle2" : : : "memory");
	dsb_ish();
	isb();
	write_sysreg(SCTLR_EL2_RES1 | SCTLR_EL2_M | SCTLR_EL2_C | SCTLR_EL2_I |
		     SCTLR_EL2_SA | SCTLR_EL2_WXN, sctlr_el2);
	isb();
}
