// SPDX-License-Identifier: GPL-2.0
/*
 * How each CPU sets itself up, seen from EL2.
 *
 * The window. From the hypervisor's ERET into Linux (boot, CPU_ON, resume
 * from a power-down suspend: enter_linux() in setup.c) until EL1 turns its
 * MMU on, EL1's writes of SCTLR_EL1, TCR_EL1, MAIR_EL1, TTBR0/1_EL1,
 * VBAR_EL1 and CPACR_EL1 trap here, are performed by an MSR of the same
 * EL1 register at EL2 (E2H is 0: the EL1 register, not an EL2 alias) and
 * recorded as cpu_sysreg events: register, value, PC; the CPU is the
 * buffer's. Armed only if cpu_sysreg is enabled when the CPU enters (from
 * boot that takes hyptrace.early=cpu_sysreg): off, the window costs
 * nothing.
 *
 * Which trap: FEAT_FGT's HFGWTR_EL2 has a bit per register, writes only
 * (those of TCR_EL1 and SCTLR_EL1 also trap TCR2_EL1 and SCTLR2_EL1,
 * recorded too, as KVM's FGT map in emulate-nested.c has it).
 * Without FGT (Cortex-A53/A57/A72: the Pi 3 and 4) HCR_EL2.TVM traps the
 * writes of SCTLR, TTBR0/1, TCR, MAIR (and of ESR, FAR, AFSR0/1, AMAIR and
 * CONTEXTIDR, performed and recorded too) and CPTR_EL2.TCPAC both reads
 * and writes of CPACR_EL1 (a read is performed and not recorded); nothing
 * traps VBAR_EL1, so that path has no vbar_el1 event. FEAT_FGT is
 * mandatory from Armv8.6, before any feature whose register TVM would
 * also trap (TCR2_EL1, PIR_EL1, ...): on a CPU without FGT the registers
 * decoded below are all TVM traps.
 *
 * The end. A write of SCTLR_EL1 with M set turns the traps off, as KVM's
 * kvm_toggle_cache() stops trapping a guest's VM registers once it turns
 * its caches on: TVM must not stay on, since a CPU without PAN
 * (CONFIG_ARM64_SW_TTBR0_PAN) writes TTBR0_EL1 on every user access. Linux
 * writes VBAR_EL1 only after that, its MMU on (__primary_switched,
 * __secondary_switched, cpu_do_resume): with FGT its trap stays until that
 * first write, one more event, and no other register is trapped by then.
 * The changes to HCR_EL2, CPTR_EL2 and HFGWTR_EL2 take effect at the ERET
 * back to EL1, a context synchronization event.
 *
 * The implementation-defined registers canary: see impdef_trap().
 */
#include "sysregs.h"
#include "trace.h"
#include "trap.h"

/* What the window traps with FGT; VBAR_EL1's trap outlives the others */
#define WINDOW_FGT	(HFGWTR_SCTLR_EL1 | HFGWTR_TCR_EL1 |		\
			 HFGWTR_MAIR_EL1 | HFGWTR_TTBR0_EL1 |		\
			 HFGWTR_TTBR1_EL1 | HFGWTR_VBAR_EL1 |		\
			 HFGWTR_CPACR_EL1)

/* The register an MSR or MRS names: op0, op1, CRn, CRm, op2 of its ISS */
#define ESR_SYS_REG	(ESR_SYS_OP0 | ESR_SYS_OP1 | ESR_SYS_CRN |	\
			 ESR_SYS_CRM | ESR_SYS_OP2)
#define SYS_REG(op0, op1, crn, crm, op2)				\
	(FIELD_PREP(ESR_SYS_OP0, op0) | FIELD_PREP(ESR_SYS_OP1, op1) |	\
	 FIELD_PREP(ESR_SYS_CRN, crn) | FIELD_PREP(ESR_SYS_CRM, crm) |	\
	 FIELD_PREP(ESR_SYS_OP2, op2))

bool cpu_has_fgt(void)
{
	return FIELD_GET(ID_AA64MMFR0_FGT, read_sysreg(id_aa64mmfr0_el1));
}

void cpu_state_window_open(void)
{
	if (!hyp_trace_on(cpu_sysreg))
		return;
	if (cpu_has_fgt()) {
		write_sysreg(read_sysreg(HFGWTR_EL2) | WINDOW_FGT, HFGWTR_EL2);
	} else {
		write_sysreg(read_sysreg(hcr_el2) | HCR_TVM, hcr_el2);
		write_sysreg(read_sysreg(cptr_el2) | CPTR_TCPAC, cptr_el2);
	}
}

