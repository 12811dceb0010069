// SPDX-License-Identifier: GPL-2.0
/*
 * Exception dispatch. EL1 comes to EL2 on purpose through HVC and trapped
 * SMC; set/way cache maintenance is trapped to be done safely (setway.c);
 * cpu_state.c records how EL1 sets up its MMU and IMPDEF register pokes;
 * maint_window.c TLBI and DC/IC by VA while its window is open.
 * Any other trap from EL1 or EL0 is something el2_regs.c left trapped
 * (or a feature newer than it knows): the CPU without EL2 would have found
 * the instruction UNDEFINED, so EL1 gets exactly that. Anything taken at
 * EL2 itself is a bug in the hypervisor and ends in a register dump.
 */
#include "cpus.h"
#include "hyp_layout.h"
#include "mmio_trace.h"
#include "panic.h"
#include "print.h"
#include "psci.h"
#include "stage2.h"
#include "sysregs.h"
#include "trace.h"
#include "trap.h"
#include "shared/hyptrace_abi.h"

static const char *const vector_names[] = {
	[VEC_EL2_SP0_SYNC] = "synchronous exception at EL2 (SP0)",
	[VEC_EL2_SYNC] = "synchronous exception at EL2",
	[VEC_EL2_IRQ] = "IRQ at EL2",
	[VEC_EL2_FIQ] = "FIQ at EL2",
	[VEC_EL2_SERROR] = "SError at EL2",
	[VEC_EL1_IRQ] = "IRQ routed to EL2",
	[VEC_EL1_FIQ] = "FIQ routed to EL2",
	[VEC_EL1_SERROR] = "SError routed to EL2",
};

/*
 * An SMCCC call from EL1, traced from entry to the return to EL1. Out of
 * line, one for both conduits: an untraced call then saves no registers
 * for the events.
 *
 * @cpu and @events are what handle_trap() read to decide the call is
 * traced: hyp_enter is tested in @events, and hyp_exit in the word read
 * again through the same pointer (the call may have changed it). The two
 * events' common payload is one word (hyp_call_word()), the one value
 * kept for them across the handler.
 */
static noinline void trace_call(struct trap_frame *frame, struct hyp_cpu *cpu,
				u64 events, const struct hyp_clock *clk,
				u32 fid, u64 low)
{
	u64 word = hyp_call_word(low, fid);

	hyp_trace_call_enter(cpu, events, clk, word);
	smccc_handle_call(frame);
	events = hyp_trace_reload(cpu, &clk);
	hyp_trace_call_exit(cpu, events, clk, word, (s64)frame->regs[0]);
}

/*
 * The low half of a traced HVC's word: its reason. handle_trap() does not
 * trace the trace reader's own page swaps: each would leave two events for
 * the next swap to collect, and a reader that waits for pages would read
 * little but itself (ftrace keeps its ring-buffer reader out of its own
 * trace for the same reason).
 *
 * A PSCI call the hypervisor answers itself (psci_local.c) is traced with
 * its own reason, psci_local, so that the trace says who answered it;
 * whether it does is a bit of @events (trace.c sets it with the mask).
 */
static inline u64 hvc_call_low(u64 events, u32 fid)
{
	if (__builtin_expect(events & HYP_TRACE_PSCI_LOCAL_BIT, 0) &&
	    is_psci_fid(fid))
		return hyp_call_word_low(HYP_REASON_PSCI_LOCAL);
	return hyp_call_word_low(HYP_REASON_HVC);
}

/*
 * One load and one bit test both events before a call goes its untraced
 * way; the traced way tests hyp_enter in the word it gets, and keeps @cpu
 * and, with the same ldp, the clock in @clk.
 */
static u64 trace_calls(struct hyp_cpu *cpu, const struct hyp_clock **clk)
{
	u64 events = hyp_trace_reload(cpu, clk);

	return events & HYP_TRACE_CALLS_BIT ? events : 0;
}

