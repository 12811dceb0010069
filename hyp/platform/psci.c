// SPDX-License-Identifier: GPL-2.0
/*
 * PSCI calls from Linux, decoded once. Two implementations sit behind it:
 * the relay to firmware (psci_relay.c), which rewrites every entry into
 * Linux so that CPUs come through the hypervisor, and the hypervisor's own
 * PSCI for boards whose firmware has none (psci_local.c). This file checks
 * what both check, records the call (fw_psci) and writes the result; the
 * implementations only do what is theirs.
 */
#include "cpus.h"
#include "fw_trace.h"
#include "hyp_mem.h"
#include "print.h"
#include "psci.h"
#include "sysregs.h"
#include "trace_persist.h"
#include "trap.h"
#include "shared/smccc.h"

/*
 * SYSTEM_OFF and SYSTEM_RESET: report on our memory before it goes away, and
 * leave the trace in RAM for the next boot (last_boot.c) if RAM stays.
 */
static void report_shutdown(u32 fid)
{
	const char *what = fid == PSCI_0_2_FN_SYSTEM_OFF ? "SYSTEM_OFF" :
							   "SYSTEM_RESET";
	u64 bad;

	trace_persist_clean();
	if (hyp_mem_canary_intact(&bad))
		hyp_info("%s from CPU %u, memory canary intact\n", what,
			 this_cpu()->idx);
	else
		hyp_info("%s from CPU %u, memory canary CORRUPTED at 0x%lx\n",
			 what, this_cpu()->idx, bad);
}

/*
 * CPU_ON's target: DEN0022 says target_cpu holds the affinity fields only
 * (bits [63:40] and [31:24] zero), and it must be a CPU we know. NULL if
 * not: INVALID_PARAMETERS.
 */
static struct hyp_cpu *cpu_on_target(u64 target_cpu)
{
	int idx;

	if (target_cpu & ~MPIDR_HWID_MASK)
		return NULL;
	idx = hyp_cpu_index(target_cpu);
	return idx < 0 ? NULL : &hyp_cpus[idx];
}

/*
 * CPU_OFF, SYSTEM_OFF, SYSTEM_RESET: on success never back. A traced call
 * is recorded as it leaves, with ret 0; should the implementation return
 * (firmware refused, or there is none to power off), psci_call() records
 * it again with the error. Only CPU_OFF always leaves when there is no
 * firmware: the hypervisor's own PSCI parks the CPU.
 */
static s64 leave(const struct psci_ops *ops, u32 fid, const u64 *r,
		 bool traced)
{
	if (fid != PSCI_0_2_FN_CPU_OFF)
		report_shutdown(fid);
	if (traced && (ops->firmware || fid == PSCI_0_2_FN_CPU_OFF))
		fw_trace_psci(fid, r, PSCI_RET_SUCCESS, 0);
	return ops->leave(fid, r);
}

/* The functions dispatch() hands to an implementation */
static bool routed(u32 fid)
{
	switch (fid) {
	case PSCI_0_2_FN64_CPU_ON:
	case PSCI_0_2_FN64_CPU_SUSPEND:
	case PSCI_1_0_FN_PSCI_FEATURES:
	case PSCI_0_2_FN_PSCI_VERSION:
	case PSCI_0_2_FN_AFFINITY_INFO:
	case PSCI_0_2_FN64_AFFINITY_INFO:
	case PSCI_0_2_FN_MIGRATE_INFO_TYPE:
	case PSCI_0_2_FN_CPU_OFF:
	case PSCI_0_2_FN_SYSTEM_OFF:
	case PSCI_0_2_FN_SYSTEM_RESET:
		return true;
	}
	return false;
}

/*
 * PSCI_FEATURES of @feature: SMCCC_VERSION is smccc.c's (SMCCC 1.1); of
 * the rest, only what dispatch() routes can be there, and the
 * implementation says whether it is. Function IDs are 32 bits (SMCCC).
 */
static s64 features(const struct psci_ops *ops, u64 feature)
{
	if (feature == SMCCC_VERSION)
		return PSCI_RET_SUCCESS;
	if (feature >> 32 || !routed((u32)feature))
		return PSCI_RET_NOT_SUPPORTED;
	return ops->features((u32)feature);
}

static s64 dispatch(const struct psci_ops *ops, u32 fid, const u64 *r,
		    bool traced)
{
	struct hyp_cpu *target;
	s64 ret;

	switch (fid) {
	case PSCI_0_2_FN64_CPU_ON:
		target = cpu_on_target(r[1]);
		return target ? ops->cpu_on(target, r[2], r[3]) :
				PSCI_RET_INVALID_PARAMS;
	case PSCI_0_2_FN64_CPU_SUSPEND:
		return ops->cpu_suspend(r[1], r[2], r[3]);
	case PSCI_1_0_FN_PSCI_FEATURES:
		ret = features(ops, r[1]);
		fw_psci_features_seen(r[1], ret);
		return ret;
	case PSCI_0_2_FN_PSCI_VERSION:
	case PSCI_0_2_FN_AFFINITY_INFO:
	case PSCI_0_2_FN64_AFFINITY_INFO:
	case PSCI_0_2_FN_MIGRATE_INFO_TYPE:
		return ops->answer(fid, r);
	case PSCI_0_2_FN_CPU_OFF:
	case PSCI_0_2_FN_SYSTEM_OFF:
	case PSCI_0_2_FN_SYSTEM_RESET:
		return leave(ops, fid, r, traced);
	}
	/*
	 * 32-bit CPU_ON and CPU_SUSPEND, and whatever else neither
	 * implementation knows, would let a CPU enter Linux without us (or
	 * ask for what we cannot check): refused.
	 */
	return PSCI_RET_NOT_SUPPORTED;
}

bool psci_call(const struct psci_ops *ops, struct trap_frame *frame, u32 fid)
{
	u64 *r = frame->regs;
	bool traced;
	s64 ret;

	if (!is_psci_fid(fid))
		return false;
	/*
	 * The call may not return (CPU_OFF, a powerdown suspend, a reset):
	 * its waiting hyp_enter is written now (trace.h)
	 */
	if (HYP_TRACE_SITES)
		hyp_trace_call_flush(this_cpu());
	traced = fw_time_begin(hyp_trace_on(fw_psci));
	ret = dispatch(ops, fid, r, traced);
	if (traced)
		fw_trace_psci(fid, r, ret, fw_time_end());
	/* SMCCC: x0 the result, x1-x3 cleared (they were arguments) */
	r[0] = (u64)ret;
	r[1] = 0;
	r[2] = 0;
	r[3] = 0;
	return true;
}
