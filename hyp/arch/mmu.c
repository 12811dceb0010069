// SPDX-License-Identifier: GPL-2.0
/*
 * The EL2 stage-1 identity map, of what the hypervisor touches and nothing
 * else: its own region (its text read-only and executable, everything else
 * execute-never), the trace carve-out it writes, the 2 MiB block where it
 * writes Linux's copy of the device tree and the loader's tree it copies
 * from (read-only), the console UART, if there is one, and the SCMI
 * channels' shared memory the hypervisor reads (read-only Device). Memory is Normal
 * write-back inner-shareable, the attributes Linux uses, so that pages
 * shared with Linux stay coherent on real hardware; the UART is Device.
 *
 * The rest of RAM is not mapped: it holds memory the firmware keeps
 * (/memreserve/, no-map /reserved-memory: TF-A, OP-TEE), which must not
 * be mapped cacheable here, as speculative fills into it can raise
 * external aborts on real cores (../shared/reference/boards.md, 5), and
 * the hypervisor has no business in the rest. One exception: the pages of
 * a spin table, which the hypervisor writes to release CPUs
 * (spin_table.c), are mapped as Linux maps them for the same write
 * (ioremap_cache in smp_spin_table.c): plain RAM the firmware's armstub
 * polls, not secure memory.
 *
 * The boot CPU builds the tables once with its MMU off, in the
 * hypervisor's private memory (hyp_mem.c), and the register values that
 * go with them into hyp_mmu; every CPU then turns its MMU on with those in
 * head.S (el2_mmu_on), before any C code of its runs on a stack.
 */
#include "fw_trace.h"
#include "hyp_layout.h"
#include "mmio_trace.h"
#include "mmu.h"
#include "pgtable.h"
#include "spin_table.h"
#include "sysregs.h"
#include "uart.h"

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
#define PROT_DEVICE_RO	(PTE_ATTRINDX(MT_DEVICE) | PTE_AF | PTE_AP_RO | PTE_XN)

static struct pgtable el2_map;

/* spin_table_pages()' callback */
static void map_spin_page(void *ctx, u64 page)
{
	pgtable_map(&el2_map, page, SZ_4K, PROT_DATA);
}

/* Read by head.S with the MMU off: written by the boot CPU with its off */
struct hyp_mmu_regs hyp_mmu;

_Static_assert(__builtin_offsetof(struct hyp_mmu_regs, mair) == 0 &&
	       __builtin_offsetof(struct hyp_mmu_regs, tcr) == 8 &&
	       __builtin_offsetof(struct hyp_mmu_regs, ttbr0) == 16 &&
	       __builtin_offsetof(struct hyp_mmu_regs, sctlr) == 24,
	       "el2_mmu_on in head.S loads struct hyp_mmu_regs as two pairs");

/*
 * The same values on every CPU but TCR_EL2.PS, which el2_mmu_on sets from
 * each CPU's own PARange, capped at the 48 bits a 4 KiB granule reaches in
 * 4 levels (as Linux's tcr_compute_pa_size does per CPU).
 */
static void mmu_regs_build(void)
{
	hyp_mmu.mair = MAIR_EL2_VALUE;
	hyp_mmu.tcr = TCR_EL2_RES1 |
		      /* VA_BITS of input address from TTBR0_EL2 */
		      FIELD_PREP(TCR_T0SZ, 64 - VA_BITS) |
		      /* table walks cacheable as RAM is: WBWA, inner shareable */
		      TCR_IRGN0_WBWA | TCR_ORGN0_WBWA | TCR_SH0_INNER |
		      TCR_TG0_4K;
	hyp_mmu.ttbr0 = (u64)el2_map.root;
	hyp_mmu.sctlr = SCTLR_EL2_RES1 |
			SCTLR_EL2_M |	/* stage-1 translation */
			SCTLR_EL2_C |	/* data accesses cacheable */
			SCTLR_EL2_I |	/* instruction fetches cacheable */
			SCTLR_EL2_SA |	/* SP alignment checked */
			SCTLR_EL2_WXN;	/* writable never executable */
}

void mmu_build_tables(u64 loader_fdt, u64 fdt_size)
{
	const struct hyp_layout *l = &hyp_layout;
	u64 hyp = l->hyp_base;

	pgtable_init(&el2_map, VA_BITS, "EL2 map");
	pgtable_map(&el2_map, hyp, (u64)__text_end - hyp, PROT_TEXT);
	pgtable_map(&el2_map, (u64)__text_end,
		    (u64)__rodata_end - (u64)__text_end, PROT_RODATA);
	pgtable_map(&el2_map, (u64)__rodata_end,
		    hyp + HYP_REGION_SIZE - (u64)__rodata_end, PROT_DATA);
	/* dt.c placed these in RAM, apart from each other and from us */
	pgtable_map(&el2_map, l->carveout_base, l->carveout_size, PROT_DATA);
	pgtable_map(&el2_map, l->dtb_base, SZ_2M, PROT_DATA);
	pgtable_map(&el2_map, loader_fdt, fdt_size, PROT_RODATA);
	/* dt.c made sure it is outside RAM and below VA_BITS */
	if (l->console.drv)
		pgtable_map(&el2_map, l->console.base,
			    uart_span(&l->console), PROT_DEVICE);
	spin_table_pages(map_spin_page, NULL);
	mmio_windows_build(&el2_map, PROT_DEVICE, PROT_RODATA);
	/* SCMI channels' shared memory, read only (fw_scmi.c) */
	fw_scmi_map(&el2_map, PROT_DEVICE_RO);
	mmu_regs_build();
}

