/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Entry points: the arm64 Image header the loader jumps through, the boot
 * CPU's first steps (self-relocation, BSS, boot stack) and the one path
 * every CPU takes into hyp_cpu_start(), whether it booted, was started by a
 * relayed CPU_ON, woke from a relayed CPU_SUSPEND or was released from a
 * spin table.
 */
#include "asm-macros.inc"
#include "layout.h"
#include "sysregs.h"

	.section .head.text, "ax"
SYM_FUNC _head
	b	primary_entry			/* code0 */
	.long	0				/* code1 */
	.quad	0				/* text_offset */
	/*
	 * image_size: the whole region, not just text, data and BSS, so that
	 * a loader keeps the private memory after them (hyp_mem.c) free.
	 */
	.quad	1 << HYP_REGION_SHIFT
	.quad	IMAGE_FLAG_LE | IMAGE_FLAG_PAGE_4K | IMAGE_FLAG_ANYWHERE
	.quad	0, 0, 0				/* res2 .. res4 */
	.ascii	"ARM\x64"			/* magic */
	.long	0				/* res5: no PE/COFF header */

/* x0 = device tree, as for Linux; we are at EL2 with the MMU off. */
primary_entry:
	mrs	x21, cntpct_el0			/* boot time starts here */
	mov	x19, x0
	bl	el2_quiesce

	/* The image is linked at 0: add the load address to every pointer. */
	adr_l	x20, _head
	adr_l	x1, __rela_start
	adr_l	x2, __rela_end
1:	cmp	x1, x2
	b.hs	2f
	ldp	x3, x4, [x1], #16		/* r_offset, r_info */
	ldr	x5, [x1], #8			/* r_addend */
	cmp	w4, #R_AARCH64_RELATIVE
	b.ne	park
	add	x5, x5, x20
	str	x5, [x20, x3]
	b	1b

2:	adr_l	x1, __bss_start
	adr_l	x2, __bss_end
