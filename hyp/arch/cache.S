/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Data cache maintenance by VA to the point of coherency, for memory that
 * readers with their caches or MMU off see: head.S's region before the MMU
 * is on, the log and the trace's record a reset keeps (hyp_log.c,
 * trace_persist.c), the device tree Linux reads (dt.c).
 */
#include "asm-macros.inc"

	.text
/* x0 = line size in bytes, from CTR_EL0.DminLine */
dcache_line_size:
	mrs	x2, ctr_el0
	ubfx	x2, x2, #16, #4
	mov	x3, #4
	lsl	x0, x3, x2
	ret

.macro dcache_by_line op
	mov	x4, x30
	mov	x5, x0
	bl	dcache_line_size
	mov	x30, x4
	sub	x2, x0, #1
	bic	x5, x5, x2
1:	dc	\op, x5
	add	x5, x5, x0
	cmp	x5, x1
	b.lo	1b
	dsb	sy
	ret
.endm

/* [x0, x1): clean to the point of coherency, for readers with caches off */
SYM_FUNC dcache_clean_range
	dcache_by_line cvac
SYM_END dcache_clean_range

SYM_FUNC dcache_inval_range
	dcache_by_line ivac
SYM_END dcache_inval_range