/*
 * PSTATE on an exception entry to EL1 from @old, as AArch64.TakeException
 * in the Arm ARM builds it: EL1h, DAIF masked, the flags and DIT kept, and
 * each feature's own rule for its bit. Bits not named stay 0: SS, IL, UAO,
 * BTYPE, PACM, PPEND.
 */
static u64 el1_entry_pstate(u64 old)
{
	u64 pfr1 = read_sysreg(id_aa64pfr1_el1);
	u64 sctlr = read_sysreg(sctlr_el1);
	bool from32 = old & PSR_MODE32;
	u64 new = PSR_MODE_EL1h | PSR_D | PSR_A | PSR_I | PSR_F;

	new |= old & PSR_NZCV;
	if (old & (from32 ? PSR_AA32_DIT : PSR_DIT))
		new |= PSR_DIT;
	/* PAN is kept, and set if SCTLR_EL1.SPAN says so */
	if (FIELD_GET(ID_AA64MMFR1_PAN, read_sysreg(id_aa64mmfr1_el1)))
		new |= (old & PSR_PAN) |
		       (sctlr & SCTLR_EL1_SPAN ? 0 : PSR_PAN);
	if (FIELD_GET(ID_AA64PFR1_SSBS, pfr1) && (sctlr & SCTLR_EL1_DSSBS))
		new |= PSR_SSBS;
	if (FIELD_GET(ID_AA64PFR1_MTE, pfr1))
		new |= PSR_TCO;
	if (FIELD_GET(ID_AA64PFR1_NMI, pfr1) && !(sctlr & SCTLR_EL1_SPINTMASK))
		new |= PSR_ALLINT;
	/* Locked only for an exception from EL1 to EL1, if EL1 asks */
	if (FIELD_GET(ID_AA64PFR1_GCS, pfr1) && !from32 &&
	    FIELD_GET(PSR_MODE_EL, old) == 1 &&
	    (read_sysreg(GCSCR_EL1) & GCSCR_EXLOCKEN))
		new |= PSR_EXLOCK;
	if (FIELD_GET(ID_AA64DFR1_EBEP, read_sysreg(ID_AA64DFR1_EL1)))
		new |= PSR_PM;
	return new;
}

/* Which of EL1's synchronous vectors an exception from @spsr takes */
static u64 el1_sync_vector(u64 spsr)
{
	if (spsr & PSR_MODE32)
		return VECTOR_LOWER_A32;
	if (!FIELD_GET(PSR_MODE_EL, spsr))
		return VECTOR_LOWER_A64;
	return spsr & PSR_MODE_SP ? VECTOR_CUR_SPX : VECTOR_CUR_SP0;
}

/*
 * Take a synchronous exception to EL1 with syndrome @esr, as the CPU would
 * have taken it without EL2: the return address is the instruction itself
 * and the ERET goes to EL1's vector.
 */
static void inject_el1_sync(struct trap_frame *frame, u64 esr)
{
	write_sysreg(esr, esr_el1);
	write_sysreg(frame->elr, elr_el1);
	write_sysreg(frame->spsr, spsr_el1);
	frame->elr = (read_sysreg(vbar_el1) & VBAR_BASE) |
		     el1_sync_vector(frame->spsr);
	frame->spsr = el1_entry_pstate(frame->spsr);
}

/*
 * UNDEFINED: the syndrome says "unknown reason" (EC 0, IL set as the
 * architecture has it for EC 0). FAR_EL1 is left alone, as for a real
 * UNDEFINED instruction.
 */
static void inject_undef(struct trap_frame *frame)
{
	inject_el1_sync(frame, FIELD_PREP(ESR_EC, ESR_EC_UNKNOWN) | ESR_IL);
}

/*
 * A synchronous external abort on the access stage 2 stopped, as a bus
 * error on that address would be reported: the EC for the same or a lower
 * EL, the fault status "synchronous external abort", WnR for data, FAR_EL1
 * the faulting virtual address.
 */
