/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The events the hypervisor writes, declared once. The hypervisor generates
 * its emitters from HYPTRACE_EVENTS (hyp/include/trace.h), the host module its
 * struct remote_event descriptions (host-driver/events.c), and both use the
 * payload structs generated below.
 *
 *   HYPTRACE_EVENTS(EVENT) expands EVENT(name, id, fields, print) per event,
 *   in increasing id order (trace_remote wants a sorted array):
 *	fields	HE_FIELD(type, name) ..., the payload after the u16 id
 *	print	HE_PRINT(fmt, args...); args name fields as HE_REC(name) and
 *		symbolic values as HE_SYMBOLIC(name, TABLE), where TABLE(SYM)
 *		expands SYM(value, "string") per value
 *
 * Each user defines HE_FIELD, HE_PRINT, HE_REC and HE_SYMBOLIC as it needs
 * before expanding the table. Payloads have no hidden padding (every field
 * sits at the running sum of the sizes before it), because the tracefs
 * `format` file reports offsets that way: the file then tells the truth to
 * libtraceevent and every other parser.
 */
#ifndef HYPTRACE_SHARED_HYP_EVENTS_H
#define HYPTRACE_SHARED_HYP_EVENTS_H

#include "rb_types.h"

/* Why the CPU is in the hypervisor: hyp_enter and hyp_exit "reason" */
#define HYP_REASONS(SYM)						\
	SYM(1, "hvc")		/* HVC from EL1 */			\
	SYM(2, "smc")		/* SMC from EL1, trapped */		\
	SYM(3, "psci")		/* CPU (re)entry after CPU_ON/SUSPEND */ \
	SYM(4, "firmware")	/* the hypervisor's own call to EL3 */	\
	SYM(5, "trap")		/* any other trap: func_id = ESR's EC */	\
	SYM(6, "psci_local")	/* PSCI the hypervisor answers itself */

enum hyp_reason {
	HYP_REASON_HVC = 1,
	HYP_REASON_SMC = 2,
	HYP_REASON_PSCI = 3,
	HYP_REASON_FIRMWARE = 4,
	HYP_REASON_TRAP = 5,
	HYP_REASON_PSCI_LOCAL = 6,
};

/*
 * cpu_sysreg "reg": the EL1 registers the CPU-state window records. The
 * first seven are what it asks for; then the other registers HCR_EL2.TVM
 * traps (without FEAT_FGT), and TCR2_EL1 and SCTLR2_EL1, which FGT traps
 * with TCR_EL1 and SCTLR_EL1; each recorded when it comes.
 */
#define CPU_SYSREGS(SYM)						\
	SYM(1, "sctlr_el1")						\
	SYM(2, "tcr_el1")						\
	SYM(3, "mair_el1")						\
	SYM(4, "ttbr0_el1")						\
	SYM(5, "ttbr1_el1")						\
	SYM(6, "vbar_el1")						\
	SYM(7, "cpacr_el1")						\
	SYM(8, "esr_el1")						\
	SYM(9, "far_el1")						\
	SYM(10, "afsr0_el1")						\
	SYM(11, "afsr1_el1")						\
	SYM(12, "amair_el1")						\
	SYM(13, "contextidr_el1")					\
	SYM(14, "tcr2_el1")						\
	SYM(15, "sctlr2_el1")

enum cpu_sysreg {
	CPU_SYSREG_SCTLR = 1,
	CPU_SYSREG_TCR,
	CPU_SYSREG_MAIR,
	CPU_SYSREG_TTBR0,
	CPU_SYSREG_TTBR1,
	CPU_SYSREG_VBAR,
	CPU_SYSREG_CPACR,
	CPU_SYSREG_ESR,
	CPU_SYSREG_FAR,
	CPU_SYSREG_AFSR0,
	CPU_SYSREG_AFSR1,
	CPU_SYSREG_AMAIR,
	CPU_SYSREG_CONTEXTIDR,
	CPU_SYSREG_TCR2,
	CPU_SYSREG_SCTLR2,
};