3:	stp	xzr, xzr, [x1], #16
	cmp	x1, x2
	b.lo	3b

	/*
	 * Everything so far, and all the private memory the boot CPU sets up
	 * before its MMU is on, goes straight to memory. Drop any line a
	 * previous stage may have left in the caches for the region, so that
	 * nothing stale shadows it once the MMU and caches are on. The
	 * dmb sy orders the non-cacheable stores above before the
	 * invalidation (Linux's preserve_boot_args: "needed before dc ivac
	 * with MMU off").
	 */
	dmb	sy
	bl	region_inval

	/*
	 * The boot stack's top is the bottom of the log (layout.h): it grows
	 * down, away from the log and the persist record above it, into the
	 * HYP_BOOT_STACK_SIZE the allocator keeps for it (hyp_mem.c) until
	 * the boot CPU has its own. Its top once was the region's, 4 KiB
	 * above the record: any boot path deeper than that would have
	 * written over the record. It is used only with the MMU off, so no
	 * stage-1 guard page could catch an overflow.
	 */
	adr_l	x0, __hyp_start
	mov	x1, #1
	add	x0, x0, x1, lsl #HYP_REGION_SHIFT
	sub	x0, x0, #HYP_LOG_SIZE + HYP_PERSIST_SIZE
	mov	sp, x0

	/*
	 * struct hyp_entries (cpus.h): the entry points below, for the C
	 * code that sends a CPU to one of them, which so does not depend on
	 * this file (scripts/check-circles.sh)
	 */
	adr_l	x0, hyp_entries
	adr_l	x1, hyp_secondary_entry
	adr_l	x2, hyp_resume_entry
	stp	x1, x2, [x0]
	adr_l	x1, hyp_spin_entry
	adr_l	x2, hyp_cpu_park
	stp	x1, x2, [x0, #16]

	mov	x0, x19
	mov	x1, x21
	bl	hyp_boot_prepare		/* returns the boot CPU's index */
	mov	x19, x0

	/*
	 * The tables and the rest of the private memory were written with
	 * the MMU off, straight to memory: a line loaded since the first
	 * invalidation (speculatively, say) still holds what was there
	 * before, and the MMU-on would find it instead of memory. So what
	 * was written is invalidated again before it is read cacheable
	 * (Arm ARM, "Mismatched memory attributes": a location written
	 * Non-cacheable is invalidated by VA before a Cacheable read; Linux
	 * head.S does it for the page tables it wrote, and for them only).
	 * Only what was written: a location not written since the first
	 * invalidation matches any line loaded from it, and none can be
	 * dirty, as nothing has written the region through a cache since.
	 * That is the image and all that was allocated (hyp_mem.c), and at
	 * the top the boot stack, dead from here, the log and the persist
	 * record, which hyp_mem_end() bounds until the boot stack is given
	 * back; the free memory between (most of the 2 MiB, which the canary
	 * fills with the MMU on) was not written, and is not invalidated
	 * twice.
	 */
	dmb	sy
	bl	hyp_mem_high_water
	mov	x1, x0
	adr_l	x0, __hyp_start
	bl	dcache_inval_range
	bl	hyp_mem_end
	adr_l	x1, __hyp_start
	mov	x2, #1
	add	x1, x1, x2, lsl #HYP_REGION_SHIFT
	bl	dcache_inval_range
	mov	x0, x19
	mov	x1, #CPU_ENTRY_BOOT
	b	cpu_entry_common
SYM_END _head

/* [__hyp_start, + HYP_REGION_SIZE): invalidated to the point of coherency */
region_inval:
	mov	x7, x30				/* dcache_by_line uses x0..x5 */
	adr_l	x0, __hyp_start
	mov	x1, #1
	add	x1, x0, x1, lsl #HYP_REGION_SHIFT
	bl	dcache_inval_range
	ret	x7

	.text
/* PSCI CPU_ON lands here with x0 = the context id we chose: the CPU index */
SYM_FUNC hyp_secondary_entry
	mov	x1, #CPU_ENTRY_ON
	b	cpu_entry_common
SYM_END hyp_secondary_entry

/* PSCI CPU_SUSPEND wake-up, x0 = CPU index */
SYM_FUNC hyp_resume_entry
	mov	x1, #CPU_ENTRY_RESUME
	b	cpu_entry_common
SYM_END hyp_resume_entry

/*
 * A spin-table CPU the boot CPU released (spin_table.c), MMU off, with no
 * argument: it finds its index by its MPIDR in spin_mpidr[], which the boot
 * CPU wrote with its MMU on, so only once its own MMU is on and it reads
 * through the same coherent caches. A CPU not there waits in park.
 */
SYM_FUNC hyp_spin_entry
	bl	el2_quiesce
	bl	el2_mmu_on
	mrs	x1, mpidr_el1
	ldr	x2, =0xff00ffffff		/* MPIDR_HWID_MASK */
	and	x1, x1, x2
	adr_l	x2, spin_mpidr
	mov	x19, #0
1:	ldr	x3, [x2, x19, lsl #3]
	cmp	x3, x1
	b.eq	cpu_park_common
	add	x19, x19, #1
	cmp	x19, #HYP_MAX_CPUS
	b.lo	1b
	b	park
SYM_END hyp_spin_entry

/*
 * x0 = CPU index: from PSCI CPU_OFF (psci_local.c), MMU on, back to the
 * park on an empty stack, as the CPU first came, since the trap that
 * brought it here never returns.
 */
SYM_FUNC hyp_cpu_park
	mov	x19, x0
cpu_park_common:
	mov	x20, #CPU_ENTRY_PARK
	b	cpu_entry_stack
SYM_END hyp_cpu_park

/*
 * x0 = CPU index, x1 = CPU_ENTRY_*: vectors, MMU, stack, then C. The MMU
 * goes on before any C code runs on a stack: a CPU back from CPU_OFF or a
 * power-down suspend may still hold lines of its stack from its previous
 * life (firmware may flush only its own level of cache), which C code
 * spilling with the MMU off and reloading with it on would read instead
 * of what it wrote (boards.md §5; Linux and pKVM do the same).
 */
cpu_entry_common:
	mov	x19, x0
	mov	x20, x1
	bl	el2_quiesce
	bl	el2_mmu_on
/* x19 = CPU index, x20 = CPU_ENTRY_*, MMU on */
cpu_entry_stack:
	adr_l	x0, hyp_stacks		/* base, count: set by the boot CPU */
	ldp	x0, x2, [x0]
	cmp	x19, x2
	b.hs	park
	add	x1, x19, #1
	lsl	x1, x1, #HYP_STACK_SHIFT
	add	sp, x0, x1
	mov	x0, x19
	mov	x1, x20
	bl	hyp_cpu_start
	b	park

/*
 * A known EL2 state before any C runs: MMU, caches and alignment checks off
 * whatever the previous stage left, SP_EL2 selected, our vectors installed.
 */
el2_quiesce:
	ldr	x0, =SCTLR_EL2_RES1		/* MMU and caches off */
	msr	sctlr_el2, x0
	msr	spsel, #1
	adr_l	x0, hyp_vectors
	msr	vbar_el2, x0
	isb
	ret

/*
 * The EL2 MMU on with the tables and values the boot CPU left in hyp_mmu
 * (mmu.c), in the order Linux's __enable_mmu/set_sctlr and pKVM's
 * ___kvm_hyp_init use: the translation registers, isb so that they are in
 * effect; the TLB entries a previous stage may have left for EL2 dropped,
 * dsb nsh to complete a local invalidation; SCTLR_EL2, isb; then the local
 * I-cache invalidated, since what it fetched with the MMU off came from
 * the point of coherency and may be stale at the PoU, dsb nsh, isb.
 * The layout is the non-VHE one: E2H is cleared first (el2_setup_cpu()
 * writes the whole of HCR_EL2 later). A CPU whose E2H is stuck at 1 keeps
 * its MMU off and reaches setup_hcr(), which says so.
 */
el2_mmu_on:
	mrs	x0, hcr_el2
	bic	x0, x0, #HCR_E2H
	msr	hcr_el2, x0
	isb
	mrs	x0, hcr_el2
	tst	x0, #HCR_E2H
	b.ne	1f
	adr_l	x0, hyp_mmu
	ldp	x1, x2, [x0]			/* mair, tcr */
	ldp	x3, x4, [x0, #16]		/* ttbr0, sctlr */
	/* TCR_EL2.PS: this CPU's PARange, at most 48 bits (TCR_PS_48BIT) */
	mrs	x5, id_aa64mmfr0_el1
	ubfx	x5, x5, #0, #4			/* ID_AA64MMFR0_EL1.PARange */
	mov	x6, #TCR_PS_48BIT
	cmp	x5, x6
	csel	x5, x5, x6, lo
	bfi	x2, x5, #16, #3			/* TCR_PS, bits [18:16] */
	msr	mair_el2, x1
	msr	tcr_el2, x2
	msr	ttbr0_el2, x3
	isb
	tlbi	alle2
	dsb	nsh
	msr	sctlr_el2, x4
	isb
	ic	iallu
	dsb	nsh
	isb
1:	ret

park:
	wfe
	b	park