/* EL1's MMU is on: everything off but VBAR_EL1's FGT trap */
static void window_mmu_on(void)
{
	if (cpu_has_fgt()) {
		write_sysreg(read_sysreg(HFGWTR_EL2) &
			     ~(WINDOW_FGT & ~HFGWTR_VBAR_EL1), HFGWTR_EL2);
	} else {
		write_sysreg(read_sysreg(hcr_el2) & ~HCR_TVM, hcr_el2);
		write_sysreg(read_sysreg(cptr_el2) & ~CPTR_TCPAC, cptr_el2);
	}
}

/* The register an MSR names, if the window traps it; 0 if not */
static enum cpu_sysreg window_reg(u64 sysreg)
{
	switch (sysreg) {
	case SYS_REG(3, 0, 1, 0, 0):	return CPU_SYSREG_SCTLR;
	case SYS_REG(3, 0, 2, 0, 2):	return CPU_SYSREG_TCR;
	case SYS_REG(3, 0, 10, 2, 0):	return CPU_SYSREG_MAIR;
	case SYS_REG(3, 0, 2, 0, 0):	return CPU_SYSREG_TTBR0;
	case SYS_REG(3, 0, 2, 0, 1):	return CPU_SYSREG_TTBR1;
	case SYS_REG(3, 0, 12, 0, 0):	return CPU_SYSREG_VBAR;
	case SYS_REG(3, 0, 1, 0, 2):	return CPU_SYSREG_CPACR;
	case SYS_REG(3, 0, 5, 2, 0):	return CPU_SYSREG_ESR;
	case SYS_REG(3, 0, 6, 0, 0):	return CPU_SYSREG_FAR;
	case SYS_REG(3, 0, 5, 1, 0):	return CPU_SYSREG_AFSR0;
	case SYS_REG(3, 0, 5, 1, 1):	return CPU_SYSREG_AFSR1;
	case SYS_REG(3, 0, 10, 3, 0):	return CPU_SYSREG_AMAIR;
	case SYS_REG(3, 0, 13, 0, 1):	return CPU_SYSREG_CONTEXTIDR;
	/* FEAT_TCR2, FEAT_SCTLR2: FGT's TCR_EL1 and SCTLR_EL1 bits trap them */
	case SYS_REG(3, 0, 2, 0, 3):	return CPU_SYSREG_TCR2;
	case SYS_REG(3, 0, 1, 0, 3):	return CPU_SYSREG_SCTLR2;
	}
	return 0;
}

/* EL1's MSR of @val to @reg, made at EL2 */
static void window_write(enum cpu_sysreg reg, u64 val)
{
	switch (reg) {
	case CPU_SYSREG_SCTLR:
		write_sysreg(val, sctlr_el1);
		break;
	case CPU_SYSREG_TCR:
		write_sysreg(val, tcr_el1);
		break;
	case CPU_SYSREG_MAIR:
		write_sysreg(val, mair_el1);
		break;
	case CPU_SYSREG_TTBR0:
		write_sysreg(val, ttbr0_el1);
		break;
	case CPU_SYSREG_TTBR1:
		write_sysreg(val, ttbr1_el1);
		break;
	case CPU_SYSREG_VBAR:
		write_sysreg(val, vbar_el1);
		break;
	case CPU_SYSREG_CPACR:
		write_sysreg(val, cpacr_el1);
		break;
	case CPU_SYSREG_ESR:
		write_sysreg(val, esr_el1);
		break;
	case CPU_SYSREG_FAR:
		write_sysreg(val, far_el1);
		break;
	case CPU_SYSREG_AFSR0:
		write_sysreg(val, afsr0_el1);
		break;
	case CPU_SYSREG_AFSR1:
		write_sysreg(val, afsr1_el1);
		break;
	case CPU_SYSREG_AMAIR:
		write_sysreg(val, amair_el1);
		break;
	case CPU_SYSREG_CONTEXTIDR:
		write_sysreg(val, contextidr_el1);
		break;
	case CPU_SYSREG_TCR2:
		write_sysreg(val, S3_0_C2_C0_3);
		break;
	case CPU_SYSREG_SCTLR2:
		write_sysreg(val, S3_0_C1_C0_3);
		break;
	}
}

/*
 * The window register a trapped MSR (or, for CPACR_EL1 under TCPAC, MRS)
 * names, or 0 if this is not a window trap
 */
static enum cpu_sysreg window_trapped(u64 iss)
{
	enum cpu_sysreg reg = window_reg(iss & ESR_SYS_REG);

	if (iss & ESR_SYS_DIR_READ && reg != CPU_SYSREG_CPACR)
		return 0;
	return reg;
}

