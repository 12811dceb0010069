// SPDX-License-Identifier: GPL-2.0
/*
 * PSCI answered by the hypervisor itself, on boards whose firmware has none
 * (dt_cpus.c): Linux calls by HVC, and the CPUs it turns on and off are the
 * spin-table CPUs the hypervisor released at boot (spin_table.c), which
 * wait at EL2 in psci_local_park() while Linux has them off. What each
 * call answers is DEN0022's (PSCI 1.0). Traced as hyp_enter/hyp_exit with
 * reason psci_local (traps.c), where a relayed call shows the firmware.
 */
#include "cpus.h"
#include "hyp_layout.h"
#include "mem_ranges.h"
#include "print.h"
#include "psci.h"
#include "sysregs.h"
#include "trap.h"
#include "shared/smccc.h"

#define PSCI_VERSION_1_0		0x10000U	/* major 1, minor 0 */
/* MIGRATE_INFO_TYPE: no Trusted OS, so nothing to migrate */
#define PSCI_TOS_NOT_PRESENT_MP		2
/* CPU_SUSPEND's power_state, original format: StateType, 1 = power-down */
#define PSCI_POWER_STATE_TYPE		BIT(16)

/*
 * A parked CPU waits here, at EL2 with its MMU on, until a CPU_ON hands it
 * an entry: first when the boot CPU released it, then after each CPU_OFF
 * (head.S brings it back on an empty stack). Its caches stay on and
 * coherent meanwhile, so nothing of its last life in Linux needs cleaning:
 * Linux's own clean by VA of what a starting CPU reads with its MMU off
 * reaches this CPU's caches too (Arm ARM, "Data cache maintenance
 * instructions": by VA to the PoC, in every cache of the shareability
 * domain). Linux's cpu_die() leaves that maintenance to the PSCI
 * implementation: no dirty line is lost, since none leaves the domain.
 */
struct el1_entry psci_local_park(struct hyp_cpu *cpu)
{
	struct el1_entry entry;
	u32 first = PARK_ABSENT;