/*
 * setway_op "op": DC <op>SW's CRm << 4 | op2 (CRm 6 invalidate, 10 clean,
 * 14 clean and invalidate; op2 2 data, 4 tags, 6 both).
 */
#define SETWAY_OPS(SYM)							\
	SYM(0x62, "isw")						\
	SYM(0x64, "igsw")						\
	SYM(0x66, "igdsw")						\
	SYM(0xa2, "csw")						\
	SYM(0xa4, "cgsw")						\
	SYM(0xa6, "cgdsw")						\
	SYM(0xe2, "cisw")						\
	SYM(0xe4, "cigsw")						\
	SYM(0xe6, "cigdsw")

/*
 * The firmware-call events' symbolic fields. fw_psci "fn": the function
 * number (bits [4:0] of the ID, the same for SMC32 and SMC64; DEN0022
 * table 5.1), "state_type": CPU_SUSPEND's StateType as decoded, 0 for
 * every other function.
 */
#define FW_PSCI_FNS(SYM)						\
	SYM(0, "PSCI_VERSION")	SYM(1, "CPU_SUSPEND")			\
	SYM(2, "CPU_OFF")	SYM(3, "CPU_ON")			\
	SYM(4, "AFFINITY_INFO")	SYM(5, "MIGRATE")			\
	SYM(6, "MIGRATE_INFO_TYPE") SYM(7, "MIGRATE_INFO_UP_CPU")	\
	SYM(8, "SYSTEM_OFF")	SYM(9, "SYSTEM_RESET")			\
	SYM(10, "PSCI_FEATURES") SYM(11, "CPU_FREEZE")			\
	SYM(12, "CPU_DEFAULT_SUSPEND") SYM(13, "NODE_HW_STATE")		\
	SYM(14, "SYSTEM_SUSPEND") SYM(15, "PSCI_SET_SUSPEND_MODE")	\
	SYM(16, "PSCI_STAT_RESIDENCY") SYM(17, "PSCI_STAT_COUNT")	\
	SYM(18, "SYSTEM_RESET2") SYM(19, "MEM_PROTECT")			\
	SYM(20, "MEM_PROTECT_CHECK_RANGE") SYM(21, "SYSTEM_OFF2")

#define FW_PSCI_STATE_NONE		0
#define FW_PSCI_STATE_STANDBY		1
#define FW_PSCI_STATE_POWERDOWN		2
#define FW_PSCI_STATE_TYPES(SYM)					\
	SYM(0, "-")	SYM(1, "standby")	SYM(2, "powerdown")

/* The Arm architecture service's calls (SMCCC, DEN0028 §7) */
#define FW_ARCH_FNS(SYM)						\
	SYM(0x80000000, "SMCCC_VERSION")				\
	SYM(0x80000001, "ARCH_FEATURES")				\
	SYM(0x80000002, "SOC_ID")					\
	SYM(0x80008000, "WORKAROUND_1")					\
	SYM(0x80007fff, "WORKAROUND_2")					\
	SYM(0x80003fff, "WORKAROUND_3")

/* fw_workaround "which": the SMCCC_ARCH_WORKAROUND_n counted */
#define FW_WORKAROUNDS(SYM)						\
	SYM(1, "WORKAROUND_1")	SYM(2, "WORKAROUND_2")	SYM(3, "WORKAROUND_3")

/* TRNG (Arm DEN0098): the status only, never the entropy in x1..x3 */
#define FW_TRNG_FNS(SYM)						\
	SYM(0x84000050, "TRNG_VERSION")	SYM(0x84000051, "TRNG_FEATURES") \
	SYM(0x84000052, "TRNG_GET_UUID") SYM(0x84000053, "TRNG_RND32")	\
	SYM(0xc4000053, "TRNG_RND64")

/*
 * fw_scmi "protocol": the SCMI protocols (Arm DEN0056, 4.1); a vendor's
 * (0x80..0xff) shows as its number
 */
