// SPDX-License-Identifier: GPL-2.0
/*
 * OP-TEE's yielding calls as spans (fw_optee): one record from the call
 * that starts a request (CALL_WITH_ARG, CALL_WITH_RPC_ARG,
 * CALL_WITH_REGD_ARG) through the RPC returns the secure world makes and
 * the kernel's CALL_RETURN_FROM_RPC that resume it, to the return that
 * ends it, with the number of RPCs (foreign interrupts apart: OP-TEE
 * gives the CPU back for a normal-world interrupt), the time spent in the
 * secure world (the SMCs' sum) and the wall time of the whole. IDs and
 * return codes: Linux drivers/tee/optee/optee_smc.h.
 *
 * Each CPU has one span (struct fw_optee_span in its fw_cpu). The kernel
 * may move the thread that waits for OP-TEE to another CPU between an RPC
 * and its return (optee_smc_do_call_with_arg() is not pinned), and a CPU
 * may go off with a span open: so a RETURN_FROM_RPC on a CPU with no span
 * opens one (FW_OPTEE_F_RESUMED, func_id RETURN_FROM_RPC), and a call that
 * starts a request on a CPU whose span is still open first records the
 * old one as it stands (FW_OPTEE_F_ABANDONED). A span never outlives the
 * next call on its CPU, so one left open cannot corrupt another.
 *
 * Off, nothing changes state: a span opened while on and ended while off
 * is recorded as abandoned, or resumed, at the next call traced. The span
 * logic (fw_optee_span_*) is proven on the host too (tests/fw).
 */
#include "cpus.h"
#include "fw_optee.h"
#include "fw_trace.h"
#include "trap.h"

#define OPTEE_RETURN_FROM_RPC		0x32000003
#define OPTEE_CALL_WITH_ARG		0x32000004
#define OPTEE_CALL_WITH_RPC_ARG		0x32000012
#define OPTEE_CALL_WITH_REGD_ARG	0x32000013

/*
 * OPTEE_SMC_RETURN_IS_RPC(): the prefix 0xffff in the upper half of w0,
 * and not UNKNOWN_FUNCTION. SMC32 calls return 32-bit results (SMCCC:
 * W0-W3), so a firmware's 64-bit NOT_SUPPORTED (-1) is UNKNOWN_FUNCTION,
 * not an RPC.
 */
#define OPTEE_RPC_PREFIX_MASK		0xffff0000U
#define OPTEE_RPC_PREFIX		0xffff0000U
#define OPTEE_RETURN_UNKNOWN_FUNCTION	0xffffffffU
#define OPTEE_RPC_FOREIGN_INTR		(OPTEE_RPC_PREFIX | 4)

static bool optee_is_call(u32 fid)
{
	return fid == OPTEE_CALL_WITH_ARG || fid == OPTEE_CALL_WITH_RPC_ARG ||
	       fid == OPTEE_CALL_WITH_REGD_ARG || fid == OPTEE_RETURN_FROM_RPC;
}

static void span_record(const struct fw_optee_span *s, u16 flags, u64 result,
			u64 now)
{
	hyp_trace(fw_optee, .flags = s->flags | flags, .func_id = s->func_id,
		  .result = result, .fw_ns = s->fw_ns,
		  .span_ns = now - s->start_ns, .rpcs = s->rpcs,
		  .intr_rpcs = s->intr_rpcs);
}

void fw_optee_span_begin(struct fw_optee_span *s, u32 fid, u64 now)
{
	if (fid == OPTEE_RETURN_FROM_RPC) {
		if (s->open)
			return;
		*s = (struct fw_optee_span) { .open = true, .func_id = fid,
					      .flags = FW_OPTEE_F_RESUMED,
					      .start_ns = now };
		return;
	}
	if (s->open)
		span_record(s, FW_OPTEE_F_ABANDONED, s->last_ret, now);
	*s = (struct fw_optee_span) { .open = true, .func_id = fid,
				      .start_ns = now };
}

void fw_optee_span_end(struct fw_optee_span *s, u64 ret, u64 fw_ns, u64 now)
{
	u32 w0 = (u32)ret;

	s->fw_ns += fw_ns;
	s->last_ret = ret;
	if ((w0 & OPTEE_RPC_PREFIX_MASK) == OPTEE_RPC_PREFIX &&
	    w0 != OPTEE_RETURN_UNKNOWN_FUNCTION) {
		if (w0 == OPTEE_RPC_FOREIGN_INTR)
			s->intr_rpcs++;
		else
			s->rpcs++;
		return;
	}
	span_record(s, 0, ret, now);
	s->open = false;
}

bool fw_optee_begin(u32 fid)
{
	if (!hyp_trace_on(fw_optee) || !optee_is_call(fid))
		return false;
	fw_optee_span_begin(&this_cpu()->fw.optee, fid, hyp_clock_ns());
	return fw_time_begin(true);
}

void fw_optee_end(const u64 *r)
{
	u64 fw_ns = fw_time_end();

	fw_optee_span_end(&this_cpu()->fw.optee, r[0], fw_ns, hyp_clock_ns());
}
