// SPDX-License-Identifier: GPL-2.0
/*
 * The maintenance window: for a time the host asks for
 * (HYPTRACE_CALL_MAINT_WINDOW, on one CPU), EL1's and EL0's TLBI and
 * DC/IC by VA trap here and are recorded, each run of one operation on
 * this CPU as one maint_run event {op, count, first and last operand, the
 * time from the first to the last}. A run ends when another operation
 * comes, at MAINT_RUN_MAX operations, or when the window closes; its event
 * is written then. The traps are the window's own: no hyp_enter/hyp_exit
 * pair per operation, which would triple a storm's trace and undo the
 * coalescing.
 *
 * Which trap, on the CPU's own registers: FEAT_FGT's HFGITR_EL2 bits for
 * each TLBI form EL1 has and for DC IVAC, CVAC, CVAU, CVAP, CVADP, CIVAC,
 * IC IVAU, IALLU, IALLUIS (the bits of forms the CPU lacks are RES0: left
 * 0); without FGT HCR_EL2.TTLB, TPCP and TPU, which trap the same set.
 * FGT preferred, as in cpu_state.c. The writes take effect at the ERET
 * back to EL1, a context synchronization event.
 *
 * The end. Every trap and every query checks the counter against the
 * deadline; at or after it the run in progress is written and the traps
 * come off, and a trapped operation is returned to untouched, so that it
 * runs again, untrapped. The traps must not outlive the window: as with
 * KVM's kvm_toggle_cache() and TVM, a trapped TLBI costs a round trip to
 * EL2 on every context switch and munmap. A CPU that powers down and
 * comes back (CPU_ON, resume) gets its traps back from
 * maint_window_reenter() if its window is still open.
 *
 * How an operation is performed. A TLBI of the EL1&0 regime is executed
 * here, at EL2, with the same encoding and operand. The Arm ARM (the TLBI
 * <op>E1* descriptions, "TLB maintenance instructions") defines its effect
 * by the instruction, not by the Exception level running it: with EL2
 * enabled and HCR_EL2.{E2H, TGE} not {1, 1} (hyptrace keeps both 0), a
 * TLBI ...E1 invalidates entries of the EL1&0 regime tagged with the
 * current VMID (VTTBR_EL2.VMID, which EL1 and EL2 share) and, for the
 * ASID forms, the ASID in Xt[63:48]. Its shareability is the one its name
 * says: IS and OS forms are broadcast from EL2 as from EL1; a
 * non-shareable form stays local at both, since HCR_EL2.FB, which would
 * broadcast EL1's, is 0 (el2_regs.c); HCRX_EL2.FnXS, which would make
 * EL1's XS forms nXS, is 0 too. KVM performs a nested guest's EL1 TLBIs
 * at EL2 the same way (__kvm_tlbi_s1e2 and the nested TLBI handlers). EL1
 * made its DSB before the TLBI and makes the one that completes it after
 * the ERET, on this PE, as for a TLBI it ran itself.
 *
 * DC and IC by VA cannot be performed here: their address is translated
 * by the regime of the Exception level that executes them, and at EL2
 * that is EL2's own stage 1, which maps only the hypervisor's memory
 * (mmu.c), not EL1's virtual address. (DC IVAC would also lose its
 * upgrade to a clean and invalidate that HCR_EL2.VM gives it at EL1.) So
 * such an operation is recorded and let through once: the window's traps
 * off, a software step armed and routed to EL2 with interrupts masked for
 * that one instruction (el1_step.c, as for mmio_step.c's accesses), and
 * back on at the step. It then runs at EL1, exactly as asked, and a fault it
 * takes is EL1's own. So are the nXS TLBI forms (see tlbi_perform()).
 */
#include "cpus.h"
#include "el1_step.h"
#include "sysregs.h"
#include "trace.h"
#include "trap.h"
#include "shared/hyptrace_abi.h"

#define NSEC_PER_SEC		1000000000ULL
/* A run's event is written at this many operations */
#define MAINT_RUN_MAX		65536

#define HCR_MAINT		(HCR_TTLB | HCR_TPCP | HCR_TPU)
/* Every CPU with FGT has these */
#define HFGITR_MAINT		(HFGITR_TLBI_E1 | HFGITR_TLBI_E1IS |	\
				 HFGITR_DCCVAC | HFGITR_DCCIVAC |	\
				 HFGITR_DCCVAU | HFGITR_DCIVAC |	\
				 HFGITR_ICIVAU | HFGITR_ICIALLU |	\
				 HFGITR_ICIALLUIS)
