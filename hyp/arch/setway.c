// SPDX-License-Identifier: GPL-2.0
/*
 * Data-cache maintenance by set/way from EL1, trapped (HCR_EL2.TSW) and
 * performed here as clean and invalidate.
 *
 * An invalidate by set/way throws a line away wherever it is dirty, whoever
 * dirtied it: a DC ISW from EL1 could discard lines the hypervisor wrote
 * (its trace pages, its page tables) and not yet cleaned. HCR_EL2.SWIO
 * asks the core to turn EL1's DC ISW into DC CISW by itself, but it may be
 * RES1 or RES0 depending on the implementation, so, as KVM does for its
 * guests (access_dcsw() in arch/arm64/kvm/sys_regs.c), every set/way
 * operation EL1 makes is trapped and done here as a clean and invalidate of
 * the same set and way: nothing dirty is lost, and the line is gone from
 * the cache as EL1 asked. Linux does not use set/way maintenance (set/way
 * operations act on one PE's caches only and cannot make memory coherent
 * while other agents run, as the Arm ARM warns); boot code and firmware
 * running at EL1 may.
 *
 * So every one is also a canary: a setway_op event (the operation, the
 * set/way operand and the PC) between the trap's hyp_enter and hyp_exit
 * says who did it, at no cost until one comes.
 */
#include "sysregs.h"
#include "trace.h"
#include "trap.h"

/*
 * DC <op>SW is SYS #0, C7, <CRm>, #<op2>, Xt: CRm 6 invalidate, 10 clean,
 * 14 clean and invalidate; op2 2 data, 4 tags (FEAT_MTE2), 6 both.
 */
#define DC_SW_CRN		7
#define DC_SW_OP2_DATA		2

static bool is_dc_setway(u64 iss)
{
	u64 crm = FIELD_GET(ESR_SYS_CRM, iss);
	u64 op2 = FIELD_GET(ESR_SYS_OP2, iss);

	return FIELD_GET(ESR_SYS_OP0, iss) == 1 &&
	       FIELD_GET(ESR_SYS_OP1, iss) == 0 &&
	       FIELD_GET(ESR_SYS_CRN, iss) == DC_SW_CRN &&
	       !(iss & ESR_SYS_DIR_READ) &&
	       (crm == 6 || crm == 10 || crm == 14) &&
	       (op2 == 2 || op2 == 4 || op2 == 6);
}

/*
 * Clean and invalidate what EL1 named. The tag variants (op2 4, 6) exist
 * only with FEAT_MTE2, else they are UNDEFINED at EL1 and never trap: for
 * them DC CIGDSW cleans the tags with the data. SYS encodings, so that no
 * assembler needs to know MTE.
 */
static void dc_clean_inval_setway(u64 setway, u64 op2)
{
	if (op2 == DC_SW_OP2_DATA)
		asm volatile("sys #0, c7, c14, #2, %0" : : "r" (setway) : "memory");
	else
		asm volatile("sys #0, c7, c14, #6, %0" : : "r" (setway) : "memory");
}

bool setway_trap(struct trap_frame *frame)
{
	u64 iss = frame->esr & ESR_ISS;
	u64 rt = FIELD_GET(ESR_SYS_RT, iss);
	u64 setway, op2;

	if (!is_dc_setway(iss))
		return false;
	/* Rt 31 is XZR here: level 1, set 0, way 0 */
	setway = rt == 31 ? 0 : frame->regs[rt];
	op2 = FIELD_GET(ESR_SYS_OP2, iss);
	hyp_trace(hyp_enter, .reason = HYP_REASON_TRAP, .func_id = ESR_EC_SYS64);
	hyp_trace(setway_op, .op = FIELD_GET(ESR_SYS_CRM, iss) << 4 | op2,
		  .setway = setway, .pc = frame->elr);
	dc_clean_inval_setway(setway, op2);
	frame->elr += 4;
	hyp_trace(hyp_exit, .reason = HYP_REASON_TRAP, .func_id = ESR_EC_SYS64);
	return true;
}
