// SPDX-License-Identifier: GPL-2.0
/*
 * PSCI relay. Linux believes it talks to firmware; we pass most calls on,
 * but every path by which a CPU (re)enters the kernel is rewritten so that
 * the CPU first comes through the hypervisor and is set up for EL2: CPU_ON
 * and CPU_SUSPEND get our own entry points and the caller's entry is kept
 * per CPU until the CPU arrives.
 */
#include "cpus.h"
#include "panic.h"
#include "print.h"
#include "psci.h"
#include "sysregs.h"
#include "trap.h"
#include "shared/smccc.h"

/* Firmware's answer, for everything psci.c routes: it is all relayed */
static s64 psci_features(u32 feature)
{
	return firmware_call(PSCI_1_0_FN_PSCI_FEATURES, feature, 0, 0);
}

/*
 * A CPU_ON's progress for one target CPU, in hyp_cpu.on_state: the low bits
 * say who owns the entry slot, the rest count claims, so that a compare
 * against a state read earlier fails once anybody has moved it on.
 */
#define ON_FREE			0U	/* no start in flight */
#define ON_CLAIMED		1U	/* a caller fills the slot, asks firmware */
#define ON_STARTED		2U	/* firmware accepted; target not yet here */
#define ON_STATE_MASK		3U
#define ON_CLAIM_STEP		4U

/*
 * How long a start firmware accepted may take to arrive before a CPU_ON
 * that finds it unfinished asks whether it was lost. PSCI firmware says
 * ON_PENDING for such a CPU at once, but QEMU's says OFF until the target's
 * thread has begun; Linux itself gives a CPU 5 s before it calls it lost.
 */
#define ON_GRACE_MS		1000UL
#define MS_PER_S		1000UL

static u32 on_state_of(u32 state)
{
	return state & ON_STATE_MASK;
}

static u32 on_next(u32 state, u32 next)
{
	return (state & ~ON_STATE_MASK) | next;
}

/*
 * The start @target is waiting for was lost: firmware accepted it long
 * enough ago and now says the CPU is off. Then it cannot arrive any more
 * (only this relay starts CPUs: EL1's SMCs trap to us), and its slot may be
 * taken over. If firmware says ON or ON_PENDING, or cannot say, the CPU is
 * still on its way.
 */
static bool start_lost(const struct hyp_cpu *target)
{
	u64 freq = read_sysreg(cntfrq_el0);
	u64 waited = read_sysreg(cntpct_el0) - target->on_started_at;

	if (waited < freq * ON_GRACE_MS / MS_PER_S)
		return false;
	if (firmware_call(PSCI_0_2_FN64_AFFINITY_INFO, target->mpidr, 0, 0) !=
	    PSCI_0_2_AFFINITY_LEVEL_OFF)
		return false;
	hyp_info("CPU %u: the CPU_ON accepted %lu ms ago never arrived and firmware says the CPU is off: starting it again\n",
		 target->idx, waited / freq * MS_PER_S +
				waited % freq * MS_PER_S / freq);
	return true;
}

/*
 * Firmware gets the MPIDR we matched (psci.c), never the caller's bits, so
 * it starts the CPU whose slot we fill.
 */
static s64 psci_cpu_on(struct hyp_cpu *target, u64 pc, u64 ctx)
{
	u32 state, claimed;
	s64 ret;

	state = __atomic_load_n(&target->on_state, __ATOMIC_ACQUIRE);
	switch (on_state_of(state)) {
	case ON_FREE:
		break;
	case ON_STARTED:
		if (start_lost(target))
			break;
		return PSCI_RET_ON_PENDING;
	default:
		/* Another caller is starting it right now. */
		return PSCI_RET_ON_PENDING;
	}
	/*
	 * Whoever moves the state on from what we read owns the slot. If that
	 * is not us, another caller's start is in flight, or one just arrived.
	 */
	claimed = on_next(state + ON_CLAIM_STEP, ON_CLAIMED);
	if (!__atomic_compare_exchange_n(&target->on_state, &state, claimed,
					 false, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED))
		return PSCI_RET_ON_PENDING;

	target->on_entry.pc = pc;
	target->on_entry.x0 = ctx;
	ret = firmware_call(PSCI_0_2_FN64_CPU_ON, target->mpidr,
			    hyp_entries.secondary, target->idx);
	target->on_started_at = read_sysreg(cntpct_el0);
	/*
	 * Publish the slot and the time. A target that arrives sooner waits
	 * for this (psci_cpu_on_arrived()): nobody else moves a CLAIMED state.
	 */
	__atomic_store_n(&target->on_state,
			 on_next(claimed, ret == PSCI_RET_SUCCESS ? ON_STARTED :
								    ON_FREE),
			 __ATOMIC_RELEASE);
	return ret;
}