#define FW_SCMI_PROTOCOLS(SYM)						\
	SYM(0x10, "BASE")	SYM(0x11, "POWER")	SYM(0x12, "SYSTEM") \
	SYM(0x13, "PERF")	SYM(0x14, "CLOCK")	SYM(0x15, "SENSOR") \
	SYM(0x16, "RESET")	SYM(0x17, "VOLTAGE")	SYM(0x18, "POWERCAP") \
	SYM(0x19, "PINCTRL")

/*
 * fw_optee "func_id": the call that opened the span (Linux
 * drivers/tee/optee/optee_smc.h), RETURN_FROM_RPC when the span's first
 * call was not seen on this CPU (flags FW_OPTEE_F_RESUMED)
 */
#define FW_OPTEE_FNS(SYM)						\
	SYM(0x32000003, "RETURN_FROM_RPC")				\
	SYM(0x32000004, "CALL_WITH_ARG")				\
	SYM(0x32000012, "CALL_WITH_RPC_ARG")				\
	SYM(0x32000013, "CALL_WITH_REGD_ARG")

/* fw_optee "flags" */
#define FW_OPTEE_F_RESUMED	0x1	/* opened by RETURN_FROM_RPC */
#define FW_OPTEE_F_ABANDONED	0x2	/* a new call came, this never ended */

/*
 * maint_run "op": the maintenance instruction's SYS encoding,
 * op1 << 11 | CRn << 7 | CRm << 3 | op2 (op0 is 1): the TLBI forms EL1
 * has (CRn 8; CRn 9 their nXS twins) and the DC/IC by VA that
 * HCR_EL2.TPCP/TPU and FGT's HFGITR_EL2 trap (CRn 7).
 */
#define MAINT_OP(op1, crn, crm, op2)					\
	((op1) << 11 | (crn) << 7 | (crm) << 3 | (op2))
