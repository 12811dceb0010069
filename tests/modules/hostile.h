/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the hostile test modules (hvc_fuzz, carveout_scribble) share: a
 * random stream per thread that a seed makes repeatable, and the
 * hypervisor's own account of its image (IMAGE_SUM, ABI 1.3), taken
 * before and after the attack.
 */
#ifndef HYPTRACE_TESTS_HOSTILE_H
#define HYPTRACE_TESTS_HOSTILE_H

#include <linux/types.h>

#include "hyptrace_abi_linux.h"

/* xorshift64*: cheap, and a nonzero seed makes a run repeatable */
static inline u64 hostile_rnd(u64 *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545f4914f6cdd1dULL;
}

/*
 * IMAGE_SUM: the image's checksum in *@sum and the first canary word found
 * changed (0 for none) in *@bad; false on a hypervisor without the call.
 */
static inline bool hostile_image_sum(u64 *sum, u64 *bad)
{
	struct arm_smccc_res res;

	arm_smccc_1_1_hvc(HYPTRACE_CALL_IMAGE_SUM, 0, 0, 0, 0, &res);
	if ((long)res.a0 != HYPTRACE_RET_SUCCESS)
		return false;
	*sum = res.a1;
	*bad = res.a3;
	return true;
}

#endif /* HYPTRACE_TESTS_HOSTILE_H */
