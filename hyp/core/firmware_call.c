// SPDX-License-Identifier: GPL-2.0
/*
 * One SMC to firmware from the hypervisor, traced as an exit and an entry
 * (reason firmware) and timed for a decoded call's fw_ns. Out of line,
 * once in the image: inline in trap.h, each of the ten callers carried
 * its two trace sites and the clock (0.3 KiB), for a call that then spends
 * thousands of cycles in firmware.
 */
#include "fw_trace.h"
#include "trace.h"
#include "trap.h"

s64 firmware_call(u64 fid, u64 a1, u64 a2, u64 a3)
{
	struct smccc_res res;
	u64 start;

	hyp_trace(hyp_exit, .reason = HYP_REASON_FIRMWARE, .func_id = fid);
	start = fw_call_start();
	firmware_smc(fid, a1, a2, a3, &res);
	fw_call_done(start);
	hyp_trace(hyp_enter, .reason = HYP_REASON_FIRMWARE, .func_id = fid);
	return (s64)res.a0;
}

void firmware_call_regs(struct trap_frame *frame)
{
	u64 fid = frame->regs[0];
	u64 start;

	hyp_trace(hyp_exit, .reason = HYP_REASON_FIRMWARE, .func_id = fid);
	start = fw_call_start();
	firmware_smc_regs(frame->regs);
	fw_call_done(start);
	hyp_trace(hyp_enter, .reason = HYP_REASON_FIRMWARE, .func_id = fid);
}
