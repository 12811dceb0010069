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
 * (mmio_decode.c) and performed here element by element (below). Anything else
 * (a form not decoded, an unaligned access, AArch32) goes to mmio_step.c,
 * which lets the instruction itself run once.
 */
#include <string.h>
#include "cpus.h"
#include "hyp_layout.h"
#include "layout.h"
#include "mmio_decode.h"
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
 * without a syndrome is read from (emulate()).
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

static u64 code_window(u64 page)
{
	return window_map(HYP_MAX_CPUS + this_cpu()->idx, page, code_prot);
}

/* Break without make: the same invalidation as window_map()'s */
static void code_window_close(void)
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

/* Out of line for emulate(): one copy of perform() for all its elements */
static noinline bool mmio_perform(struct trap_frame *frame, u64 ipa, u64 va,
				  unsigned int log2, bool write, u32 flags,
				  u32 mode, u64 *val)
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

/*
 * An access to a traced page whose syndrome does not describe it
 * (ESR_EL2.ISV 0: a pair, a writeback, a register offset, as
 * ../shared/reference/el2-observe.md lists where they come from), decoded
 * from the instruction and performed at EL2, element by element, each one
 * once, as an access with a syndrome is performed above. KVM refuses
 * these (KVM_EXIT_ARM_NISV); m1n1's hypervisor decodes them the same way.
 *
 * The instruction is at ELR, an EL1&0 virtual address: AT S1E1R gives
 * its physical address through EL1's own stage 1, as KVM's
 * __translate_far_to_hpfar() does, with PAR_EL1, which belongs to EL1,
 * given back. EL1 has just fetched it, so stage 2 gives the host that
 * page, and then as RAM, the only memory stage 2 lets it execute
 * (stage2_host_ram() makes sure, should another CPU have changed the
 * page tables since); it is read through this CPU's read-only window
 * (code_window()), Normal write-back as Linux maps its text, so the
 * read is coherent with the host's view, and closed again at once, so
 * that the hypervisor keeps no cacheable mapping of a page the host may
 * later hand to the firmware (mmu.c maps no RAM of the host's). Another CPU may rewrite the
 * instruction meanwhile: the Arm ARM ("Concurrent modification and
 * execution of instructions") lets the CPU execute either version then,
 * and so do we.
 *
 * The forms decoded are mmio_decode.c's. Anything else, or a form that
 * does not fit (elements unaligned or off the faulting page, a
 * direction the syndrome contradicts, big-endian data, a translation that
 * failed) is let through unemulated by mmio_step.c, as before. No register
 * changes unless every element was performed: an element the device
 * aborts gives EL1 the abort (traps.c), its registers as they were.
 */

#define PAR_F		BIT(0)		/* the translation failed */
#define PAR_PA		GENMASK(47, 12)	/* with F 0: the output address */
#define PAR_ATTR	GENMASK(63, 56)	/* with F 0: MAIR-style attributes */

#define SCTLR_EL1_E0E	BIT(24)		/* EL0's data accesses big-endian */
#define SCTLR_EL1_EE	BIT(25)		/* EL1's data accesses big-endian */

/* Virtual address bits below the tag (TBI): the page of an access */
#define VA_PAGE		GENMASK(55, 12)

#define A64_INSN_BYTES	4

/*
 * Whether a MAIR-style attribute nibble (outer: PAR_EL1.ATTR[7:4], inner
 * [3:0]) is Normal write-back: 0b01RW with RW not 00 (transient) or
 * 0b11RW; 0b0100 is Non-cacheable, 0b00RW and 0b10RW write-through
 */
static bool write_back(unsigned int nibble)
{
	return nibble & 4 && nibble != 4;
}

/* EL1's PAR_EL1, read as mmio_el2_at_s1e1r() reads it (erratum 1508412) */
static u64 par_el1_read(void)
{
	u64 par;

	asm volatile("dmb sy\n\tmrs %0, par_el1\n\tdmb sy" : "=r" (par)
		     : : "memory");
	return par;
}

