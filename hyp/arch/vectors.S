/* SPDX-License-Identifier: GPL-2.0 */
/*
 * EL2 exception vectors. Every entry saves the interrupted context in a
 * struct trap_frame on SP_EL2 and calls handle_trap(frame, vector); the
 * handler may change the saved registers (results, ELR) before we return.
 */
#include "asm-macros.inc"
#include "layout.h"

.macro ventry vec
	.balign	128
	stp	x0, x1, [sp, #-TRAP_FRAME_SIZE]!
	mov	x0, #\vec
	b	trap_entry
.endm

	.text
	.balign	2048
SYM_FUNC hyp_vectors
	.irp	vec, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	ventry	\vec
	.endr
SYM_END hyp_vectors

/*
 * Its own section: hyp.lds places it ahead of the vectors, in what would
 * be the padding up to their alignment, and the code after the vectors
 * then fills the last entry's 116 bytes
 */
	.section .text.trap_entry, "ax"
trap_entry:
	stp	x2, x3, [sp, #16 * 1]
	stp	x4, x5, [sp, #16 * 2]
	stp	x6, x7, [sp, #16 * 3]
	stp	x8, x9, [sp, #16 * 4]
	stp	x10, x11, [sp, #16 * 5]
	stp	x12, x13, [sp, #16 * 6]
	stp	x14, x15, [sp, #16 * 7]
	stp	x16, x17, [sp, #16 * 8]
	stp	x18, x19, [sp, #16 * 9]
	stp	x20, x21, [sp, #16 * 10]
	stp	x22, x23, [sp, #16 * 11]
	stp	x24, x25, [sp, #16 * 12]
	stp	x26, x27, [sp, #16 * 13]
	stp	x28, x29, [sp, #16 * 14]
	mrs	x1, elr_el2
	stp	x30, x1, [sp, #16 * 15]		/* regs[30], elr */
	mrs	x1, spsr_el2
	mrs	x2, esr_el2
	stp	x1, x2, [sp, #16 * 16]		/* spsr, esr */
	mrs	x1, far_el2
	str	x1, [sp, #16 * 17]		/* far */

	mov	x1, x0
	mov	x0, sp
	bl	handle_trap

	ldp	x1, x2, [sp, #16 * 15 + 8]	/* elr, spsr */
	msr	elr_el2, x1
	msr	spsr_el2, x2
	ldp	x2, x3, [sp, #16 * 1]
	ldp	x4, x5, [sp, #16 * 2]
	ldp	x6, x7, [sp, #16 * 3]
	ldp	x8, x9, [sp, #16 * 4]
	ldp	x10, x11, [sp, #16 * 5]
	ldp	x12, x13, [sp, #16 * 6]
	ldp	x14, x15, [sp, #16 * 7]
	ldp	x16, x17, [sp, #16 * 8]
	ldp	x18, x19, [sp, #16 * 9]
	ldp	x20, x21, [sp, #16 * 10]
	ldp	x22, x23, [sp, #16 * 11]
	ldp	x24, x25, [sp, #16 * 12]
	ldp	x26, x27, [sp, #16 * 13]
	ldp	x28, x29, [sp, #16 * 14]
	ldr	x30, [sp, #16 * 15]
	ldp	x0, x1, [sp], #TRAP_FRAME_SIZE
	eret
