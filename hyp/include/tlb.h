/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The barriers and TLB invalidations of stage-2 changes (stage2_change.c),
 * by name: the sequences read as the Arm ARM writes them, and tests/mem
 * puts recording fakes in their place to check the order.
 */
#ifndef HYP_TLB_H
#define HYP_TLB_H

#include "types.h"

/* Earlier stores are seen by every CPU's table walker first */
static inline void dsb_ishst(void)
{
	asm volatile("dsb ishst" : : : "memory");
}

/* Stage-2 entries for @ipa, VMID 0, every CPU of the Inner Shareable domain */
static inline void tlbi_ipas2e1is(u64 ipa)
{
	/* Xt[35:0] = IPA[47:12], the TTL hint (Xt[47:44]) 0: any level */
	asm volatile("tlbi ipas2e1is, %0" : : "r" (ipa >> 12) : "memory");
}

/* Every stage-1 (and combined) entry of VMID 0, Inner Shareable domain */
static inline void tlbi_vmalle1is(void)
{
	asm volatile("tlbi vmalle1is" : : : "memory");
}

#endif /* HYP_TLB_H */
