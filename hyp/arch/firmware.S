/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hypervisor's own SMC to firmware (PSCI and the Arm architecture calls
 * it forwards). SMCCC 1.0 firmware may clobber x4..x17, hence the result
 * pointer is kept on the stack across the call.
 */
#include "asm-macros.inc"

/* void firmware_smc(u64 fid, u64 a1, u64 a2, u64 a3, struct smccc_res *res) */
SYM_FUNC firmware_smc
	str	x4, [sp, #-16]!
	smc	#0
	ldr	x4, [sp], #16
	stp	x0, x1, [x4]
	stp	x2, x3, [x4, #16]
	ret
SYM_END firmware_smc
