// SPDX-License-Identifier: GPL-2.0
/*
 * Names for the function IDs in hyp_enter/hyp_exit, so that `hyptrace
 * stats` can say CPU_ON rather than 0xc4000003. The numbers come from the
 * headers the hypervisor itself uses (shared/smccc.h, shared/hyptrace_abi.h,
 * shared/psci.h); the few calls no header declares are built with
 * SMCCC_ID() from their function numbers in the specifications (PSCI
 * DEN0022, TRNG DEN0098).
 */
#include <stdio.h>

#include "hyptrace/el2stats.h"
#include "hyp_events.h"
#include "hyptrace_abi.h"
#include "psci.h"

#define PSCI_FN(n)	SMCCC_ID(0, SMCCC_OWNER_STANDARD, (n))
#define PSCI_FN64(n)	SMCCC_ID(1, SMCCC_OWNER_STANDARD, (n))

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#define NAMED(id, name)	{ (id), (name) }

static const struct func_name {
	uint32_t id;
	const char *name;
} func_names[] = {
	NAMED(SMCCC_VERSION, "SMCCC_VERSION"),
	NAMED(SMCCC_ARCH_FEATURES, "SMCCC_ARCH_FEATURES"),
	NAMED(SMCCC_ARCH_SOC_ID, "SMCCC_ARCH_SOC_ID"),
	NAMED(SMCCC_ARCH_WORKAROUND_1, "ARCH_WORKAROUND_1"),
	NAMED(SMCCC_ARCH_WORKAROUND_2, "ARCH_WORKAROUND_2"),
	NAMED(SMCCC_ARCH_WORKAROUND_3, "ARCH_WORKAROUND_3"),

	NAMED(PSCI_0_2_FN_PSCI_VERSION, "PSCI_VERSION"),
	NAMED(PSCI_0_2_FN_CPU_SUSPEND, "CPU_SUSPEND"),
	NAMED(PSCI_0_2_FN64_CPU_SUSPEND, "CPU_SUSPEND"),
	NAMED(PSCI_0_2_FN_CPU_OFF, "CPU_OFF"),
	NAMED(PSCI_0_2_FN_CPU_ON, "CPU_ON"),
	NAMED(PSCI_0_2_FN64_CPU_ON, "CPU_ON"),
	NAMED(PSCI_0_2_FN_AFFINITY_INFO, "AFFINITY_INFO"),
	NAMED(PSCI_0_2_FN64_AFFINITY_INFO, "AFFINITY_INFO"),
	NAMED(PSCI_FN(0x05), "MIGRATE"),
	NAMED(PSCI_FN64(0x05), "MIGRATE"),
	NAMED(PSCI_0_2_FN_MIGRATE_INFO_TYPE, "MIGRATE_INFO_TYPE"),
	NAMED(PSCI_FN(0x07), "MIGRATE_INFO_UP_CPU"),
	NAMED(PSCI_FN64(0x07), "MIGRATE_INFO_UP_CPU"),
	NAMED(PSCI_0_2_FN_SYSTEM_OFF, "SYSTEM_OFF"),
	NAMED(PSCI_0_2_FN_SYSTEM_RESET, "SYSTEM_RESET"),
	NAMED(PSCI_1_0_FN_PSCI_FEATURES, "PSCI_FEATURES"),
	NAMED(PSCI_FN(0x0b), "CPU_FREEZE"),
	NAMED(PSCI_FN(0x0c), "CPU_DEFAULT_SUSPEND"),
	NAMED(PSCI_FN64(0x0c), "CPU_DEFAULT_SUSPEND"),
	NAMED(PSCI_FN(0x0d), "NODE_HW_STATE"),
	NAMED(PSCI_FN64(0x0d), "NODE_HW_STATE"),
	NAMED(PSCI_FN(0x0e), "SYSTEM_SUSPEND"),
	NAMED(PSCI_FN64(0x0e), "SYSTEM_SUSPEND"),
	NAMED(PSCI_FN(0x0f), "PSCI_SET_SUSPEND_MODE"),
	NAMED(PSCI_FN(0x10), "PSCI_STAT_RESIDENCY"),
	NAMED(PSCI_FN64(0x10), "PSCI_STAT_RESIDENCY"),
	NAMED(PSCI_FN(0x11), "PSCI_STAT_COUNT"),
	NAMED(PSCI_FN64(0x11), "PSCI_STAT_COUNT"),
	NAMED(PSCI_FN(0x12), "SYSTEM_RESET2"),
	NAMED(PSCI_FN64(0x12), "SYSTEM_RESET2"),
	NAMED(PSCI_FN(0x13), "MEM_PROTECT"),
	NAMED(PSCI_FN(0x14), "MEM_PROTECT_CHECK_RANGE"),
	NAMED(PSCI_FN64(0x14), "MEM_PROTECT_CHECK_RANGE"),

	NAMED(PSCI_FN(0x50), "TRNG_VERSION"),
	NAMED(PSCI_FN(0x51), "TRNG_FEATURES"),
	NAMED(PSCI_FN(0x52), "TRNG_GET_UUID"),
	NAMED(PSCI_FN(0x53), "TRNG_RND"),
	NAMED(PSCI_FN64(0x53), "TRNG_RND"),

	NAMED(HYPTRACE_CALL_UID, "HYPTRACE_CALL_UID"),
	NAMED(HYPTRACE_CALL_REVISION, "HYPTRACE_CALL_REVISION"),
	NAMED(HYPTRACE_CALL_VERSION, "HYPTRACE_VERSION"),
	NAMED(HYPTRACE_CALL_TRACE_QUERY, "HYPTRACE_TRACE_QUERY"),
	NAMED(HYPTRACE_CALL_TRACE_LOAD, "HYPTRACE_TRACE_LOAD"),
	NAMED(HYPTRACE_CALL_TRACE_UNLOAD, "HYPTRACE_TRACE_UNLOAD"),
	NAMED(HYPTRACE_CALL_TRACE_ENABLE, "HYPTRACE_TRACE_ENABLE"),
	NAMED(HYPTRACE_CALL_TRACE_SWAP_READER, "HYPTRACE_TRACE_SWAP_READER"),
	NAMED(HYPTRACE_CALL_TRACE_RESET, "HYPTRACE_TRACE_RESET"),
	NAMED(HYPTRACE_CALL_TRACE_ENABLE_EVENT, "HYPTRACE_TRACE_ENABLE_EVENT"),
	NAMED(HYPTRACE_CALL_TRACE_UPDATE_CLOCK, "HYPTRACE_TRACE_UPDATE_CLOCK"),
	NAMED(HYPTRACE_CALL_TRACE_WRITE_EVENT, "HYPTRACE_TRACE_WRITE_EVENT"),
	NAMED(HYPTRACE_CALL_TRACE_HIDE_COUNTERS, "HYPTRACE_TRACE_HIDE_COUNTERS"),
	NAMED(HYPTRACE_CALL_CPU_MPIDR, "HYPTRACE_CPU_MPIDR"),
	NAMED(HYPTRACE_CALL_IMAGE_SUM, "HYPTRACE_IMAGE_SUM"),
	NAMED(HYPTRACE_CALL_MAINT_WINDOW, "HYPTRACE_MAINT_WINDOW"),
};

