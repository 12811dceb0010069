// SPDX-License-Identifier: GPL-2.0
/*
 * PSCI relay. Linux believes it talks to firmware; we pass most calls on,
 * but every path by which a CPU (re)enters the kernel is rewritten so that
 * the CPU first comes through the hypervisor and is set up for EL2: CPU_ON
 * and CPU_SUSPEND get our own entry points and the caller's entry is kept
 * per CPU until the CPU arrives.
 */
#include "hyp.h"
#include "print.h"
#include "psci.h"
#include "sysregs.h"
#include "trap.h"
#include "../shared/smccc.h"

static bool is_psci_fid(u32 fid)
{
	return (fid - PSCI_0_2_FN_BASE < PSCI_FN_RANGE) ||
	       (fid - PSCI_0_2_FN64_BASE < PSCI_FN_RANGE);
}

/* Calls passed to firmware unchanged (PSCI_FEATURES answers for these) */
static bool is_forwarded(u32 fid)
{
	switch (fid) {
	case PSCI_0_2_FN_PSCI_VERSION:
	case PSCI_0_2_FN_CPU_OFF:
	case PSCI_0_2_FN_AFFINITY_INFO:
	case PSCI_0_2_FN64_AFFINITY_INFO:
	case PSCI_0_2_FN_MIGRATE_INFO_TYPE:
	case PSCI_0_2_FN_SYSTEM_OFF:
	case PSCI_0_2_FN_SYSTEM_RESET:
	case PSCI_1_0_FN_PSCI_FEATURES:
		return true;
	}
	return false;
}

static s64 psci_features(u32 feature)
{
	if (feature == SMCCC_VERSION)
		return PSCI_RET_SUCCESS;	/* we implement SMCCC 1.1 */
	if (feature == PSCI_0_2_FN64_CPU_ON ||
	    feature == PSCI_0_2_FN64_CPU_SUSPEND || is_forwarded(feature))
		return firmware_call(PSCI_1_0_FN_PSCI_FEATURES, feature, 0, 0);
	return PSCI_RET_NOT_SUPPORTED;
}

static s64 psci_cpu_on(u64 mpidr, u64 pc, u64 ctx)
{
	struct hyp_cpu *target;
	int idx = hyp_cpu_index(mpidr);
	u32 unlocked = 0;
	s64 ret;

	if (idx < 0)
		return PSCI_RET_INVALID_PARAMS;
	target = &hyp_cpus[idx];

	/*
	 * Whoever wins this lock owns the target's entry slot until the
	 * target has read it; a concurrent CPU_ON for the same CPU loses and
	 * is told the truth: the CPU is already on its way.
	 */
	if (!__atomic_compare_exchange_n(&target->on_lock, &unlocked, 1, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return PSCI_RET_ALREADY_ON;

	target->on_entry.pc = pc;
	target->on_entry.x0 = ctx;
	/* Publish the slot before the target can possibly run. */
	__atomic_thread_fence(__ATOMIC_RELEASE);

	ret = firmware_call(PSCI_0_2_FN64_CPU_ON, mpidr,
			    (u64)hyp_secondary_entry, (u64)idx);
	if (ret != PSCI_RET_SUCCESS)
		__atomic_store_n(&target->on_lock, 0, __ATOMIC_RELEASE);
	return ret;
}

static s64 psci_cpu_suspend(u64 power_state, u64 pc, u64 ctx)
{
	struct hyp_cpu *cpu = this_cpu();

	/* Only this CPU writes its suspend slot: no lock needed. */
	cpu->suspend_entry.pc = pc;
	cpu->suspend_entry.x0 = ctx;
	/*
	 * A retention state returns here; a power-down state wakes in
	 * hyp_resume_entry and goes back to Linux at pc from there.
	 */
	return firmware_call(PSCI_0_2_FN64_CPU_SUSPEND, power_state,
			     (u64)hyp_resume_entry, cpu->idx);
}

/* SYSTEM_OFF and SYSTEM_RESET: report on our memory before it goes away */
static void report_shutdown(u32 fid)
{
	const char *what = fid == PSCI_0_2_FN_SYSTEM_OFF ? "SYSTEM_OFF" :
							   "SYSTEM_RESET";
	u64 bad;

	if (canary_intact(&bad))
		hyp_info("%s from CPU %u, memory canary intact\n", what,
			 this_cpu()->idx);
	else
		hyp_info("%s from CPU %u, memory canary CORRUPTED at 0x%lx\n",
			 what, this_cpu()->idx, bad);
}

bool psci_relay_call(struct trap_frame *frame, u32 fid)
{
	u64 *r = frame->regs;
	s64 ret;

	if (!is_psci_fid(fid))
		return false;

	switch (fid) {
	case PSCI_0_2_FN64_CPU_ON:
		ret = psci_cpu_on(r[1], r[2], r[3]);
		break;
	case PSCI_0_2_FN64_CPU_SUSPEND:
		ret = psci_cpu_suspend(r[1], r[2], r[3]);
		break;
	case PSCI_1_0_FN_PSCI_FEATURES:
		ret = r[1] >> 32 ? PSCI_RET_NOT_SUPPORTED : psci_features((u32)r[1]);
		break;
	case PSCI_0_2_FN_SYSTEM_OFF:
	case PSCI_0_2_FN_SYSTEM_RESET:
		report_shutdown(fid);
		ret = firmware_call(fid, 0, 0, 0);
		break;
	default:
		/*
		 * 32-bit CPU_ON/CPU_SUSPEND and anything we do not relay
		 * would let a CPU enter Linux without us: refuse them.
		 */
		if (!is_forwarded(fid)) {
			ret = PSCI_RET_NOT_SUPPORTED;
			break;
		}
		ret = firmware_call(fid, r[1], r[2], r[3]);
		break;
	}
	r[0] = (u64)ret;
	r[1] = 0;
	r[2] = 0;
	r[3] = 0;
	return true;
}
