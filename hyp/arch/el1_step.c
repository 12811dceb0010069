// SPDX-License-Identifier: GPL-2.0
/*
 * Let one instruction run at EL1 and come back to EL2 right after it: a
 * software step armed and routed to EL2 (MDSCR_EL1.SS, SPSR_EL2.SS,
 * MDCR_EL2.TDE: Arm ARM, "Software Step exceptions"), with SPSR's I, F
 * and A set for that one instruction so that nothing interrupts it (a
 * load, a store or a cache maintenance operation cannot observe them),
 * and everything put back at the step exception. The exception is taken
 * after the instruction, or at the first instruction of EL1's vector if
 * the instruction took an exception there, in which case SPSR_EL1 holds
 * the masks the step set and gets EL1's back.
 */
#include "el1_step.h"
#include "sysregs.h"
#include "trap.h"

#define STEP_MASKS	(PSR_I | PSR_F | PSR_A)

void el1_step_save(const struct trap_frame *frame, struct el1_step *s)
{
	s->masks = frame->spsr & STEP_MASKS;
	s->mdcr = read_sysreg(mdcr_el2);
	s->mdscr = read_sysreg(mdscr_el1);
}

void el1_step_arm(struct trap_frame *frame, const struct el1_step *s)
{
	write_sysreg(s->mdscr | MDSCR_SS, mdscr_el1);
	write_sysreg(s->mdcr | MDCR_TDE, mdcr_el2);
	isb();
	/* Active-not-pending: one instruction, then the step exception */
	frame->spsr |= PSR_SS | STEP_MASKS;
}

void el1_step_end(struct trap_frame *frame, const struct el1_step *s)
{
	write_sysreg(s->mdscr, mdscr_el1);
	write_sysreg(s->mdcr, mdcr_el2);
	isb();
	/*
	 * Stepped into EL1's vector: the exception saved our masks there.
	 * SS stays clear: had EL1 itself been stepping, its step is now due.
	 */
	if ((frame->elr & ~VBAR_BASE) < 0x800 &&
	    (frame->elr & VBAR_BASE) == (read_sysreg(vbar_el1) & VBAR_BASE))
		write_sysreg((read_sysreg(spsr_el1) & ~STEP_MASKS) | s->masks,
			     spsr_el1);
	frame->spsr = (frame->spsr & ~(STEP_MASKS | PSR_SS)) | s->masks;
}
