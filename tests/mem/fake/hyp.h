/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/mem: what hyp/arch/pgtable.c and stage2_change.c use of hyp.h,
 * from the tests
 */
#ifndef HYP_HYP_H
#define HYP_HYP_H

#include "mem_ranges.h"
#include "types.h"

#define HYP_REGION_SIZE		SZ_2M

struct hyp_layout {
	u64 hyp_base;
};

extern struct hyp_layout hyp_layout;

void *hyp_mem_alloc_boot(u64 size, u64 align, const char *what);

#endif /* HYP_HYP_H */