static void inject_sea(struct trap_frame *frame, bool data)
{
	bool from_el1 = !(frame->spsr & PSR_MODE32) &&
			FIELD_GET(PSR_MODE_EL, frame->spsr) == 1;
	u64 ec = data ? (from_el1 ? ESR_EC_DABT_CUR : ESR_EC_DABT_LOW) :
			(from_el1 ? ESR_EC_IABT_CUR : ESR_EC_IABT_LOW);
	u64 esr = FIELD_PREP(ESR_EC, ec) | ESR_IL |
		  FIELD_PREP(ESR_ABT_FSC, ESR_FSC_SEA);

	if (data)
		esr |= frame->esr & ESR_ABT_WNR;
	if (frame->esr & ESR_ABT_FNV)
		esr |= ESR_ABT_FNV;
	else
		write_sysreg(frame->far, far_el1);
	inject_el1_sync(frame, esr);
}

static const char *trap_origin(const struct trap_frame *frame)
{
	if (frame->spsr & PSR_MODE32)
		return "AArch32 EL0";
	return FIELD_GET(PSR_MODE_EL, frame->spsr) ? "EL1" : "EL0";
}

/* One bit per exception class that has been reported on the console */
static u64 trap_reported;

static bool first_of_its_kind(u64 ec)
{
	u64 bit = BIT(ec);

	return !(__atomic_fetch_or(&trap_reported, bit, __ATOMIC_RELAXED) & bit);
}

static void report_undef(const struct trap_frame *frame, u64 ec)
{
	if (!first_of_its_kind(ec))
		return;
	hyp_info("CPU %u: trap from %s at 0x%lx, ESR_EL2 0x%lx (EC 0x%02lx): UNDEFINED at EL1 (reported once per EC)\n",
		 this_cpu()->idx, trap_origin(frame), frame->elr, frame->esr,
		 ec);
}

/*
 * A trap from EL1 or EL0 that no handler claims. Traced like any entry:
 * func_id is the exception class, as the trace tools read it for "trap";
 * nothing comes back in x0, so ret is 0.
 */
static noinline __cold void handle_unknown_trap(struct trap_frame *frame)
{
	u32 ec = FIELD_GET(ESR_EC, frame->esr);

	hyp_trace(hyp_enter, .reason = HYP_REASON_TRAP, .func_id = ec);
	report_undef(frame, ec);
	inject_undef(frame);
	hyp_trace(hyp_exit, .reason = HYP_REASON_TRAP, .func_id = ec);
}

/*
 * EL1 or EL0 reached for memory stage 2 keeps from it (stage2.c): the
 * hypervisor's own region, a debug window, or an address beyond the
 * stage-2 input range. Nothing is accessed on its behalf. A load or store
 * in a debug window is skipped, loads reading zero: Linux's AMBA bus reads
 * the ID registers of every primecell the device tree names, at boot, and
 * takes all zeros for no device, where an abort would kill whatever task
 * probed (init, at boot). Anything else gets the abort a bus error gives.
 * Traced as a trap, with the address in a host_abort event between the
 * two; printed on the console once per kind (data, instruction).
 */
static noinline __cold void handle_host_abort(struct trap_frame *frame, u32 ec)
{
	bool data = ec == ESR_EC_DABT_LOW;
	u64 va = frame->esr & ESR_ABT_FNV ? 0 : frame->far;
	u64 ipa = stage2_fault_ipa(frame->far);
	u32 rt = FIELD_GET(ESR_ABT_SRT, frame->esr);
	bool raz;

	/* A translation fault while stage2_change() was at that address */
	if ((FIELD_GET(ESR_ABT_FSC, frame->esr) & ~ESR_FSC_LEVEL) ==
	    ESR_FSC_TRANSLATION && stage2_fault_retry(ipa))
		return;
	/* Only an access the syndrome describes can be skipped */
	raz = data && frame->esr & ESR_ABT_ISV && stage2_in_debug_window(ipa);
	hyp_trace(hyp_enter, .reason = HYP_REASON_TRAP, .func_id = ec);
	hyp_trace(host_abort, .esr = (u32)frame->esr, .ipa = ipa, .va = va);
	if (first_of_its_kind(ec))
		hyp_info("CPU %u: %s at 0x%lx %s IPA 0x%lx (VA 0x%lx), which stage 2 keeps from the host: %s (reported once per EC)\n",
			 this_cpu()->idx, trap_origin(frame), frame->elr,
			 !data ? "fetched from" :
			 frame->esr & ESR_ABT_WNR ? "wrote" : "read", ipa, va,
			 raz ? "reads as zero, writes ignored" :
			 "synchronous external abort at EL1");
	if (raz) {
		/* Register 31 of a load is the zero register */
		if (!(frame->esr & ESR_ABT_WNR) && rt < 31)
			frame->regs[rt] = 0;
		frame->elr += frame->esr & ESR_IL ? 4 : 2;
	} else {
		inject_sea(frame, data);
	}
	hyp_trace(hyp_exit, .reason = HYP_REASON_TRAP, .func_id = ec);
}