	/*
	 * Off for Linux from here on, the first time: after a CPU_OFF,
	 * cpu_off() said so already, and a CPU_ON may have come since.
	 */
	__atomic_compare_exchange_n(&cpu->park_state, &first, PARK_PARKED,
				    false, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
	/*
	 * A CPU_ON between the load and the wfe leaves its sev in the event
	 * register, and the wfe returns at once (Arm ARM, "Wait for Event
	 * and Send Event").
	 */
	while (__atomic_load_n(&cpu->park_state, __ATOMIC_ACQUIRE) != PARK_GO)
		asm volatile("wfe" : : : "memory");
	entry = cpu->on_entry;
	__atomic_store_n(&cpu->park_state, PARK_ON, __ATOMIC_RELEASE);
	return entry;
}

/* Linux's entry must be in RAM, and not in the hypervisor's region */
static bool entry_ok(u64 pc)
{
	unsigned int i;

	if (ranges_overlap(pc, 4, hyp_layout.hyp_base, HYP_REGION_SIZE))
		return false;
	for (i = 0; i < hyp_layout.nr_mem; i++)
		if (pc - hyp_layout.mem[i].base < hyp_layout.mem[i].size)
			return true;
	return false;
}

static s64 cpu_on(struct hyp_cpu *target, u64 pc, u64 ctx)
{
	u32 state = PARK_PARKED;

	if (!entry_ok(pc))
		return PSCI_RET_INVALID_ADDRESS;
	/* Whoever moves it from PARKED owns its entry slot */
	if (!__atomic_compare_exchange_n(&target->park_state, &state,
					 PARK_CLAIMED, false, __ATOMIC_ACQUIRE,
					 __ATOMIC_ACQUIRE))
		return state == PARK_ON ? PSCI_RET_ALREADY_ON :
		       state == PARK_ABSENT ? PSCI_RET_INTERNAL_FAILURE :
					      PSCI_RET_ON_PENDING;
	target->on_entry.pc = pc;
	target->on_entry.x0 = ctx;
	__atomic_store_n(&target->park_state, PARK_GO, __ATOMIC_RELEASE);
	/*
	 * The target waits in wfe: the store completes before the event,
	 * which no dmb orders (Arm ARM, "Wait for Event and Send Event"),
	 * so a dsb, as Linux's spin-table release has one before its sev.
	 */
	asm volatile("dsb ish\n\tsev" : : : "memory");
	return PSCI_RET_SUCCESS;
}

static s64 affinity_info(u64 target_cpu, u64 level)
{
	int idx = hyp_cpu_index(target_cpu);
	u32 state;

	/* Only level 0, the CPU itself, is asked for by Linux */
	if (level || target_cpu & ~MPIDR_HWID_MASK || idx < 0)
		return PSCI_RET_INVALID_PARAMS;
	state = __atomic_load_n(&hyp_cpus[idx].park_state, __ATOMIC_ACQUIRE);
	if (state == PARK_ON)
		return PSCI_0_2_AFFINITY_LEVEL_ON;
	if (state == PARK_CLAIMED || state == PARK_GO)
		return PSCI_0_2_AFFINITY_LEVEL_ON_PENDING;
	return PSCI_0_2_AFFINITY_LEVEL_OFF;
}

/*
 * Back to the park; the next CPU_ON brings the CPU into Linux again. Off
 * for Linux at once: the CPU never returns to EL1 by itself, and Linux
 * gives a dying CPU only 100 ms of AFFINITY_INFO to say so (psci.c,
 * psci_cpu_kill).
 */
static void __noreturn cpu_off(void)
{
	struct hyp_cpu *cpu = this_cpu();

	hyp_trace(hyp_exit, .reason = HYP_REASON_PSCI_LOCAL,
		  .func_id = PSCI_0_2_FN_CPU_OFF);
	__atomic_store_n(&cpu->park_state, PARK_PARKED, __ATOMIC_RELEASE);
	hyp_entries.park(cpu->idx);
}

/* Standby only: a power-down state would need firmware to wake from */
static s64 cpu_suspend(u64 power_state, u64 pc, u64 ctx)
{
	/* A standby state returns to the caller: no entry point is used */
	if (power_state & PSCI_POWER_STATE_TYPE)
		return PSCI_RET_INVALID_PARAMS;
	/* As Linux's cpu_do_idle: accesses complete before the wait */
	asm volatile("dsb sy\n\twfi" : : : "memory");
	return PSCI_RET_SUCCESS;
}

/*
 * No firmware to ask: Linux goes on to its next power-off or restart
 * handler (on the Pi, its watchdog's), as for a PSCI that cannot.
 */
static s64 shutdown(void)
{
	static bool said;

	if (!__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
		hyp_info("no firmware to power off or reset: left to Linux's next handler\n");
	return PSCI_RET_NOT_SUPPORTED;
}

/*
 * Everything psci.c routes is here; 0 for CPU_SUSPEND is its original
 * power_state format, without OS-initiated mode
 */
static s64 features(u32 feature)
{
	return PSCI_RET_SUCCESS;
}

static s64 answer(u32 fid, const u64 *r)
{
	switch (fid) {
	case PSCI_0_2_FN_PSCI_VERSION:
		return PSCI_VERSION_1_0;
	case PSCI_0_2_FN_AFFINITY_INFO:
		/* SMC32: the upper halves are not arguments */
		return affinity_info((u32)r[1], (u32)r[2]);
	case PSCI_0_2_FN64_AFFINITY_INFO:
		return affinity_info(r[1], r[2]);
	}
	return PSCI_TOS_NOT_PRESENT_MP;	/* MIGRATE_INFO_TYPE */
}

static s64 leave(u32 fid, const u64 *r)
{
	if (fid == PSCI_0_2_FN_CPU_OFF)
		cpu_off();
	return shutdown();
}

const struct psci_ops psci_local_ops = {
	.cpu_on		= cpu_on,
	.cpu_suspend	= cpu_suspend,
	.features	= features,
	.answer		= answer,
	.leave		= leave,
	.firmware	= false,
};
