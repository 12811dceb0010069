// SPDX-License-Identifier: GPL-2.0
/*
 * An access to a traced page that mmio_trap.c does not perform (no
 * syndrome: a pair, a post-indexed form, an exclusive, an atomic, LS64,
 * SVE, MOPS; an unaligned access; AArch32): recorded as mmio_unhandled and
 * let through unemulated, so that tracing never changes what the program
 * does. The page goes back into stage 2, the CPU returns to the
 * instruction with a software step armed and routed to EL2 (el1_step.c),
 * the instruction runs once, the step exception brings the CPU back here,
 * and the page leaves stage 2 again.
 *
 * While the page is mapped, other CPUs' accesses to it are not traced: a
 * gap of one instruction's time, during which the stepping CPU cannot be
 * interrupted (SPSR's I, F and A are set for that one instruction and
 * restored afterwards: a load or store cannot observe them). Pages go back
 * out of stage 2 once no CPU is stepping, so that one CPU does not unmap a
 * page under another's step. The step exception is taken after the
 * instruction, or at the first instruction of EL1's vector if the
 * instruction took an exception there, in which case SPSR_EL1 gets the
 * masks back too. A pair of exclusives to a traced page does not
 * succeed, as with any exception between the two. Each CPU remembers the
 * (at most two) pages its step mapped back until no CPU steps; should it
 * step again meanwhile, onto two other pages, the oldest is forgotten and
 * stays mapped, untraced: a limit of this scheme under heavy concurrent
 * let-through traffic.
 */
#include "cpus.h"
#include "el1_step.h"
#include "hyp_mem.h"
#include "layout.h"
#include "mmio_trace.h"
#include "spinlock.h"
#include "stage2.h"
#include "sysregs.h"
#include "trace.h"
#include "trap.h"

/* An access crossing a page boundary maps back two pages */
#define STEP_PAGES	2

struct mmio_step {
	u64 page[STEP_PAGES];	/* mapped back for this CPU's step, or 0 */
	struct el1_step step;	/* what the step changed */
	bool active;
};

/* Per CPU, in private memory: the image has no room for it */
static struct mmio_step *steps;
static struct spinlock step_lock;
static unsigned int stepping;	/* CPUs between let-through and step */

void mmio_step_init(void)
{
	steps = hyp_mem_alloc_boot(HYP_MAX_CPUS * sizeof(*steps), 8,
				   "MMIO step state");
}

bool mmio_let_through(struct trap_frame *frame, u64 ipa)
{
	struct mmio_step *s = &steps[this_cpu()->idx];
	u64 page = ipa & ~(SZ_4K - 1UL);
	unsigned int i;

	hyp_trace(mmio_unhandled, .esr = (u32)frame->esr, .addr = ipa,
		  .pc = frame->elr, .va = frame->far);
	spin_lock(&step_lock);
	/* A step that faulted on a page another CPU's step end unmapped */
	if (!s->active) {
		stepping++;
		el1_step_save(frame, &s->step);
		s->active = true;
	}
	/* The first free slot; a third page (never for one access) reuses the last */
	for (i = 0; i < STEP_PAGES - 1 && s->page[i] && s->page[i] != page; i++)
		;
	s->page[i] = page;
	stage2_change(page, SZ_4K, STAGE2_MMIO);
	spin_unlock(&step_lock);
	el1_step_arm(frame, &s->step);
	return true;
}

bool mmio_step_done(struct trap_frame *frame)
{
	struct mmio_step *s = &steps[this_cpu()->idx];
	unsigned int i, p;

	if (!s->active)
		return false;
	el1_step_end(frame, &s->step);
	spin_lock(&step_lock);
	s->active = false;
	if (!--stepping) {
		for (i = 0; i < HYP_MAX_CPUS; i++) {
			for (p = 0; p < STEP_PAGES; p++) {
				if (steps[i].page[p])
					mmio_page_unmap(steps[i].page[p]);
				steps[i].page[p] = 0;
			}
		}
	}
	spin_unlock(&step_lock);
	return true;
}