#define TLB_OS			1	/* ID_AA64ISAR0_EL1.TLB: OS forms */
#define TLB_RANGE		2	/* ... and the range forms */

/* HFGITR_EL2's bits for what this CPU has */
static u64 fgt_bits(void)
{
	u64 tlb = FIELD_GET(ID_AA64ISAR0_TLB, read_sysreg(id_aa64isar0_el1));
	u64 dpb = FIELD_GET(ID_AA64ISAR1_DPB, read_sysreg(id_aa64isar1_el1));
	u64 bits = HFGITR_MAINT;

	if (tlb >= TLB_OS)
		bits |= HFGITR_TLBI_E1OS;
	if (tlb >= TLB_RANGE)
		bits |= HFGITR_TLBI_RE1 | HFGITR_TLBI_RE1IS | HFGITR_TLBI_RE1OS;
	if (dpb >= 1)
		bits |= HFGITR_DCCVAP;
	if (dpb >= 2)
		bits |= HFGITR_DCCVADP;
	return bits;
}

static void traps_set(bool on)
{
	if (cpu_has_fgt()) {
		u64 itr = read_sysreg(HFGITR_EL2);

		write_sysreg(on ? itr | fgt_bits() : itr & ~fgt_bits(),
			     HFGITR_EL2);
	} else {
		u64 hcr = read_sysreg(hcr_el2);

		write_sysreg(on ? hcr | HCR_MAINT : hcr & ~HCR_MAINT, hcr_el2);
	}
}

static u64 ns_to_ticks(u64 ns)
{
	u64 freq = read_sysreg(cntfrq_el0);

	/* In two parts: 60 s times a GHz counter is above 2^64 */
	return ns / NSEC_PER_SEC * freq + ns % NSEC_PER_SEC * freq / NSEC_PER_SEC;
}

static u64 ticks_to_ns(u64 ticks)
{
	u64 freq = read_sysreg(cntfrq_el0);

	return ticks / freq * NSEC_PER_SEC + ticks % freq * NSEC_PER_SEC / freq;
}

static void run_flush(struct maint_cpu *m)
{
	if (!m->count)
		return;
	hyp_trace(maint_run, .op = m->op, .count = m->count,
		  .first = m->first, .last = m->last,
		  .ns = m->last_ns - m->first_ns);
	m->count = 0;
}

static void run_add(struct maint_cpu *m, u16 op, u64 operand)
{
	u64 now = hyp_clock_ns();

	if (m->count && m->op != op)
		run_flush(m);
	if (!m->count) {
		m->op = op;
		m->first = operand;
		m->first_ns = now;
	}
	m->last = operand;
	m->last_ns = now;
	if (++m->count == MAINT_RUN_MAX)
		run_flush(m);
}

static void window_close(struct maint_cpu *m)
{
	run_flush(m);
	m->deadline = 0;
	traps_set(false);
}

/* The window is open and its deadline has come: close it */
static bool window_ended(struct maint_cpu *m)
{
	if (read_cntvct() < m->deadline)
		return false;
	window_close(m);
	return true;
}

s64 maint_window_call(u64 op, u64 ns, u64 *left)
{
	struct maint_cpu *m = &this_cpu()->maint;
	u64 now;

	if (op > HYPTRACE_MAINT_QUERY ||
	    (op == HYPTRACE_MAINT_ARM && ns > HYPTRACE_MAINT_MAX_NS))
		return HYPTRACE_RET_INVALID;
	if (op == HYPTRACE_MAINT_ARM && !ns) {
		if (m->deadline)
			window_close(m);
	} else if (op == HYPTRACE_MAINT_ARM) {
		if (!m->deadline)
			traps_set(true);
		m->deadline = read_cntvct() + ns_to_ticks(ns);
	} else if (m->deadline) {
		window_ended(m);
	}
	now = read_cntvct();
	*left = m->deadline && now < m->deadline ?
		ticks_to_ns(m->deadline - now) : 0;
	return HYPTRACE_RET_SUCCESS;
}

void maint_window_reenter(void)
{
	struct maint_cpu *m = &this_cpu()->maint;

	m->stepping = false;
	if (m->deadline && !window_ended(m))
		traps_set(true);
}

/* One TLBI form: its operand, or XZR for VMALLE1* (op2 0), which has none */
#define TLBI_CASE(crn, crm, op2)					\
	case MAINT_OP(0, crn, crm, op2):				\
		if (op2)						\
			asm volatile("sys #0, c" #crn ", c" #crm ", #" #op2 ", %0" \
				     : : "r" (xt) : "memory");		\
		else							\
			asm volatile("sys #0, c" #crn ", c" #crm ", #" #op2 ", xzr" \
				     : : : "memory");			\
		break;
