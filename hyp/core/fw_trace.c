// SPDX-License-Identifier: GPL-2.0
/*
 * Firmware calls decoded: what EL1 asked of PSCI, the Arm architecture
 * service and TRNG, what came back, and how long firmware kept the CPU
 * (fw_ns). One event per service, each on or off by itself
 * (shared/hyp_events.h); the handlers that know the calls
 * (psci_relay.c, psci_local.c, smccc.c, fw_forward.c) call in here once
 * the answer is known. fw_trace.h says what a call costs when off.
 *
 * SMCCC_ARCH_WORKAROUND_1/2/3 are not recorded one by one: WORKAROUND_3
 * runs on every entry from EL0 on the CPUs that need it, and an event
 * each would fill the buffer with them. Each CPU counts them instead, with
 * their firmware time (total and longest), and writes one fw_workaround
 * summary per workaround at the first call that comes FW_SUMMARY_NS or
 * more after the first one it counts: at most ten a second a CPU, and the
 * call that writes it is in it. What is counted after the last summary
 * shows in the next one (a trace stopped meanwhile lacks it; the summary's
 * span_ns says what each one covers).
 *
 * SCMI over SMC (fw_scmi.c) and OP-TEE (fw_optee.c) have files of their
 * own; the calls fw_forward.c passes to firmware come here first
 * (fw_call_begin()) to find their decoder.
 *
 * TRNG: only the status in x0. The entropy RND32/RND64 return in x1..x3
 * never reaches the trace; x1 recorded is the caller's (the bits asked).
 */
#include "cpus.h"
#include "fw_trace.h"
#include "psci.h"
#include "trap.h"
#include "shared/smccc.h"

#define FW_SUMMARY_NS		100000000ULL	/* 100 ms */

/* PSCI function number: the same in the SMC32 and SMC64 IDs */
#define PSCI_FN(fid)		((fid) & (PSCI_FN_RANGE - 1))
#define PSCI_FN_CPU_SUSPEND	1

/*
 * CPU_SUSPEND's power_state (DEN0022 §5.4.2). Original format: StateID
 * [15:0], StateType [16] (1: power-down), PowerLevel [25:24]. Extended
 * format, when PSCI_FEATURES(CPU_SUSPEND) sets bit 1: StateID [27:0],
 * StateType [30], and no power level (the StateID implies it).
 */
#define PSCI_PS_ID		GENMASK(15, 0)
#define PSCI_PS_TYPE		BIT(16)
#define PSCI_PS_LEVEL		GENMASK(25, 24)
#define PSCI_PS_EXT_ID		GENMASK(27, 0)
#define PSCI_PS_EXT_TYPE	BIT(30)
#define PSCI_FEATURES_EXT_STATE	BIT(1)

/* TRNG: the standard service's functions 0x50..0x5f (DEN0028 table 6-4) */
#define STD_TRNG_FIRST		0x50
#define STD_TRNG_LAST		0x5f

/*
 * Which power_state format firmware uses, as Linux learns it: from the
 * answer to its PSCI_FEATURES(CPU_SUSPEND) at boot, which every handler
 * sees go by, so that nothing is asked of firmware for the trace.
 */
static bool psci_ext_state;

void fw_psci_features_seen(u64 feature, s64 ret)
{
	if ((feature == PSCI_0_2_FN_CPU_SUSPEND ||
	     feature == PSCI_0_2_FN64_CPU_SUSPEND) && ret >= 0)
		WRITE_ONCE(psci_ext_state, ret & PSCI_FEATURES_EXT_STATE);
}

void fw_trace_psci(u32 fid, const u64 *r, s64 ret, u64 fw_ns)
{
	u64 ps = r[1];
	u32 id = 0;
	u16 type = FW_PSCI_STATE_NONE, level = 0;

	if (PSCI_FN(fid) == PSCI_FN_CPU_SUSPEND) {
		bool down;

		if (READ_ONCE(psci_ext_state)) {
			id = FIELD_GET(PSCI_PS_EXT_ID, ps);
			down = ps & PSCI_PS_EXT_TYPE;
		} else {
			id = FIELD_GET(PSCI_PS_ID, ps);
			down = ps & PSCI_PS_TYPE;
			level = FIELD_GET(PSCI_PS_LEVEL, ps);
		}
		type = down ? FW_PSCI_STATE_POWERDOWN : FW_PSCI_STATE_STANDBY;
	}
	hyp_trace(fw_psci, .fn = PSCI_FN(fid), .func_id = fid,
		  .x1 = r[1], .x2 = r[2], .x3 = r[3], .ret = ret,
		  .fw_ns = fw_ns, .state_id = id, .state_type = type,
		  .power_level = level);
}

