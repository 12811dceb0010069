/* SPDX-License-Identifier: GPL-2.0 */
/* The way out of the hypervisor into Linux, for every CPU (setup.c). */
#include "asm-macros.inc"
#include "sysregs.h"

	.text
/*
 * Leave EL2 for Linux at x0 with x1 as its argument: EL1h with DAIF masked,
 * x1..x3 = 0 as booting.rst asks.
 */
SYM_FUNC hyp_enter_el1
	msr	elr_el2, x0
	ldr	x0, =SPSR_EL1_ENTRY
	msr	spsr_el2, x0
	mov	x0, x1
	mov	x1, xzr
	mov	x2, xzr
	mov	x3, xzr
	/* Nothing of the hypervisor's leaks into Linux's registers. */
	.irp	n, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30
	mov	x\n, xzr
	.endr
	eret
SYM_END hyp_enter_el1
