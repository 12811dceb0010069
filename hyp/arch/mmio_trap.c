// SPDX-License-Identifier: GPL-2.0
/*
 * A host access to a traced device page (mmio_regions.c), which stage 2
 * leaves out: performed here once, on the host's behalf, and recorded as
 * mmio_read or mmio_write. Registers with read side effects (a FIFO, a
 * clear-on-read status) must see exactly the one access the program made,
 * so an access is either performed here, or let through unemulated
 * (mmio_step.c), never both.
 *
 * The fast path is every access whose syndrome describes it (ESR_EL2.ISV,
 * as every readl/writel of arm64 Linux gives: arch/arm64/include/asm/io.h):
 * HPFAR_EL2 and FAR_EL2 give the physical address, ESR_EL2 the size
 * (SAS), sign extension (SSE), the register (SRT), its width (SF) and
 * acquire/release (AR). The access is made at EL2 through this CPU's
 * window onto the page, Device-nGnRE as Linux's ioremap() maps registers;
 * the register is written back and the instruction skipped, as KVM's
 * io_mem_abort() and kvm_handle_mmio_return() do for a guest.
 *
 * An access without a syndrome is decoded from the instruction
 * (mmio_emulate.c) and performed here element by element. Anything else
 * (a form not decoded, an unaligned access, AArch32) goes to mmio_step.c,
 * which lets the instruction itself run once.
 */
#include <string.h>
#include "hyp.h"
#include "mmio_trace.h"
#include "stage2.h"
#include "sysregs.h"
#include "trace.h"
#include "trap.h"
#include "shared/hyptrace_abi.h"

#define ESR_ABT_SAS	GENMASK(23, 22)	/* with ISV: log2 of the size */
#define ESR_ABT_SSE	BIT(21)		/* with ISV: the load sign-extends */
#define ESR_ABT_SF	BIT(15)		/* with ISV: Xt, not Wt */
#define ESR_ABT_AR	BIT(14)		/* with ISV: acquire or release */

/*
 * The windows: two pages of EL2 virtual addresses per CPU, in the last
 * 2 MiB of the EL2 map, far above anything mmu.c maps (mmu.c would
 * panic on an overlap while building): the first HYP_MAX_CPUS onto device
 * pages, the next HYP_MAX_CPUS onto the page of RAM an instruction
 * without a syndrome is read from (mmio_emulate.c).
 */
#define MMIO_WINDOW_VA	((1UL << HYP_EL2_VA_BITS) - SZ_2M)
#define MMIO_WINDOWS	(2 * HYP_MAX_CPUS)

static u64 *window_pte;		/* MMIO_WINDOWS level-3 entries */
static u64 window_prot;		/* mmu.c's Device attributes */
static u64 code_prot;		/* mmu.c's read-only RAM attributes */

void mmio_windows_build(struct pgtable *el2_map, u64 prot_device,
			u64 prot_code)
{
	unsigned int level;

	/* Builds the level-3 table; the entries are then made invalid */
	pgtable_map(el2_map, MMIO_WINDOW_VA, MMIO_WINDOWS * SZ_4K,
		    prot_device);
	window_pte = pgtable_walk(el2_map, MMIO_WINDOW_VA, &level);
	memset(window_pte, 0, MMIO_WINDOWS * sizeof(*window_pte));
	window_prot = prot_device;
	code_prot = prot_code;
	mmio_step_init();
}

/*
 * This CPU's window onto the device page @page, remapped if it showed
 * another: pKVM's fixmap sequence (arch/arm64/kvm/hyp/nvhe/mm.c,
 * fixmap_clear_slot()). Changing the output address of a valid entry is
 * break-before-make (Arm ARM, "Using break-before-make when updating
 * translation table entries"); the invalidation is broadcast (vae2is)
 * although only this CPU uses the window, because another CPU may have
 * walked to it speculatively, and only this CPU's later accesses need it
 * complete.
 */
static inline __always_inline u64 window_map(unsigned int slot, u64 page,
					     u64 prot)
{
	u64 va = MMIO_WINDOW_VA + (u64)slot * SZ_4K;
	u64 *pte = &window_pte[slot];
	u64 want = page | prot | PTE_PAGE | PTE_VALID;

	if (*pte == want)
		return va;
	if (*pte & PTE_VALID) {
		WRITE_ONCE(*pte, 0);
		asm volatile("dsb ishst\n\ttlbi vae2is, %0\n\tdsb ish"
			     : : "r" (va >> 12) : "memory");
	}
	/* An invalid entry is never cached: the new one needs no TLBI */
	WRITE_ONCE(*pte, want);
	asm volatile("dsb ishst\n\tisb" : : : "memory");
	return va;
}

bool mmio_el2_fixup(struct trap_frame *frame)
{
	if (frame->elr < (u64)mmio_el2_access_start ||
	    frame->elr >= (u64)mmio_el2_access_end)
		return false;
	frame->elr = (u64)mmio_el2_access_fault;
	return true;
}

u64 mmio_code_window(u64 page)
{
	return window_map(HYP_MAX_CPUS + this_cpu()->idx, page, code_prot);
}