#define MAINT_OPS(SYM)							\
	SYM(0x388, "ic ialluis")	\
	SYM(0x3a8, "ic iallu")		\
	SYM(0x3b1, "dc ivac")		\
	SYM(0x3b3, "dc igvac")		\
	SYM(0x3b5, "dc igdvac")		\
	SYM(0x408, "tlbi vmalle1os")	\
	SYM(0x409, "tlbi vae1os")	\
	SYM(0x40a, "tlbi aside1os")	\
	SYM(0x40b, "tlbi vaae1os")	\
	SYM(0x40d, "tlbi vale1os")	\
	SYM(0x40f, "tlbi vaale1os")	\
	SYM(0x411, "tlbi rvae1is")	\
	SYM(0x413, "tlbi rvaae1is")	\
	SYM(0x415, "tlbi rvale1is")	\
	SYM(0x417, "tlbi rvaale1is")	\
	SYM(0x418, "tlbi vmalle1is")	\
	SYM(0x419, "tlbi vae1is")	\
	SYM(0x41a, "tlbi aside1is")	\
	SYM(0x41b, "tlbi vaae1is")	\
	SYM(0x41d, "tlbi vale1is")	\
	SYM(0x41f, "tlbi vaale1is")	\
	SYM(0x429, "tlbi rvae1os")	\
	SYM(0x42b, "tlbi rvaae1os")	\
	SYM(0x42d, "tlbi rvale1os")	\
	SYM(0x42f, "tlbi rvaale1os")	\
	SYM(0x431, "tlbi rvae1")	\
	SYM(0x433, "tlbi rvaae1")	\
	SYM(0x435, "tlbi rvale1")	\
	SYM(0x437, "tlbi rvaale1")	\
	SYM(0x438, "tlbi vmalle1")	\
	SYM(0x439, "tlbi vae1")		\
	SYM(0x43a, "tlbi aside1")	\
	SYM(0x43b, "tlbi vaae1")	\
	SYM(0x43d, "tlbi vale1")	\
	SYM(0x43f, "tlbi vaale1")	\
	SYM(0x488, "tlbi vmalle1osnxs")	\
	SYM(0x489, "tlbi vae1osnxs")	\
	SYM(0x48a, "tlbi aside1osnxs")	\
	SYM(0x48b, "tlbi vaae1osnxs")	\
	SYM(0x48d, "tlbi vale1osnxs")	\
	SYM(0x48f, "tlbi vaale1osnxs")	\
	SYM(0x491, "tlbi rvae1isnxs")	\
	SYM(0x493, "tlbi rvaae1isnxs")	\
	SYM(0x495, "tlbi rvale1isnxs")	\
	SYM(0x497, "tlbi rvaale1isnxs")	\
	SYM(0x498, "tlbi vmalle1isnxs")	\
	SYM(0x499, "tlbi vae1isnxs")	\
	SYM(0x49a, "tlbi aside1isnxs")	\
	SYM(0x49b, "tlbi vaae1isnxs")	\
	SYM(0x49d, "tlbi vale1isnxs")	\
	SYM(0x49f, "tlbi vaale1isnxs")	\
	SYM(0x4a9, "tlbi rvae1osnxs")	\
	SYM(0x4ab, "tlbi rvaae1osnxs")	\
	SYM(0x4ad, "tlbi rvale1osnxs")	\
	SYM(0x4af, "tlbi rvaale1osnxs")	\
	SYM(0x4b1, "tlbi rvae1nxs")	\
	SYM(0x4b3, "tlbi rvaae1nxs")	\
	SYM(0x4b5, "tlbi rvale1nxs")	\
	SYM(0x4b7, "tlbi rvaale1nxs")	\
	SYM(0x4b8, "tlbi vmalle1nxs")	\
	SYM(0x4b9, "tlbi vae1nxs")	\
	SYM(0x4ba, "tlbi aside1nxs")	\
	SYM(0x4bb, "tlbi vaae1nxs")	\
	SYM(0x4bd, "tlbi vale1nxs")	\
	SYM(0x4bf, "tlbi vaale1nxs")	\
	SYM(0x1ba9, "ic ivau")		\
	SYM(0x1bd1, "dc cvac")		\
	SYM(0x1bd3, "dc cgvac")		\
	SYM(0x1bd5, "dc cgdvac")	\
	SYM(0x1bd9, "dc cvau")		\
	SYM(0x1be1, "dc cvap")		\
	SYM(0x1be3, "dc cgvap")		\
	SYM(0x1be5, "dc cgdvap")	\
	SYM(0x1be9, "dc cvadp")		\
	SYM(0x1beb, "dc cgvadp")	\
	SYM(0x1bed, "dc cgdvadp")	\
	SYM(0x1bf1, "dc civac")		\
	SYM(0x1bf3, "dc cigvac")	\
	SYM(0x1bf5, "dc cigdvac")

/* impdef_sysreg's ec and iss are ESR_EL2's; value what an MSR wrote, or 0 */
/* mmio_read and mmio_write: one payload, one line (see HYP_MMIO_F_* below) */
#define HYP_MMIO_ACCESS_FIELDS						\
	HE_FIELD(u16, width)						\
	HE_FIELD(u32, flags)						\
	HE_FIELD(u64, addr)						\
	HE_FIELD(u64, value)						\
	HE_FIELD(u64, pc)						\
	HE_FIELD(u64, va)
#define HYP_MMIO_ACCESS_PRINT						\
	HE_PRINT("addr=0x%llx width=%u value=0x%llx pc=0x%llx va=0x%llx flags=0x%x", \
		 HE_REC(addr), HE_REC(width), HE_REC(value),		\
		 HE_REC(pc), HE_REC(va), HE_REC(flags))