/*
 * A power-down CPU_SUSPEND returns, when it succeeds, through
 * hyp_resume_entry rather than from the SMC: keep what the record needs,
 * for whichever way the CPU comes back.
 */
void fw_psci_suspend_leave(u64 power_state)
{
	struct fw_cpu *fw = &this_cpu()->fw;

	fw->suspend_state = power_state;
	fw->suspend_at_ns = fw_clock_now();
	fw->suspend_pending = true;
}

/* The SMC returned: psci_cpu_suspend() records it with the result */
void fw_psci_suspend_back(void)
{
	this_cpu()->fw.suspend_pending = false;
}

/* Woken from a power-down state (setup.c): the call succeeded */
void fw_psci_resumed(void)
{
	struct hyp_cpu *cpu = this_cpu();
	struct fw_cpu *fw = &cpu->fw;
	u64 r[4];

	if (!fw->suspend_pending)
		return;
	fw->suspend_pending = false;
	fw->timed = false;
	/* x2 and x3 as psci_relay.c keeps them for the way back */
	r[0] = PSCI_0_2_FN64_CPU_SUSPEND;
	r[1] = fw->suspend_state;
	r[2] = cpu->suspend_entry.pc;
	r[3] = cpu->suspend_entry.x0;
	fw_trace_psci(PSCI_0_2_FN64_CPU_SUSPEND, r, PSCI_RET_SUCCESS,
		      fw_clock_now() - fw->suspend_at_ns);
}

void fw_trace_arch(u32 fid, u64 x1, s64 ret, u64 fw_ns)
{
	hyp_trace(fw_arch, .func_id = fid, .x1 = x1, .ret = ret,
		  .fw_ns = fw_ns);
}

/* Count one call of workaround @which (1..3) that kept firmware @ns */
static void workaround_count(unsigned int which, u64 ns)
{
	struct fw_workaround_sum *s = &this_cpu()->fw.wa[which - 1];
	u64 now = fw_clock_now();

	if (!s->count) {
		s->since_ns = now;
		s->total_ns = 0;
		s->max_ns = 0;
	}
	s->count++;
	s->total_ns += ns;
	if (ns > s->max_ns)
		s->max_ns = ns > U32_MAX ? U32_MAX : ns;
	if (now - s->since_ns < FW_SUMMARY_NS && s->count != U32_MAX)
		return;
	hyp_trace(fw_workaround, .which = which, .count = s->count,
		  .total_ns = s->total_ns, .max_ns = s->max_ns,
		  .span_ns = now - s->since_ns);
	s->count = 0;
}

void fw_workaround_call(struct trap_frame *frame, u32 fid)
{
	unsigned int which = fid == SMCCC_ARCH_WORKAROUND_1 ? 1 :
			     fid == SMCCC_ARCH_WORKAROUND_2 ? 2 : 3;
	bool traced = fw_time_begin(hyp_trace_on(fw_workaround));

	/* The mitigation lives in firmware; EL1 asked for it there. */
	frame->regs[0] = firmware_call(fid, frame->regs[1], 0, 0);
	if (traced)
		workaround_count(which, fw_time_end());
}

static bool is_trng(u32 fid)
{
	u32 func = fid & SMCCC_FUNC_MASK;

	return SMCCC_OWNER(fid) == SMCCC_OWNER_STANDARD &&
	       func >= STD_TRNG_FIRST && func <= STD_TRNG_LAST;
}

/*
 * A call fw_forward.c passes to firmware: the decoder of its service, if
 * its event is on. Off, one load and branch per service that could match.
 */
bool fw_call_begin(const u64 *r, u32 fid, struct fw_call *call)
{
	if (is_trng(fid)) {
		call->kind = FW_CALL_TRNG;
		call->x1 = r[1];
		return fw_time_begin(hyp_trace_on(fw_trng));
	}
	call->kind = FW_CALL_OPTEE;
	if (fw_optee_begin(fid))
		return true;
	call->kind = FW_CALL_SCMI;
	return fw_scmi_begin(r, fid, call);
}

/* @r: x0.. as the call returned */
void fw_call_end(const u64 *r, u32 fid, const struct fw_call *call)
{
	switch (call->kind) {
	case FW_CALL_TRNG:
		hyp_trace(fw_trng, .func_id = fid, .x1 = call->x1,
			  .status = (s64)r[0], .fw_ns = fw_time_end());
		break;
	case FW_CALL_OPTEE:
		fw_optee_end(r);
		break;
	case FW_CALL_SCMI:
		fw_scmi_end(r, fid, call);
		break;
	}
}
