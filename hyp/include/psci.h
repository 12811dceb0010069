/* SPDX-License-Identifier: GPL-2.0 */
/* The hypervisor's two PSCI implementations behind one dispatcher (psci.c) */
#ifndef HYP_PSCI_H
#define HYP_PSCI_H

#include "shared/psci.h"

#ifndef __ASSEMBLY__
#include "cpus.h"

struct trap_frame;

/*
 * One PSCI implementation behind psci_call() (psci.c), which has checked
 * the arguments it can and records the call. Each returns the PSCI result.
 */
struct psci_ops {
	/* CPU_ON (SMC64): @target is one of ours, the affinity checked */
	s64 (*cpu_on)(struct hyp_cpu *target, u64 pc, u64 ctx);
	/* CPU_SUSPEND (SMC64) */
	s64 (*cpu_suspend)(u64 power_state, u64 pc, u64 ctx);
	/* PSCI_FEATURES of one 32-bit function ID */
	s64 (*features)(u32 feature);
	/* The calls that only ask: VERSION, AFFINITY_INFO, MIGRATE_INFO_TYPE */
	s64 (*answer)(u32 fid, const u64 *r);
	/* CPU_OFF, SYSTEM_OFF, SYSTEM_RESET: return only when they failed */
	s64 (*leave)(u32 fid, const u64 *r);
	/* Firmware is behind it: SYSTEM_OFF and SYSTEM_RESET may not return */
	bool firmware;
};

extern const struct psci_ops psci_relay_ops;
extern const struct psci_ops psci_local_ops;

bool psci_call(const struct psci_ops *ops, struct trap_frame *frame, u32 fid);

/* psci_relay.c */
void psci_lose_first_start(unsigned int idx, bool stall);
struct el1_entry psci_cpu_on_arrived(struct hyp_cpu *cpu);

/* psci_local.c */
struct el1_entry psci_local_park(struct hyp_cpu *cpu);
#endif

#endif /* HYP_PSCI_H */