/* Break without make: the same invalidation as window_map()'s */
void mmio_code_window_close(void)
{
	unsigned int slot = HYP_MAX_CPUS + this_cpu()->idx;
	u64 va = MMIO_WINDOW_VA + (u64)slot * SZ_4K;

	WRITE_ONCE(window_pte[slot], 0);
	asm volatile("dsb ishst\n\ttlbi vae2is, %0\n\tdsb ish\n\tisb"
		     : : "r" (va >> 12) : "memory");
}

/* The instruction done: step over it as the CPU would have (KVM's kvm_skip_instr) */
static inline __always_inline void skip(struct trap_frame *frame,
					unsigned int bytes)
{
	frame->elr += bytes;
	/* No branch is in progress, and a software step completes */
	frame->spsr &= ~(PSR_BTYPE | PSR_SS);
}

void mmio_skip_instruction(struct trap_frame *frame, unsigned int bytes)
{
	skip(frame, bytes);
}

/* A load's value as the register receives it */
static u64 load_result(u64 esr, u64 val, unsigned int log2)
{
	unsigned int bits = 8U << log2;

	if (esr & ESR_ABT_SSE && bits < 64)
		val = (u64)((s64)(val << (64 - bits)) >> (64 - bits));
	return esr & ESR_ABT_SF ? val : (u32)val;
}

/*
 * mmio_perform(), inlined into the fast path (mmio_isv()): bench row 3j
 * counts the calls it would otherwise make
 */
static inline __always_inline bool
perform(struct trap_frame *frame, u64 ipa, u64 va, unsigned int log2,
	bool write, u32 flags, u32 mode, u64 *val)
{
	u64 win = window_map(this_cpu()->idx, ipa & ~(SZ_4K - 1UL),
			     window_prot) + (ipa & (SZ_4K - 1));
	bool ok;

	if (write) {
		if (log2 < 3)
			*val &= (1UL << (8 << log2)) - 1;
		/* Release: everything before it is observed first */
		if (flags & HYP_MMIO_F_ACQREL)
			asm volatile("dmb sy" : : : "memory");
		ok = mmio_el2_write(win, log2, *val);
	} else {
		ok = mmio_el2_read(win, log2, val);
		/* Acquire: nothing after it is observed before it */
		if (flags & HYP_MMIO_F_ACQREL)
			asm volatile("dmb sy" : : : "memory");
	}
	if (!ok) {
		*val = 0;
		flags |= HYP_MMIO_F_ABORT;
	}
	if (write && mode)
		hyp_trace(mmio_write, .width = 1U << log2, .flags = flags,
			  .addr = ipa, .value = *val, .pc = frame->elr,
			  .va = va);
	else if (mode)
		hyp_trace(mmio_read, .width = 1U << log2, .flags = flags,
			  .addr = ipa, .value = *val, .pc = frame->elr,
			  .va = va);
	return ok;
}

bool mmio_perform(struct trap_frame *frame, u64 ipa, u64 va,
		  unsigned int log2, bool write, u32 flags, u32 mode, u64 *val)
{
	return perform(frame, ipa, va, log2, write, flags, mode, val);
}

static bool mmio_isv(struct trap_frame *frame, u64 ipa, u32 mode)
{
	u64 esr = frame->esr;
	unsigned int log2 = FIELD_GET(ESR_ABT_SAS, esr);
	u32 rt = FIELD_GET(ESR_ABT_SRT, esr);
	bool write = esr & ESR_ABT_WNR;
	u32 flags = esr & ESR_ABT_AR ? HYP_MMIO_F_ACQREL : 0;
	u64 val = 0;

	if (!write && esr & ESR_ABT_SSE && log2 < 3)
		flags |= HYP_MMIO_F_SIGNED;
	/* Register 31 of a store is the zero register */
	if (write && rt != 31)
		val = frame->regs[rt];
	/* The device's abort: traps.c gives EL1 the one it would have had */
	if (!perform(frame, ipa, frame->far, log2, write, flags, mode, &val))
		return false;
	if (!write && rt != 31)
		frame->regs[rt] = load_result(esr, val, log2);
	skip(frame, esr & ESR_IL ? 4 : 2);
	return true;
}

bool mmio_trap(struct trap_frame *frame)
{
	u64 esr = frame->esr;
	u64 ipa = stage2_fault_ipa(frame->far);
	bool write = esr & ESR_ABT_WNR, page;
	unsigned int log2 = FIELD_GET(ESR_ABT_SAS, esr);
	u32 mode;

	/*
	 * Ours: a translation fault on a traced page, by the access itself
	 * (not a stage-1 walk that went through the page), FAR valid
	 */
	if (esr & (ESR_ABT_S1PTW | ESR_ABT_FNV) ||
	    (FIELD_GET(ESR_ABT_FSC, esr) & ~ESR_FSC_LEVEL) !=
	    ESR_FSC_TRANSLATION)
		return false;
	mode = mmio_region_hit(ipa, write ? HYPTRACE_MMIO_W : HYPTRACE_MMIO_R,
			       &page);
	if (!page)
		return false;
	if (frame->spsr & PSR_MODE32)
		return mmio_let_through(frame, ipa);
	if (!(esr & ESR_ABT_ISV))
		return mmio_emulate(frame, ipa, mode);
	if (ipa & ((1UL << log2) - 1))
		return mmio_let_through(frame, ipa);
	return mmio_isv(frame, ipa, mode);
}
