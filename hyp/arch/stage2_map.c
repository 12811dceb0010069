// SPDX-License-Identifier: GPL-2.0
/*
 * The host's stage-2 map and the attributes of its entries: built at boot
 * (stage2.c), changed afterwards (stage2_change.c), its extent checked by
 * the traced MMIO regions (mmio_regions.c), which the build asks for its
 * holes. Here, calling nothing, so that none of them depends on another
 * through it (scripts/check-circles.sh).
 */
#include "stage2.h"

/* Stage-2 block and page descriptor attributes (Arm ARM, VMSAv8-64) */
#define S2_MEMATTR(a)		((u64)(a) << 2)
#define S2_MEMATTR_NORMAL_WB	S2_MEMATTR(0xf)	/* outer and inner write-back */
#define S2_AP_RW		(3UL << 6)	/* EL1 and EL0 may read and write */
#define S2_XN			(2UL << 53)	/* no execution at EL1 or EL0 */

struct pgtable stage2_host_map;

u64 stage2_attrs(enum stage2_kind kind)
{
	u64 ram = S2_MEMATTR_NORMAL_WB | S2_AP_RW | PTE_SH_INNER | PTE_AF;

	return kind == STAGE2_RAM ? ram : kind == STAGE2_MMIO ? ram | S2_XN : 0;
}