/*
 * Test only (hyptrace.test_lose_cpu_on=N or hyptrace.test_stall_cpu_on=N,
 * dt.c): the CPU whose first CPU_ON start is lost, or NO_LOST_START, and
 * how.
 */
#define NO_LOST_START	(~0U)
static unsigned int lose_start_of = NO_LOST_START;
static bool lose_by_stalling;

void psci_lose_first_start(unsigned int idx, bool stall)
{
	lose_start_of = idx;
	lose_by_stalling = stall;
}

/* Power this CPU off from EL2: it must not enter Linux. */
static void __noreturn power_off_self(const struct hyp_cpu *cpu,
				      const char *why)
{
	hyp_info("CPU %u: %s, powering off\n", cpu->idx, why);
	firmware_call(PSCI_0_2_FN_CPU_OFF, 0, 0, 0);
	hyp_panic("CPU %u: firmware's CPU_OFF returned", cpu->idx);
}

/*
 * Test only: before it reads its slot, the CPU turns off again (a core
 * that firmware powered on but that never came up) or stays here for ever
 * (one that hangs on the way). The caller of CPU_ON was told SUCCESS and
 * the entry it gave is never used.
 */
static void test_lose_start(struct hyp_cpu *cpu)
{
	if (cpu->idx != lose_start_of)
		return;
	lose_start_of = NO_LOST_START;
	if (lose_by_stalling) {
		hyp_info("CPU %u: hyptrace.test_stall_cpu_on: stalling this CPU_ON start for ever\n",
			 cpu->idx);
		for (;;)
			asm volatile("wfe");
	}
	power_off_self(cpu, "hyptrace.test_lose_cpu_on: losing this CPU_ON start");
}

/*
 * A CPU started by a relayed CPU_ON has arrived: where Linux wants it. The
 * slot is read, then the state checked unchanged, so that a slot that a
 * takeover rewrites is never used half read; then the next CPU_ON may go.
 */
struct el1_entry psci_cpu_on_arrived(struct hyp_cpu *cpu)
{
	struct el1_entry entry;
	u32 state;

	test_lose_start(cpu);
	for (;;) {
		state = __atomic_load_n(&cpu->on_state, __ATOMIC_ACQUIRE);
		switch (on_state_of(state)) {
		case ON_CLAIMED:
			/* Its caller is still in firmware's CPU_ON: brief. */
			continue;
		case ON_STARTED:
			entry = cpu->on_entry;
			/* Keep the slot reads before the check. */
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
			if (__atomic_compare_exchange_n(&cpu->on_state, &state,
							on_next(state, ON_FREE),
							false, __ATOMIC_RELEASE,
							__ATOMIC_RELAXED))
				return entry;
			continue;
		default:
			/*
			 * No start waits for this CPU: firmware started it
			 * twice, or after its start was taken over. The slot
			 * is not its to use.
			 */
			power_off_self(cpu, "arrived with no CPU_ON waiting for it");
		}
	}
}

static s64 psci_cpu_suspend(u64 power_state, u64 pc, u64 ctx)
{
	struct hyp_cpu *cpu = this_cpu();

	s64 ret;

	/* Only this CPU writes its suspend slot: no lock needed. */
	cpu->suspend_entry.pc = pc;
	cpu->suspend_entry.x0 = ctx;
	/*
	 * A retention state returns here; a power-down state wakes in
	 * hyp_resume_entry and goes back to Linux at pc from there, where a
	 * traced call is recorded (fw_psci_resumed()).
	 */
	if (cpu->fw.timed)
		fw_psci_suspend_leave(power_state);
	ret = firmware_call(PSCI_0_2_FN64_CPU_SUSPEND, power_state,
			    hyp_entries.resume, cpu->idx);
	fw_psci_suspend_back();
	return ret;
}

/* VERSION, AFFINITY_INFO, MIGRATE_INFO_TYPE; CPU_OFF, SYSTEM_OFF/RESET */
static s64 forward(u32 fid, const u64 *r)
{
	return firmware_call(fid, r[1], r[2], r[3]);
}

const struct psci_ops psci_relay_ops = {
	.cpu_on		= psci_cpu_on,
	.cpu_suspend	= psci_cpu_suspend,
	.features	= psci_features,
	.answer		= forward,
	.leave		= forward,
	.firmware	= true,
};