/* SMCCC owning entity numbers (DEN0028 table 6-2) */
static const char *owner_name(unsigned int owner)
{
	switch (owner) {
	case 0: return "arch";
	case 1: return "cpu";
	case 2: return "sip";
	case 3: return "oem";
	case 4: return "std-secure";
	case 5: return "std-hyp";
	case 6: return "vendor-hyp";
	case 7: return "vendor-el3";
	}
	if (owner >= 48 && owner <= 49)
		return "trusted-app";
	if (owner >= 50)
		return "trusted-os";
	return "reserved";
}

const char *el2names_func_name(unsigned int reason_slot, uint32_t func_id,
			  char *buf, size_t len)
{
	size_t i;

	if (!len)
		return buf;
	if (reason_slot == HYP_REASON_TRAP) {
		snprintf(buf, len, "ESR_EC 0x%02x", func_id);
		return buf;
	}
	for (i = 0; i < ARRAY_SIZE(func_names); i++) {
		if (func_names[i].id == func_id) {
			snprintf(buf, len, "%s", func_names[i].name);
			return buf;
		}
	}
	snprintf(buf, len, "%s%s%s fn 0x%04x",
		 func_id & SMCCC_FAST_CALL ? "" : "yielding ",
		 owner_name(SMCCC_OWNER(func_id)),
		 func_id & SMCCC_64 ? "64" : "", func_id & SMCCC_FUNC_MASK);
	return buf;
}
