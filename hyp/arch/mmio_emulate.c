// SPDX-License-Identifier: GPL-2.0
/*
 * An access to a traced page whose syndrome does not describe it
 * (ESR_EL2.ISV 0: a pair, a writeback, a register offset, as
 * ../shared/reference/el2-observe.md lists where they come from), decoded
 * from the instruction and performed at EL2, element by element, each one
 * once, as mmio_trap.c performs an access with a syndrome. KVM refuses
 * these (KVM_EXIT_ARM_NISV); m1n1's hypervisor decodes them the same way.
 *
 * The instruction is at ELR, an EL1&0 virtual address: AT S1E1R gives
 * its physical address through EL1's own stage 1, as KVM's
 * __translate_far_to_hpfar() does, with PAR_EL1, which belongs to EL1,
 * given back. EL1 has just fetched it, so stage 2 gives the host that
 * page, and then as RAM, the only memory stage 2 lets it execute
 * (stage2_host_ram() makes sure, should another CPU have changed the
 * page tables since); it is read through this CPU's read-only window
 * (mmio_code_window()), Normal write-back as Linux maps its text, so the
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
#include "hyp.h"
#include "mmio_decode.h"
#include "mmio_trace.h"
#include "stage2.h"
#include "sysregs.h"
#include "trace.h"
#include "trap.h"
#include "shared/hyptrace_abi.h"

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
	ok = mmio_el2_read(mmio_code_window(pa & ~(SZ_4K - 1UL)) +
			   (pa & (SZ_4K - 1)), 2, &val);
	mmio_code_window_close();
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

bool mmio_emulate(struct trap_frame *frame, u64 ipa, u32 mode)
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
	mmio_skip_instruction(frame, A64_INSN_BYTES);
	return true;
}