/* Everything but an SMCCC call: out of line, off the hypercall path */
static noinline void handle_other(struct trap_frame *frame,
				  enum trap_vector vec)
{
	const char *what;

	if (vec == VEC_EL1_SYNC || vec == VEC_EL1_32_SYNC) {
		u32 ec = FIELD_GET(ESR_EC, frame->esr);

		if (HYP_STAGE2 && ec == ESR_EC_DABT_LOW && mmio_trap(frame))
			return;
		if (ec == ESR_EC_SOFTSTP_LOW &&
		    (mmio_step_done(frame) || maint_step_done(frame)))
			return;
		if (HYP_STAGE2 && (ec == ESR_EC_DABT_LOW || ec == ESR_EC_IABT_LOW))
			handle_host_abort(frame, ec);
		else if (!(ec == ESR_EC_SYS64 &&
			   (setway_trap(frame) || maint_trap(frame))) &&
			 !cpu_state_trap(frame, ec))
			handle_unknown_trap(frame);
		return;
	}
	if (vec == VEC_EL2_SYNC && mmio_el2_fixup(frame))
		return;
	what = vec < ARRAY_SIZE(vector_names) ? vector_names[vec] : NULL;
	hyp_panic_frame(frame, what ? what : "unexpected exception");
}

/*
 * Out of line: only this path needs @frame after the call, and inline it
 * made handle_trap() save a register for every HVC too.
 */
static noinline void handle_smc(struct trap_frame *frame)
{
	struct hyp_cpu *cpu = HYP_TRACE_SITES ? this_cpu() : NULL;
	const struct hyp_clock *clk;
	u64 events = HYP_TRACE_SITES ? trace_calls(cpu, &clk) : 0;

	if (events)
		trace_call(frame, cpu, events, clk, (u32)frame->regs[0],
			   hyp_call_word_low(HYP_REASON_SMC));
	else
		smccc_handle_call(frame);
	/* ELR points at the SMC itself: step over it here only */
	frame->elr += 4;
}

void handle_trap(struct trap_frame *frame, enum trap_vector vec)
{
	const struct hyp_clock *clk;
	struct hyp_cpu *cpu;
	u64 events;

	if (vec == VEC_EL1_SYNC) {
		switch (FIELD_GET(ESR_EC, frame->esr)) {
		case ESR_EC_HVC64:
			/* ELR already points past the HVC */
			cpu = HYP_TRACE_SITES ? this_cpu() : NULL;
			events = HYP_TRACE_SITES ? trace_calls(cpu, &clk) : 0;
			/*
			 * The reader's swaps go untraced (hvc_call_low()):
			 * tested here, after the mask, so that an untraced
			 * call pays nothing for it and trace_call() has no
			 * early return to save registers around.
			 */
			if (events && (u32)frame->regs[0] !=
				      HYPTRACE_CALL_TRACE_SWAP_READER)
				trace_call(frame, cpu, events, clk,
					   (u32)frame->regs[0],
					   hvc_call_low(events,
							(u32)frame->regs[0]));
			else
				smccc_handle_call(frame);
			return;
		case ESR_EC_SMC64:
			handle_smc(frame);
			return;
		}
	}
	handle_other(frame, vec);
}
