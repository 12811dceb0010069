/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracing the host's accesses to chosen device pages: the regions
 * (mmio_regions.c), their boot-time names (dt_mmio.c), the trap that
 * performs and records each access (mmio_trap.c) and the guarded access
 * at EL2 (mmio_access.S).
 */
#ifndef HYP_MMIO_TRACE_H
#define HYP_MMIO_TRACE_H

#include "mem_ranges.h"
#include "pgtable.h"
#include "types.h"

struct trap_frame;

/* dt_mmio.c: hyptrace.mmio= from /chosen/bootargs, at the end of dt_parse() */
void dt_parse_mmio(void);

/*
 * mmio_regions.c. A boot-time region, checked as a run-time one is, then
 * left out of stage 2 when it is built: 0 or a HYPTRACE_RET_* code.
 */
s64 mmio_region_add_boot(u64 base, u64 size, u32 mode);
/* stage2_build(): the pages of the boot-time regions, as holes */
void mmio_trace_holes(struct mem_ranges *holes);
/* HYPTRACE_CALL_MMIO_REGION, HYPTRACE_CALL_MMIO_QUERY */
s64 mmio_region_call(u64 op, u64 base, u64 size, u64 mode);
s64 mmio_query_call(u64 slot, u64 res[3]);
/*
 * The mode of the region holding @ipa, its hit count bumped if @mode
 * asks for the access (HYPTRACE_MMIO_R or _W); 0 if no region holds it.
 * @page: whether @ipa is on a page some region keeps from stage 2.
 */
u32 mmio_region_hit(u64 ipa, u32 access, bool *page);
/* @page out of stage 2 again after a step, if a region still holds it */
void mmio_page_unmap(u64 page);

/*
 * mmio_trap.c: a stage-2 data abort on a traced page (decoded first if it
 * has no syndrome), or false
 */
bool mmio_trap(struct trap_frame *frame);
/*
 * mmio_step.c: let the access at @frame run once, unemulated, recorded as
 * mmio_unhandled; and the software step exception that ends it (false if
 * this CPU was not stepping)
 */
bool mmio_let_through(struct trap_frame *frame, u64 ipa);
void mmio_step_init(void);
bool mmio_step_done(struct trap_frame *frame);
/*
 * mmu.c: the per-CPU EL2 windows onto device pages (@prot_device) and onto
 * the RAM an instruction is read from (@prot_code), built at boot
 */
void mmio_windows_build(struct pgtable *el2_map, u64 prot_device,
			u64 prot_code);
/*
 * traps.c: an abort at EL2 inside mmio_el2_read() or mmio_el2_write()
 * makes it return false
 */
bool mmio_el2_fixup(struct trap_frame *frame);

/* mmio_access.S: one access of 1 << @log2 bytes at @va; false if it aborted */
bool mmio_el2_read(u64 va, unsigned int log2, u64 *val);
bool mmio_el2_write(u64 va, unsigned int log2, u64 val);
/* mmio_access.S: AT S1E1R of @va, PAR_EL1's answer in *@par; false if it aborted */
bool mmio_el2_at_s1e1r(u64 va, u64 *par);
extern char mmio_el2_access_start[], mmio_el2_access_end[],
	    mmio_el2_access_fault[];

#endif /* HYP_MMIO_TRACE_H */
