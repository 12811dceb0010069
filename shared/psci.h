/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PSCI (DEN0022) function IDs and return codes: what the hypervisor relays
 * or answers (hyp/platform/psci*.c) and what the tool names (el2names.c).
 */
#ifndef SHARED_PSCI_H
#define SHARED_PSCI_H

#ifndef __ASSEMBLY__
#include <stdbool.h>
#endif

#define PSCI_0_2_FN_BASE		0x84000000U
#define PSCI_0_2_FN64_BASE		0xc4000000U
#define PSCI_FN_RANGE			0x20U	/* function numbers 0..0x1f */

#define PSCI_0_2_FN_PSCI_VERSION	(PSCI_0_2_FN_BASE + 0x0)
#define PSCI_0_2_FN_CPU_SUSPEND		(PSCI_0_2_FN_BASE + 0x1)
#define PSCI_0_2_FN_CPU_OFF		(PSCI_0_2_FN_BASE + 0x2)
#define PSCI_0_2_FN_CPU_ON		(PSCI_0_2_FN_BASE + 0x3)
#define PSCI_0_2_FN_AFFINITY_INFO	(PSCI_0_2_FN_BASE + 0x4)
#define PSCI_0_2_FN_MIGRATE_INFO_TYPE	(PSCI_0_2_FN_BASE + 0x6)
#define PSCI_0_2_FN_SYSTEM_OFF		(PSCI_0_2_FN_BASE + 0x8)
#define PSCI_0_2_FN_SYSTEM_RESET	(PSCI_0_2_FN_BASE + 0x9)
#define PSCI_1_0_FN_PSCI_FEATURES	(PSCI_0_2_FN_BASE + 0xa)
#define PSCI_0_2_FN64_CPU_SUSPEND	(PSCI_0_2_FN64_BASE + 0x1)
#define PSCI_0_2_FN64_CPU_ON		(PSCI_0_2_FN64_BASE + 0x3)
#define PSCI_0_2_FN64_AFFINITY_INFO	(PSCI_0_2_FN64_BASE + 0x4)

#define PSCI_RET_SUCCESS		0
#define PSCI_RET_NOT_SUPPORTED		(-1)
#define PSCI_RET_INVALID_PARAMS		(-2)
#define PSCI_RET_DENIED			(-3)
#define PSCI_RET_ALREADY_ON		(-4)
#define PSCI_RET_ON_PENDING		(-5)
#define PSCI_RET_INTERNAL_FAILURE	(-6)
#define PSCI_RET_INVALID_ADDRESS	(-9)

/* What AFFINITY_INFO answers for a CPU */
#define PSCI_0_2_AFFINITY_LEVEL_ON		0
#define PSCI_0_2_AFFINITY_LEVEL_OFF		1
#define PSCI_0_2_AFFINITY_LEVEL_ON_PENDING	2

#ifndef __ASSEMBLY__
/* A PSCI function, 32- or 64-bit */
static inline bool is_psci_fid(unsigned int fid)
{
	return (fid - PSCI_0_2_FN_BASE < PSCI_FN_RANGE) ||
	       (fid - PSCI_0_2_FN64_BASE < PSCI_FN_RANGE);
}
#endif

#endif /* SHARED_PSCI_H */
