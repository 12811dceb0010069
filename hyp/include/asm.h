/* SPDX-License-Identifier: GPL-2.0 */
#ifndef HYP_ASM_H
#define HYP_ASM_H

/* PC-relative address of a symbol, +/- 4 GiB: works before relocation */
.macro adr_l, reg, sym
	adrp	\reg, \sym
	add	\reg, \reg, :lo12:\sym
.endm

#define ENTRY(name)	.globl name; .type name, %function; name:
#define END(name)	.size name, . - name

#endif /* HYP_ASM_H */
