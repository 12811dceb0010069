/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one access the hypervisor makes to a traced device register on
 * EL1's behalf (mmio_trap.c), through this CPU's EL2 window onto the page.
 * A device may answer with an external abort (a register that does not
 * exist, a block that is clocked off): the synchronous exception is taken
 * at EL2, and mmio_el2_fixup() (called by traps.c) sends it to
 * mmio_el2_access_fault, which returns false, so that the caller gives
 * EL1 the abort it would have had. Every instruction that can fault lies
 * between mmio_el2_access_start and mmio_el2_access_end; none of them
 * touches x30 or the stack, so the fault path simply returns.
 *
 * The address translation that finds an instruction without a syndrome
 * (mmio_trap.c's emulate()) is guarded the same way: AT can take a
 * synchronous external abort on a table walk, as KVM's __kvm_at() allows for.
 */
#include "asm-macros.inc"

	.section .text.mmio_el2_access, "ax"

/* bool mmio_el2_read(u64 va, unsigned int log2, u64 *val) */
SYM_FUNC mmio_el2_read
	cmp	w1, #2
	b.eq	4f
	b.hi	8f
	cbnz	w1, 2f
	.globl	mmio_el2_access_start
mmio_el2_access_start:
	ldrb	w3, [x0]
	b	0f
2:	ldrh	w3, [x0]
	b	0f
4:	ldr	w3, [x0]
	b	0f
8:	ldr	x3, [x0]
0:	str	x3, [x2]
	mov	w0, #1
	ret
SYM_END mmio_el2_read

/*
 * bool mmio_el2_at_s1e1r(u64 va, u64 *par). The dmb sy on each side of
 * the PAR_EL1 read: Cortex-A77 erratum 1508412 (Linux's read_sysreg_par())
 */
SYM_FUNC mmio_el2_at_s1e1r
	at	s1e1r, x0
	isb
	dmb	sy
	mrs	x2, par_el1
	dmb	sy
	str	x2, [x1]
	mov	w0, #1
	ret
SYM_END mmio_el2_at_s1e1r

/* bool mmio_el2_write(u64 va, unsigned int log2, u64 val) */
SYM_FUNC mmio_el2_write
	cmp	w1, #2
	b.eq	4f
	b.hi	8f
	cbnz	w1, 2f
	strb	w2, [x0]
	b	0f
2:	strh	w2, [x0]
	b	0f
4:	str	w2, [x0]
	b	0f
8:	str	x2, [x0]
	.globl	mmio_el2_access_end
mmio_el2_access_end:
0:	mov	w0, #1
	ret
SYM_END mmio_el2_write

/* Where mmio_el2_fixup() sends an aborted access: return false */
SYM_FUNC mmio_el2_access_fault
	mov	w0, #0
	ret
SYM_END mmio_el2_access_fault
