/* SPDX-License-Identifier: GPL-2.0 */
/* tests/mem: hyp/include/tlb.h's operations, recorded (s2_change_test.c) */
#ifndef HYP_TLB_H
#define HYP_TLB_H

#include "types.h"

void fake_barrier(const char *what);
void fake_tlbi_ipas2e1is(u64 ipa);

static inline void dsb_ishst(void)
{
	fake_barrier("dsb ishst");
}

static inline void tlbi_ipas2e1is(u64 ipa)
{
	fake_tlbi_ipas2e1is(ipa);
}

static inline void tlbi_vmalle1is(void)
{
	fake_barrier("tlbi vmalle1is");
}

#endif /* HYP_TLB_H */