#define HYPTRACE_EVENTS(EVENT)						\
	EVENT(hyp_enter, 1,						\
	      HE_FIELD(u16, reason)					\
	      HE_FIELD(u32, func_id),					\
	      HE_PRINT("reason=%s func_id=0x%x",			\
		       HE_SYMBOLIC(reason, HYP_REASONS),		\
		       HE_REC(func_id)))				\
	EVENT(hyp_exit, 2,						\
	      HE_FIELD(u16, reason)					\
	      HE_FIELD(u32, func_id)					\
	      HE_FIELD(s64, ret),					\
	      HE_PRINT("reason=%s func_id=0x%x ret=%lld",		\
		       HE_SYMBOLIC(reason, HYP_REASONS),		\
		       HE_REC(func_id), HE_REC(ret)))			\
	EVENT(selftest, 3,						\
	      HE_FIELD(u16, __reserved0)				\
	      HE_FIELD(u32, __reserved1)				\
	      HE_FIELD(u64, id),					\
	      HE_PRINT("id=%llu", HE_REC(id)))				\
	/* EL1 or EL0 touched memory stage 2 keeps from the host */	\
	EVENT(host_abort, 4,						\
	      HE_FIELD(u16, __reserved0)				\
	      HE_FIELD(u32, esr)					\
	      HE_FIELD(u64, ipa)					\
	      HE_FIELD(u64, va),					\
	      HE_PRINT("ipa=0x%llx va=0x%llx esr=0x%x",			\
		       HE_REC(ipa), HE_REC(va), HE_REC(esr)))		\
	/* EL1 set up its MMU: a write cpu_state.c's window trapped */	\
	EVENT(cpu_sysreg, 5,						\
	      HE_FIELD(u16, reg)					\
	      HE_FIELD(u32, __reserved0)				\
	      HE_FIELD(u64, value)					\
	      HE_FIELD(u64, pc),					\
	      HE_PRINT("%s=0x%llx pc=0x%llx",				\
		       HE_SYMBOLIC(reg, CPU_SYSREGS),			\
		       HE_REC(value), HE_REC(pc)))			\
	/* Canary: EL1 cleaned or invalidated a cache line by set/way */ \
	EVENT(setway_op, 6,						\
	      HE_FIELD(u16, op)						\
	      HE_FIELD(u32, __reserved0)				\
	      HE_FIELD(u64, setway)					\
	      HE_FIELD(u64, pc),					\
	      HE_PRINT("dc %s 0x%llx pc=0x%llx",			\
		       HE_SYMBOLIC(op, SETWAY_OPS),			\
		       HE_REC(setway), HE_REC(pc)))			\
	/* Canary: EL1/EL0 touched an IMPLEMENTATION DEFINED register */ \
	EVENT(impdef_sysreg, 7,						\
	      HE_FIELD(u16, ec)						\
	      HE_FIELD(u32, iss)					\
	      HE_FIELD(u64, value)					\
	      HE_FIELD(u64, pc),					\
	      HE_PRINT("ec=0x%x iss=0x%x value=0x%llx pc=0x%llx",	\
		       HE_REC(ec), HE_REC(iss), HE_REC(value),		\
		       HE_REC(pc)))					\
	/* A traced register read or written (mmio_trap.c) */		\
	EVENT(mmio_read, 8, HYP_MMIO_ACCESS_FIELDS, HYP_MMIO_ACCESS_PRINT) \
	EVENT(mmio_write, 9, HYP_MMIO_ACCESS_FIELDS, HYP_MMIO_ACCESS_PRINT) \
	/* An access to a traced page let through unemulated, once */	\
	EVENT(mmio_unhandled, 10,					\
	      HE_FIELD(u16, __reserved0)				\
	      HE_FIELD(u32, esr)					\
	      HE_FIELD(u64, addr)					\
	      HE_FIELD(u64, pc)						\
	      HE_FIELD(u64, va),					\
	      HE_PRINT("addr=0x%llx pc=0x%llx va=0x%llx esr=0x%x",	\
		       HE_REC(addr), HE_REC(pc), HE_REC(va),		\
		       HE_REC(esr)))					\
	/* Firmware calls decoded, one event per service (fw_trace.c) */ \
	EVENT(fw_psci, 11,						\
	      HE_FIELD(u16, fn)						\
	      HE_FIELD(u32, func_id)					\
	      HE_FIELD(u64, x1)						\
	      HE_FIELD(u64, x2)						\
	      HE_FIELD(u64, x3)						\
	      HE_FIELD(s64, ret)					\
	      HE_FIELD(u64, fw_ns)					\
	      HE_FIELD(u32, state_id)					\
	      HE_FIELD(u16, state_type)					\
	      HE_FIELD(u16, power_level),				\
	      HE_PRINT("%s x1=0x%llx x2=0x%llx x3=0x%llx ret=%lld fw_ns=%llu state=%s state_id=0x%x power_level=%u", \
		       HE_SYMBOLIC(fn, FW_PSCI_FNS), HE_REC(x1),	\
		       HE_REC(x2), HE_REC(x3), HE_REC(ret),		\
		       HE_REC(fw_ns),					\
		       HE_SYMBOLIC(state_type, FW_PSCI_STATE_TYPES),	\
		       HE_REC(state_id), HE_REC(power_level)))		\
	EVENT(fw_arch, 12,						\
	      HE_FIELD(u16, __reserved0)				\
	      HE_FIELD(u32, func_id)					\
	      HE_FIELD(u64, x1)						\
	      HE_FIELD(s64, ret)					\
	      HE_FIELD(u64, fw_ns),					\
	      HE_PRINT("%s x1=0x%llx ret=%lld fw_ns=%llu",		\
		       HE_SYMBOLIC(func_id, FW_ARCH_FNS), HE_REC(x1),	\
		       HE_REC(ret), HE_REC(fw_ns)))			\
	EVENT(fw_workaround, 13,						\
	      HE_FIELD(u16, which)					\
	      HE_FIELD(u32, count)					\
	      HE_FIELD(u64, total_ns)					\
	      HE_FIELD(u64, max_ns)					\
	      HE_FIELD(u64, span_ns),					\
	      HE_PRINT("%s count=%u total_ns=%llu max_ns=%llu span_ns=%llu", \
		       HE_SYMBOLIC(which, FW_WORKAROUNDS),		\
		       HE_REC(count), HE_REC(total_ns),			\
		       HE_REC(max_ns), HE_REC(span_ns)))		\
	EVENT(fw_trng, 14,						\
	      HE_FIELD(u16, __reserved0)				\
	      HE_FIELD(u32, func_id)					\
	      HE_FIELD(u64, x1)						\
	      HE_FIELD(s64, status)					\
	      HE_FIELD(u64, fw_ns),					\
	      HE_PRINT("%s x1=0x%llx status=%lld fw_ns=%llu",		\
		       HE_SYMBOLIC(func_id, FW_TRNG_FNS), HE_REC(x1),	\
		       HE_REC(status), HE_REC(fw_ns)))			\
	/* A run of one TLB or cache maintenance op (maint_window.c) */ \
	EVENT(maint_run, 15,						\
	      HE_FIELD(u16, op)						\
	      HE_FIELD(u32, count)					\
	      HE_FIELD(u64, first)					\
	      HE_FIELD(u64, last)					\
	      HE_FIELD(u64, ns),					\
	      HE_PRINT("%s count=%u first=0x%llx last=0x%llx ns=%llu",	\
		       HE_SYMBOLIC(op, MAINT_OPS), HE_REC(count),	\
		       HE_REC(first), HE_REC(last), HE_REC(ns)))		\
	/* SCMI over SMC: the shared-memory header, the status back */	\
	EVENT(fw_scmi, 16,						\
	      HE_FIELD(u16, protocol)					\
	      HE_FIELD(u16, msg)					\
	      HE_FIELD(u16, token)					\
	      HE_FIELD(s32, status)					\
	      HE_FIELD(u32, func_id)					\
	      HE_FIELD(s64, ret)					\
	      HE_FIELD(u64, fw_ns),					\
	      HE_PRINT("%s protocol=0x%x msg=0x%x token=%u status=%d ret=%lld fw_ns=%llu", \
		       HE_SYMBOLIC(protocol, FW_SCMI_PROTOCOLS),	\
		       HE_REC(protocol), HE_REC(msg), HE_REC(token),	\
		       HE_REC(status), HE_REC(ret), HE_REC(fw_ns)))	\
	/* OP-TEE: one yielding call from its first SMC to its last */	\
	EVENT(fw_optee, 17,						\
	      HE_FIELD(u16, flags)					\
	      HE_FIELD(u32, func_id)					\
	      HE_FIELD(u64, result)					\
	      HE_FIELD(u64, fw_ns)					\
	      HE_FIELD(u64, span_ns)					\
	      HE_FIELD(u32, rpcs)					\
	      HE_FIELD(u32, intr_rpcs),					\
	      HE_PRINT("%s result=0x%llx rpcs=%u intr_rpcs=%u fw_ns=%llu span_ns=%llu flags=0x%x", \
		       HE_SYMBOLIC(func_id, FW_OPTEE_FNS),		\
		       HE_REC(result), HE_REC(rpcs), HE_REC(intr_rpcs),	\
		       HE_REC(fw_ns), HE_REC(span_ns), HE_REC(flags)))

