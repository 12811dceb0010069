// SPDX-License-Identifier: GPL-2.0
/*
 * Exception dispatch. EL1 reaches EL2 only through HVC and trapped SMC;
 * anything else is a bug in our EL2 set-up or in the hypervisor itself, and
 * ends in a register dump.
 */
#include "hyp.h"
#include "../shared/hyptrace_abi.h"
#include "print.h"
#include "sysregs.h"
#include "trace.h"
#include "trap.h"

static const char *const vector_names[] = {
	[VEC_EL2_SP0_SYNC] = "synchronous exception at EL2 (SP0)",
	[VEC_EL2_SYNC] = "synchronous exception at EL2",
	[VEC_EL2_IRQ] = "IRQ at EL2",
	[VEC_EL2_FIQ] = "FIQ at EL2",
	[VEC_EL2_SERROR] = "SError at EL2",
	[VEC_EL1_SYNC] = "unexpected trap from EL1",
	[VEC_EL1_IRQ] = "IRQ routed to EL2",
	[VEC_EL1_FIQ] = "FIQ routed to EL2",
	[VEC_EL1_SERROR] = "SError routed to EL2",
	[VEC_EL1_32_SYNC] = "trap from AArch32 EL1",
};

/* An SMCCC call from EL1, traced from entry to the return to EL1 */
static inline __always_inline void
trace_call(struct trap_frame *frame, enum smccc_conduit conduit,
	   enum hyp_reason reason)
{
	u32 fid = (u32)frame->regs[0];

	hyp_trace(hyp_enter, .reason = reason, .func_id = fid);
	smccc_handle_call(frame, conduit);
	hyp_trace(hyp_exit, .reason = reason, .func_id = fid,
		  .ret = (s64)frame->regs[0]);
}

/*
 * Out of line, one per conduit: an untraced call then saves no registers
 * for the events, and a traced one keeps neither conduit nor reason in a
 * register across the handler.
 *
 * The trace reader's own page swaps are not traced: each would leave two
 * events for the next swap to collect, and a reader that waits for pages
 * would read little but itself (ftrace keeps its ring-buffer reader out of
 * its own trace for the same reason).
 */
static noinline void trace_hvc(struct trap_frame *frame)
{
	if ((u32)frame->regs[0] == HYPTRACE_CALL_TRACE_SWAP_READER) {
		smccc_handle_call(frame, CONDUIT_HVC);
		return;
	}
	trace_call(frame, CONDUIT_HVC, HYP_REASON_HVC);
}

static noinline void trace_smc(struct trap_frame *frame)
{
	trace_call(frame, CONDUIT_SMC, HYP_REASON_SMC);
}

/* One load tests both events before a call goes its untraced way. */
static bool trace_calls(void)
{
	return HYP_TRACE_SITES && READ_ONCE(hyp_call_trace_on);
}

void handle_trap(struct trap_frame *frame, enum trap_vector vec)
{
	const char *what;

	if (vec == VEC_EL1_SYNC) {
		switch (FIELD_GET(ESR_EC, frame->esr)) {
		case ESR_EC_HVC64:
			/* ELR already points past the HVC */
			if (trace_calls())
				trace_hvc(frame);
			else
				smccc_handle_call(frame, CONDUIT_HVC);
			return;
		case ESR_EC_SMC64:
			/* ELR points at the SMC itself: step over it here only */
			if (trace_calls())
				trace_smc(frame);
			else
				smccc_handle_call(frame, CONDUIT_SMC);
			frame->elr += 4;
			return;
		}
	}
	/* Left in the buffer for whoever reads the carve-out afterwards */
	if (vec == VEC_EL1_SYNC || vec == VEC_EL1_32_SYNC)
		hyp_trace(hyp_enter, .reason = HYP_REASON_TRAP,
			  .func_id = (u32)FIELD_GET(ESR_EC, frame->esr));
	what = vec < ARRAY_SIZE(vector_names) ? vector_names[vec] : NULL;
	hyp_panic_frame(frame, what ? what : "unexpected exception");
}
