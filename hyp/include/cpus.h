/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU table: the per-CPU data every CPU finds through TPIDR_EL2
 * (cpus.c holds it; setup.c fills it), and where firmware and the park
 * send a CPU into the hypervisor.
 */
#ifndef HYP_CPUS_H
#define HYP_CPUS_H

#include "el1_step.h"
#include "fw_optee.h"
#include "types.h"
#include "shared/ring_buffer.h"

/* One SMCCC_ARCH_WORKAROUND_n's calls on one CPU since its last summary */
struct fw_workaround_sum {
	u32 count;
	u32 max_ns;		/* saturates at 4 s */
	u64 total_ns;
	u64 since_ns;		/* the first call counted */
};

#define FW_NR_WORKAROUNDS	3

/* A CPU's firmware-call decoding state (fw_trace.c, fw_trace.h) */
struct fw_cpu {
	bool timed;		/* firmware_call() adds its time to ns */
	bool suspend_pending;	/* a traced CPU_SUSPEND may wake elsewhere */
	u64 ns;
	u64 suspend_at_ns;
	u64 suspend_state;	/* CPU_SUSPEND's power_state (x1) */
	struct fw_workaround_sum wa[FW_NR_WORKAROUNDS];
	struct fw_optee_span optee;
};

/* A CPU's maintenance window (maint_window.c): only this CPU touches it */
struct maint_cpu {
	u64 deadline;		/* CNTVCT value it closes at; 0: closed */
	u64 first, last;	/* the run's first and last operand */
	u64 first_ns, last_ns;	/* when they came */
	u32 count;		/* operations in the run; 0: no run */
	u16 op;			/* the run's MAINT_OPS encoding */
	bool stepping;		/* one operation let through, its step due */
	struct el1_step step;	/* what that step changed */
};

/* Where a CPU enters Linux once the hypervisor is set up on it */
struct el1_entry {
	u64 pc;
	u64 x0;
};

struct hyp_cpu {
	/*
	 * This CPU's trace buffer writer; its pages are in the carve-out.
	 * First, so that TPIDR_EL2 points straight at it from every trace
	 * site.
	 */
	struct rb_cpu trace_rb;
	/*
	 * Bit n: event id n is recorded on this CPU (wanted, and tracing
	 * on). The one word every trace site tests, beside the writer it
	 * writes with; set under the trace lock (trace.c).
	 */
	u64 trace_events;
	/*
	 * hyp_clock_cur, one load from the same pointer: every CPU's is
	 * set with it (trace_clock_publish()), and at TRACE_LOAD.
	 */
	const struct hyp_clock *trace_clock;
	/*
	 * A traced SMCCC call's hyp_enter, waiting for its hyp_exit: its
	 * time and its payload word (hyp_call_word()), 0 when none waits.
	 * Only this CPU touches them (trace.h).
	 */
	u64 call_enter_ts;
	u64 call_enter_word;
	unsigned int idx;		/* Linux's logical number (dt.c) */
	u64 mpidr;			/* affinity, or HYPTRACE_MPIDR_NONE */
	/*
	 * CPU_ON arguments, owned by whoever on_state says (psci_relay.c):
	 * the caller of CPU_ON claims them, the target frees them once it
	 * has read them; on_started_at is when firmware accepted the start.
	 */
	u32 on_state;
	struct el1_entry on_entry;
	u64 on_started_at;
	/* CPU_SUSPEND arguments: only the CPU itself writes them */
	struct el1_entry suspend_entry;
	/*
	 * The hypervisor's own PSCI (psci_local.c): the spin table's
	 * cpu-release-addr or 0 (dt_cpus.c), and PARK_* below; on_entry is
	 * the CPU_ON slot, owned by whoever moved the state to CLAIMED.
	 */
	u64 release_addr;
	u32 park_state;
	/* Firmware-call decoding (fw_trace.c): only this CPU touches it */
	struct fw_cpu fw;
	/* The TLBI and DC/IC by VA window (maint_window.c) */
	struct maint_cpu maint;
};

#define PARK_ABSENT		0	/* never parked: cannot be started */
#define PARK_PARKED		1	/* at EL2, off for Linux */
#define PARK_CLAIMED		2	/* a CPU_ON fills on_entry */
#define PARK_GO			3	/* on_entry ready, not yet in Linux */
#define PARK_ON			4	/* in Linux */

/* HYP_MAX_CPUS of them, in private memory (setup.c allocates them) */
extern struct hyp_cpu *hyp_cpus;

static inline struct hyp_cpu *this_cpu(void)
{
	struct hyp_cpu *cpu;

	asm volatile("mrs %0, tpidr_el2" : "=r" (cpu));
	return cpu;
}

/* Each CPU's stack: base + (idx + 1) * HYP_STACK_SIZE, read by head.S */
struct hyp_stacks {
	u64 base;
	u64 count;
};
extern struct hyp_stacks hyp_stacks;

/*
 * Where a CPU comes into the hypervisor, other than at boot: head.S's
 * entry points, which head.S writes here before any C runs. The code that
 * sends a CPU there (the PSCI relay, the spin table, CPU_OFF's park) finds
 * them here rather than by name, so that it does not depend on head.S,
 * which depends on everything through hyp_cpu_start().
 */
struct hyp_entries {
	u64 secondary;		/* a relayed CPU_ON, x0 = CPU index */
	u64 resume;		/* a relayed CPU_SUSPEND's wake-up, x0 = index */
	u64 spin;		/* a spin-table CPU released, no argument */
	/* Back to the park on an empty stack (CPU_OFF), MMU on */
	void __noreturn (*park)(unsigned int idx);
};
extern struct hyp_entries hyp_entries;

int hyp_cpu_index(u64 mpidr);
s64 hyp_cpu_mpidr(u64 idx, u64 *mpidr);

#endif /* HYP_CPUS_H */
