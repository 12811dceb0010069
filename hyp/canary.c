// SPDX-License-Identifier: GPL-2.0
/*
 * Linux must never touch the hypervisor's reserved region. The unused tail
 * of that region is filled with an address-dependent pattern at boot and
 * checked when Linux shuts the machine down: any write by Linux (or a DMA
 * it started) into our memory shows up as a mismatch.
 */
#include "hyp.h"

#define CANARY_SEED	0x6879707472616365UL	/* "hyptrace" */

static u64 canary_start(void)
{
	return ALIGN_UP((u64)__hyp_end, SZ_4K);
}

static u64 canary_end(void)
{
	return hyp_layout.hyp_base + HYP_REGION_SIZE;
}

static u64 pattern(u64 addr)
{
	return CANARY_SEED ^ (addr * 0x9e3779b97f4a7c15UL);
}

void canary_fill(void)
{
	u64 a;

	for (a = canary_start(); a < canary_end(); a += 8)
		WRITE_ONCE(*(u64 *)a, pattern(a));
}

bool canary_intact(u64 *bad_addr)
{
	u64 a;

	for (a = canary_start(); a < canary_end(); a += 8) {
		if (READ_ONCE(*(u64 *)a) != pattern(a)) {
			*bad_addr = a;
			return false;
		}
	}
	return true;
}