/*
 * mmio_read and mmio_write (hyp/arch/mmio_trap.c): width in bytes, flags
 * HYP_MMIO_F_*, the physical address, the value as the device gave or got
 * it (zero-extended), the instruction's address and the virtual address
 * it used. The flags:
 */
#define HYP_MMIO_F_ACQREL	0x1	/* load-acquire or store-release */
#define HYP_MMIO_F_SIGNED	0x2	/* the load sign-extended the value */
#define HYP_MMIO_F_DECODED	0x4	/* ISV=0: decoded from the instruction */
#define HYP_MMIO_F_ABORT	0x8	/* the device aborted: EL1 got the abort */
#define HYP_MMIO_F_PAIR		0x10	/* one of the two halves of an LDP/STP */

/* The first two bytes of every payload: the event id (remote_event_hdr) */
struct hyp_event_hdr {
	u16 id;
};

#define HE_FIELD(type, name)	type name;
#define HYP_EVENT_STRUCT(name, id, fields, print)			\
	struct hyp_event_##name {					\
		struct hyp_event_hdr hdr;				\
		fields							\
	};
HYPTRACE_EVENTS(HYP_EVENT_STRUCT)
#undef HYP_EVENT_STRUCT
#undef HE_FIELD

#define HYP_EVENT_ID_ENUM(name, id, fields, print) HYP_EVENT_##name = id,
enum hyp_event_id {
	HYPTRACE_EVENTS(HYP_EVENT_ID_ENUM)
	HYP_EVENT_ID_END
};
#undef HYP_EVENT_ID_ENUM

#define HYP_EVENT_COUNT(name, id, fields, print) + 1
#define HYP_NR_EVENTS	(0 HYPTRACE_EVENTS(HYP_EVENT_COUNT))
/* Ids are 1..HYP_NR_EVENTS, in table order, with no gap */
_Static_assert(HYP_EVENT_ID_END == HYP_NR_EVENTS + 1, "event ids 1..N");

/* No hidden padding: sizeof == 2 + sum of the field sizes */
#define HE_FIELD(type, name)	+ sizeof(type)
#define HYP_EVENT_PACKED(name, id, fields, print)			\
	_Static_assert(sizeof(struct hyp_event_##name) ==		\
		       sizeof(struct hyp_event_hdr) fields,		\
		       #name " has padding the format file would hide");
HYPTRACE_EVENTS(HYP_EVENT_PACKED)
#undef HYP_EVENT_PACKED
#undef HE_FIELD

#endif /* HYPTRACE_SHARED_HYP_EVENTS_H */