/* Perform the access at EL2, record it, and end the window if it ends */
static void window_trap(struct trap_frame *frame, enum cpu_sysreg reg)
{
	u64 iss = frame->esr & ESR_ISS;
	u32 rt = FIELD_GET(ESR_SYS_RT, iss);
	u64 val;

	frame->elr += 4;
	if (iss & ESR_SYS_DIR_READ) {
		/* Not recorded; an MRS of register 31 reads into XZR */
		if (rt < 31)
			frame->regs[rt] = read_sysreg(cpacr_el1);
		return;
	}
	/* Register 31 of an MSR is the zero register */
	val = rt < 31 ? frame->regs[rt] : 0;
	window_write(reg, val);
	hyp_trace(cpu_sysreg, .reg = reg, .value = val, .pc = frame->elr - 4);
	if (reg == CPU_SYSREG_SCTLR && (val & SCTLR_EL1_M))
		window_mmu_on();
	/* VBAR_EL1 written with the MMU on: the last of the window */
	else if (reg == CPU_SYSREG_VBAR &&
		 (read_sysreg(sctlr_el1) & SCTLR_EL1_M))
		write_sysreg(read_sysreg(HFGWTR_EL2) & ~HFGWTR_VBAR_EL1,
			     HFGWTR_EL2);
}

/* op0 1 (SYS) or 3 (MSR/MRS) with CRn 11 or 15: IMPLEMENTATION DEFINED */
static bool is_impdef_sys(u64 iss)
{
	u64 crn = FIELD_GET(ESR_SYS_CRN, iss);

	return FIELD_GET(ESR_SYS_OP0, iss) & 1 && (crn == 11 || crn == 15);
}

/*
 * The canary for IMPLEMENTATION DEFINED registers (HCR_EL2.TIDCP, set on
 * every CPU by el2_regs.c): a driver or firmware poking the core's own
 * controls. What would the CPU have done without the trap? Executed the
 * access at EL1 (or EL0), with whatever effect the implementation gives it
 * there: possibly UNDEFINED, possibly trapped by the implementation's own
 * ACTLR_EL2/EL3 enables, possibly an effect that differs by Exception
 * level. So the hypervisor neither injects UNDEF (the access would have
 * run) nor performs it at EL2 (a different Exception level, other enables,
 * and an MSR whose encoding is only known at run time). It records the
 * access (ESR's EC and ISS, what an MSR writes, the PC), clears TIDCP on
 * this CPU and returns to the same instruction, which then runs at EL1 as
 * on a CPU without EL2. The canary is one per CPU: el2_regs.c sets TIDCP
 * again at the CPU's next entry (CPU_ON, resume).
 *
 * One caveat the Arm ARM leaves to the implementation: with TIDCP set, an
 * EL0 access may be UNDEFINED at EL1 instead of trapping to EL2. On such a
 * core a program using an EL0-accessible IMPDEF register (A64FX's sector
 * cache registers, say) would get SIGILL. The hypervisor cannot tell
 * which choice a core made: that is the one way this canary can change
 * what a program sees.
 */
static bool impdef_trapped(const struct trap_frame *frame, u32 ec)
{
	if (!(read_sysreg(hcr_el2) & HCR_TIDCP))
		return false;
	/*
	 * AArch32 EL0's CP15 accesses reach EL2 for nothing else: HSTR_EL2
	 * is 0 and no other control hyptrace sets traps MCR or MRC.
	 */
	return ec == ESR_EC_CP15_32 ||
	       (ec == ESR_EC_SYS64 && is_impdef_sys(frame->esr & ESR_ISS));
}

static void impdef_trap(struct trap_frame *frame, u32 ec)
{
	u64 iss = frame->esr & ESR_ISS;
	u32 rt = FIELD_GET(ESR_SYS_RT, iss);
	u64 val = 0;

	if (ec == ESR_EC_SYS64 && !(iss & ESR_SYS_DIR_READ) && rt < 31)
		val = frame->regs[rt];
	hyp_trace(impdef_sysreg, .ec = ec, .iss = iss, .value = val,
		  .pc = frame->elr);
	/* ELR stays on the instruction: it runs again, untrapped */
	write_sysreg(read_sysreg(hcr_el2) & ~HCR_TIDCP, hcr_el2);
}

/*
 * A trap of the window or the IMPDEF canary, traced as a trap with its
 * event between hyp_enter and hyp_exit; false if it is neither.
 */
bool cpu_state_trap(struct trap_frame *frame, u32 ec)
{
	enum cpu_sysreg reg = 0;

	if (ec == ESR_EC_SYS64)
		reg = window_trapped(frame->esr & ESR_ISS);
	if (!reg && !impdef_trapped(frame, ec))
		return false;
	hyp_trace(hyp_enter, .reason = HYP_REASON_TRAP, .func_id = ec);
	if (reg)
		window_trap(frame, reg);
	else
		impdef_trap(frame, ec);
	hyp_trace(hyp_exit, .reason = HYP_REASON_TRAP, .func_id = ec);
	return true;
}