/* The A64 instruction at @frame's ELR, read as EL1 sees it */
static bool fetch_insn(struct trap_frame *frame, u32 *insn)
{
	u64 saved = par_el1_read(), par, pa, val;
	bool ok = mmio_el2_at_s1e1r(frame->elr, &par);
	unsigned int attr;

	write_sysreg(saved, par_el1);
	if (!ok || par & PAR_F)
		return false;
	attr = FIELD_GET(PAR_ATTR, par);
	pa = (par & PAR_PA) | (frame->elr & (SZ_4K - 1));
	if (!write_back(attr >> 4) || !write_back(attr & 0xf) ||
	    !stage2_host_ram(pa))
		return false;
	ok = mmio_el2_read(code_window(pa & ~(SZ_4K - 1UL)) +
			   (pa & (SZ_4K - 1)), 2, &val);
	code_window_close();
	*insn = (u32)val;
	return ok;
}

/* Register @r as a base: 31 is the SP of the interrupted context */
static u64 base_read(struct trap_frame *frame, unsigned int r)
{
	if (r != 31)
		return frame->regs[r];
	return frame->spsr & PSR_MODE_SP ? read_sysreg(sp_el1) :
					   read_sysreg(sp_el0);
}

static void base_write(struct trap_frame *frame, unsigned int r, u64 val)
{
	if (r != 31)
		frame->regs[r] = val;
	else if (frame->spsr & PSR_MODE_SP)
		write_sysreg(val, sp_el1);
	else
		write_sysreg(val, sp_el0);
}

/* Register @r as data: 31 is the zero register */
static u64 data_read(struct trap_frame *frame, unsigned int r)
{
	return r == 31 ? 0 : frame->regs[r];
}

/* Whether the access @d at @va can be performed here */
static bool fits(struct trap_frame *frame, const struct mmio_insn *d, u64 va)
{
	u64 span = (u64)d->nr << d->log2;
	u64 be = FIELD_GET(PSR_MODE_EL, frame->spsr) ? SCTLR_EL1_EE :
						       SCTLR_EL1_E0E;

	if (d->write != !!(frame->esr & ESR_ABT_WNR) ||
	    va & ((1UL << d->log2) - 1) ||
	    (va ^ frame->far) & VA_PAGE || (va ^ (va + span - 1)) & VA_PAGE)
		return false;
	/* Little-endian only, as EL2 reads and writes */
	return !(read_sysreg(sctlr_el1) & be);
}

/* Out of line: mmio_trap()'s fast path keeps its small frame */
static noinline bool emulate(struct trap_frame *frame, u64 ipa, u32 mode)
{
	u32 access = frame->esr & ESR_ABT_WNR ? HYPTRACE_MMIO_W :
						HYPTRACE_MMIO_R;
	u64 base, wback, va, val[2];
	u32 insn, flags = HYP_MMIO_F_DECODED;
	struct mmio_insn d;
	unsigned int i;

	if (!fetch_insn(frame, &insn) || !mmio_decode(insn, &d))
		return mmio_let_through(frame, ipa);
	base = base_read(frame, d.rn);
	wback = base + mmio_insn_offset(&d, data_read(frame, d.rm));
	va = d.index == MMIO_IDX_POST ? base : wback;
	if (!fits(frame, &d, va))
		return mmio_let_through(frame, ipa);
	if (d.nr == 2)
		flags |= HYP_MMIO_F_PAIR;
	if (!d.write && d.extend != MMIO_EXT_ZERO)
		flags |= HYP_MMIO_F_SIGNED;
	/* In address order: Rt's element first, then Rt2's */
	for (i = 0; i < d.nr; i++) {
		u64 eva = va + ((u64)i << d.log2);
		u64 eipa = (ipa & ~(SZ_4K - 1UL)) | (eva & (SZ_4K - 1));
		u32 emode = mode;
		bool page;

		/* mmio_trap() counted the element it faulted on */
		if (ipa - eipa >= 1UL << d.log2)
			emode = mmio_region_hit(eipa, access, &page);
		val[i] = d.write ? data_read(frame, i ? d.rt2 : d.rt) : 0;
		if (!mmio_perform(frame, eipa, eva, d.log2, d.write, flags,
				  emode, &val[i]))
			return false;
	}
	for (i = 0; !d.write && i < d.nr; i++) {
		unsigned int rt = i ? d.rt2 : d.rt;

		if (rt != 31)
			frame->regs[rt] = mmio_load_value(&d, val[i]);
	}
	if (d.index != MMIO_IDX_OFFSET)
		base_write(frame, d.rn, wback);
	skip(frame, A64_INSN_BYTES);
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
		return emulate(frame, ipa, mode);
	if (ipa & ((1UL << log2) - 1))
		return mmio_let_through(frame, ipa);
	return mmio_isv(frame, ipa, mode);
}