/* The EL1&0 forms of one CRn: OS, range IS, IS, range OS, range, local */
#define TLBI_E1_CASES(crn)						\
	TLBI_CASE(crn, 1, 0) TLBI_CASE(crn, 1, 1) TLBI_CASE(crn, 1, 2)	\
	TLBI_CASE(crn, 1, 3) TLBI_CASE(crn, 1, 5) TLBI_CASE(crn, 1, 7)	\
	TLBI_CASE(crn, 2, 1) TLBI_CASE(crn, 2, 3) TLBI_CASE(crn, 2, 5)	\
	TLBI_CASE(crn, 2, 7)						\
	TLBI_CASE(crn, 3, 0) TLBI_CASE(crn, 3, 1) TLBI_CASE(crn, 3, 2)	\
	TLBI_CASE(crn, 3, 3) TLBI_CASE(crn, 3, 5) TLBI_CASE(crn, 3, 7)	\
	TLBI_CASE(crn, 5, 1) TLBI_CASE(crn, 5, 3) TLBI_CASE(crn, 5, 5)	\
	TLBI_CASE(crn, 5, 7)						\
	TLBI_CASE(crn, 6, 1) TLBI_CASE(crn, 6, 3) TLBI_CASE(crn, 6, 5)	\
	TLBI_CASE(crn, 6, 7)						\
	TLBI_CASE(crn, 7, 0) TLBI_CASE(crn, 7, 1) TLBI_CASE(crn, 7, 2)	\
	TLBI_CASE(crn, 7, 3) TLBI_CASE(crn, 7, 5) TLBI_CASE(crn, 7, 7)

/*
 * Execute TLBI @op with operand @xt here; false if it is not a TLBI E1.
 * The nXS forms (CRn 9, FEAT_XS), which Linux does not use, are let
 * through instead: room in the image.
 */
static bool tlbi_perform(u16 op, u64 xt)
{
	switch (op) {
	default:
		return false;
	TLBI_E1_CASES(8)
	}
	return true;
}

/* Let the trapped instruction run once at EL1, the window's traps off */
static void step_through(struct trap_frame *frame, struct maint_cpu *m)
{
	traps_set(false);
	el1_step_save(frame, &m->step);
	m->stepping = true;
	el1_step_arm(frame, &m->step);
}

bool maint_step_done(struct trap_frame *frame)
{
	struct maint_cpu *m = &this_cpu()->maint;

	if (!m->stepping)
		return false;
	m->stepping = false;
	el1_step_end(frame, &m->step);
	if (m->deadline && !window_ended(m))
		traps_set(true);
	return true;
}

/*
 * The MAINT_OPS encoding of SYS instruction @iss if the window trapped it,
 * else 0. While it is open, nothing else in CRn 7 (cache maintenance, AT),
 * 8 or 9 (TLBI) traps to EL2 (set/way went to setway.c; DC ZVA, AT and
 * EL2's own forms are not trapped): an encoding MAINT_OPS lacks (a newer
 * feature's form the same trap bits cover) is recorded by its number and
 * let through like the others.
 */
static u16 maint_op(u64 iss)
{
	u64 crn = FIELD_GET(ESR_SYS_CRN, iss);

	if (FIELD_GET(ESR_SYS_OP0, iss) != 1 || iss & ESR_SYS_DIR_READ ||
	    crn < 7 || crn > 9)
		return 0;
	return MAINT_OP(FIELD_GET(ESR_SYS_OP1, iss), crn,
			FIELD_GET(ESR_SYS_CRM, iss), FIELD_GET(ESR_SYS_OP2, iss));
}

bool maint_trap(struct trap_frame *frame)
{
	struct maint_cpu *m = &this_cpu()->maint;
	u64 iss = frame->esr & ESR_ISS;
	u32 rt = FIELD_GET(ESR_SYS_RT, iss);
	u16 op;
	u64 xt;

	if (!m->deadline)
		return false;
	op = maint_op(iss);
	if (!op)
		return false;
	/* Over: back to the instruction, which now runs untrapped */
	if (window_ended(m))
		return true;
	/* Register 31 of SYS is the zero register */
	xt = rt < 31 ? frame->regs[rt] : 0;
	run_add(m, op, xt);
	if (tlbi_perform(op, xt))
		frame->elr += 4;
	else
		step_through(frame, m);
	return true;
}
