/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One instruction let run at EL1 under a software step routed to EL2
 * (el1_step.c): for the accesses and maintenance operations the
 * hypervisor records but does not perform itself (mmio_step.c,
 * maint_window.c).
 */
#ifndef HYP_EL1_STEP_H
#define HYP_EL1_STEP_H

#include "types.h"

struct trap_frame;

/* What a step changes, to be put back when it ends */
struct el1_step {
	u64 masks;		/* SPSR's I, F, A before the step */
	u64 mdcr, mdscr;	/* MDCR_EL2, MDSCR_EL1 before it */
};

/* Keep in @s what el1_step_arm() is about to change for @frame */
void el1_step_save(const struct trap_frame *frame, struct el1_step *s);
/*
 * The instruction @frame returns to runs once, with I, F and A masked,
 * then takes a software step exception to EL2
 */
void el1_step_arm(struct trap_frame *frame, const struct el1_step *s);
/* That step exception came: everything back as @s kept it */
void el1_step_end(struct trap_frame *frame, const struct el1_step *s);

#endif /* HYP_EL1_STEP_H */
