/* SPDX-License-Identifier: GPL-2.0 */
/* The hypervisor's private memory, a stack of allocations (hyp_mem.c) */
#ifndef HYP_HYP_MEM_H
#define HYP_HYP_MEM_H

#include "types.h"

void hyp_mem_init(void);
/* The boot CPU is on its own stack: the boot stack's memory is free */
void hyp_mem_boot_stack_done(void);
void *hyp_mem_alloc(u64 size, u64 align);
/* At boot, where running out is a panic; @what names it */
void *hyp_mem_alloc_boot(u64 size, u64 align, const char *what);
u64 hyp_mem_mark(void);
u64 hyp_mem_end(void);
u64 hyp_mem_high_water(void);
void hyp_mem_free_to(u64 mark);
/* The free memory's canary pattern (canary.c): written, checked */
void hyp_mem_canary_fill(void);
bool hyp_mem_canary_intact(u64 *bad_addr);

#endif /* HYP_HYP_MEM_H */
