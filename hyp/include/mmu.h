/* SPDX-License-Identifier: GPL-2.0 */
/* The EL2 map (mmu.c), and what head.S's el2_mmu_on loads to turn it on */
#ifndef HYP_MMU_H
#define HYP_MMU_H

#include "types.h"

struct hyp_mmu_regs {
	u64 mair;
	u64 tcr;
	u64 ttbr0;
	u64 sctlr;
};
extern struct hyp_mmu_regs hyp_mmu;

/* Boot CPU, MMU off: the tables, the loader's device tree mapped too */
void mmu_build_tables(u64 loader_fdt, u64 fdt_size);

#endif /* HYP_MMU_H */
