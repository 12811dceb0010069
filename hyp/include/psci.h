/* SPDX-License-Identifier: GPL-2.0 */
/* PSCI (DEN0022) function IDs and return codes the relay deals with. */
#ifndef HYP_PSCI_H
#define HYP_PSCI_H

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

struct hyp_cpu;
struct trap_frame;

/*
 * One PSCI implementation behind psci_call() (psci.c), which has checked
 * the arguments it can and records the call. Each returns the PSCI result.
 */
struct psci_ops {
	/* CPU_ON (SMC64): @target is one of ours, the affinity checked */
	s64 (*cpu_on)(struct hyp_cpu *target, u64 pc, u64 ctx);
	/* CPU_SUSPEND (SMC64) */
	s64 (*cpu_suspend)(u64 power_state, u64 pc, u64 ctx);
	/* PSCI_FEATURES of one 32-bit function ID */
	s64 (*features)(u32 feature);
	/* The calls that only ask: VERSION, AFFINITY_INFO, MIGRATE_INFO_TYPE */
	s64 (*answer)(u32 fid, const u64 *r);
	/* CPU_OFF, SYSTEM_OFF, SYSTEM_RESET: return only when they failed */
	s64 (*leave)(u32 fid, const u64 *r);
	/* Firmware is behind it: SYSTEM_OFF and SYSTEM_RESET may not return */
	bool firmware;
};

extern const struct psci_ops psci_relay_ops;
extern const struct psci_ops psci_local_ops;

bool psci_call(const struct psci_ops *ops, struct trap_frame *frame, u32 fid);
#endif

#endif /* HYP_PSCI_H */
