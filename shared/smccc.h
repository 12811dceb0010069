/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SMC Calling Convention (DEN0028) function-ID layout and return codes, as
 * used by both the hypervisor and the host module.
 */
#ifndef HYPTRACE_SHARED_SMCCC_H
#define HYPTRACE_SHARED_SMCCC_H

#define SMCCC_FAST_CALL			(1U << 31)	/* atomic, not yielding */
#define SMCCC_64				(1U << 30)	/* SMC64/HVC64 convention */
#define SMCCC_OWNER_SHIFT		24
#define SMCCC_OWNER_MASK		0x3fU
#define SMCCC_SVE_HINT			(1U << 16)	/* SMCCC 1.3: no live SVE state */
#define SMCCC_FUNC_MASK			0xffffU

#define SMCCC_OWNER_ARCH		0
#define SMCCC_OWNER_STANDARD		4
#define SMCCC_OWNER_VENDOR_HYP		6

#define SMCCC_ID(is64, owner, func)					\
	(SMCCC_FAST_CALL | ((is64) ? SMCCC_64 : 0) |			\
	 (((owner) & SMCCC_OWNER_MASK) << SMCCC_OWNER_SHIFT) |		\
	 ((func) & SMCCC_FUNC_MASK))

#define SMCCC_OWNER(id)		(((id) >> SMCCC_OWNER_SHIFT) & SMCCC_OWNER_MASK)

/* Arm architecture calls */
#define SMCCC_VERSION			SMCCC_ID(0, SMCCC_OWNER_ARCH, 0x0000)
#define SMCCC_ARCH_FEATURES		SMCCC_ID(0, SMCCC_OWNER_ARCH, 0x0001)
#define SMCCC_ARCH_SOC_ID		SMCCC_ID(0, SMCCC_OWNER_ARCH, 0x0002)
#define SMCCC_ARCH_WORKAROUND_1		SMCCC_ID(0, SMCCC_OWNER_ARCH, 0x8000)
#define SMCCC_ARCH_WORKAROUND_2		SMCCC_ID(0, SMCCC_OWNER_ARCH, 0x7fff)
#define SMCCC_ARCH_WORKAROUND_3		SMCCC_ID(0, SMCCC_OWNER_ARCH, 0x3fff)

#define SMCCC_VERSION_1_1		0x10001

/* Every service's "call UID" and "revision" slots (DEN0028 §6) */
#define SMCCC_FUNC_CALL_UID		0xff01
#define SMCCC_FUNC_REVISION		0xff03

/*
 * Return codes in x0 (DEN0028 §5.2). A kernel module may have them from
 * <linux/arm-smccc.h> already, with the same values.
 */
#ifndef SMCCC_RET_SUCCESS
#define SMCCC_RET_SUCCESS		0
#define SMCCC_RET_NOT_SUPPORTED		(-1)
#define SMCCC_RET_NOT_REQUIRED		(-2)
#define SMCCC_RET_INVALID_PARAMETER	(-3)
#endif

#endif /* HYPTRACE_SHARED_SMCCC_H */
