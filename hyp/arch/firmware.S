/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hypervisor's SMCs to firmware: its own (PSCI and the Arm architecture
 * calls it forwards), and EL1's calls to firmware services passed through
 * whole (core/fw_forward.c). SMCCC 1.0 firmware may clobber x4..x17, hence
 * the result pointer is kept on the stack, or in x19, which every SMCCC
 * version preserves, across the call.
 */
#include "asm-macros.inc"

/*
 * With no firmware (hyp_no_firmware, hyp_layout.c, set by dt_cpus.c: the
 * Pi, whose SMC is UNDEFINED), the answer is SMCCC's NOT_SUPPORTED, x1..x17
 * unchanged, and no SMC is made. x9 is free here: SMCCC lets a call clobber it.
 */
.macro	no_firmware_ret res
	adr_l	x9, hyp_no_firmware
	ldrb	w9, [x9]
	cbz	w9, 1f
	mov	x9, #-1				/* SMCCC_RET_NOT_SUPPORTED */
	str	x9, [\res]
	ret
1:
.endm

/* void firmware_smc(u64 fid, u64 a1, u64 a2, u64 a3, struct smccc_res *res) */
SYM_FUNC firmware_smc
	no_firmware_ret x4
	str	x4, [sp, #-16]!
	smc	#0
	ldr	x4, [sp], #16
	stp	x0, x1, [x4]
	stp	x2, x3, [x4, #16]
	ret
SYM_END firmware_smc

/*
 * void firmware_smc_regs(u64 regs[18]): x0..x17 from @regs, SMC #0, and
 * x0..x17 as the firmware left them back into @regs (SMCCC 1.2 passes
 * arguments and results in all eighteen).
 */
SYM_FUNC firmware_smc_regs
	no_firmware_ret x0
	stp	x19, x20, [sp, #-16]!
	mov	x19, x0
	ldp	x2, x3, [x19, #16]
	ldp	x4, x5, [x19, #32]
	ldp	x6, x7, [x19, #48]
	ldp	x8, x9, [x19, #64]
	ldp	x10, x11, [x19, #80]
	ldp	x12, x13, [x19, #96]
	ldp	x14, x15, [x19, #112]
	ldp	x16, x17, [x19, #128]
	ldp	x0, x1, [x19]
	smc	#0
	stp	x0, x1, [x19]
	stp	x2, x3, [x19, #16]
	stp	x4, x5, [x19, #32]
	stp	x6, x7, [x19, #48]
	stp	x8, x9, [x19, #64]
	stp	x10, x11, [x19, #80]
	stp	x12, x13, [x19, #96]
	stp	x14, x15, [x19, #112]
	stp	x16, x17, [x19, #128]
	ldp	x19, x20, [sp], #16
	ret
SYM_END firmware_smc_regs
