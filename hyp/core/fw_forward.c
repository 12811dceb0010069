// SPDX-License-Identifier: GPL-2.0
/*
 * EL1's calls to firmware services, passed through to firmware.
 *
 * Real boards' kernels talk to their firmware: SiP services (clocks over
 * SCMI on RK3588, EEMI power management on ZynqMP), OEM services, the
 * standard services other than PSCI (TRNG, FF-A), trusted applications
 * and trusted OSes (OP-TEE, whose calls are yielding). Those reach us as
 * trapped SMCs (HCR_EL2.TSC) and go on to firmware whole: x0..x17 both
 * ways (SMCCC 1.2), x0's SVE hint bit as EL1 set it, fast or yielding.
 * Each shows in the trace as an smc entry, a firmware exit and entry,
 * and the smc exit with the result, as the hypervisor's own firmware
 * calls do.
 *
 * Not passed: PSCI (relayed, psci_relay.c), SDEI (TF-A delivers its
 * events to EL2 whenever EL2 exists: a Linux that registered for them
 * would get events at our vectors), the CPU and standard-hypervisor
 * services (addressed to a hypervisor: we offer none of them), and the
 * owners SMCCC reserves. They answer NOT_SUPPORTED.
 *
 * Confused deputy: some calls hand the secure world a physical address to
 * write. Where the hypervisor knows what an argument means, an address in
 * its own memory is refused with the service's own error and nothing goes
 * to firmware: OP-TEE's CALL_WITH_ARG and CALL_WITH_RPC_ARG (the message),
 * FF-A's RXTX_MAP (the two buffers) and MEM_DONATE/LEND/SHARE/RETRIEVE_REQ
 * given a buffer of their own. What it cannot know, it cannot check: the
 * memory an FF-A transaction descriptor names, or what an unknown SiP
 * service writes where the kernel tells it (as a DMA master could). The
 * threat model (Documentation/design/threat-model.md) says so.
 */
#include "fw_trace.h"
#include "hyp_layout.h"
#include "trap.h"
#include "shared/smccc.h"

#define SMCCC_OWNER_SIP			2
#define SMCCC_OWNER_OEM			3
#define SMCCC_OWNER_TRUSTED_APP		48	/* .. 49 */
#define SMCCC_OWNER_TRUSTED_OS		50	/* .. 63 */

/* Standard service function ranges (SMCCC, DEN0028 table 6-4) */
#define STD_PSCI_LAST			0x1f
#define STD_SDEI_FIRST			0x20
#define STD_SDEI_LAST			0x3f

/* OP-TEE (Linux drivers/tee/optee/optee_smc.h): yielding, SMC32 */
#define OPTEE_CALL(func)		(((u32)SMCCC_OWNER_TRUSTED_OS << \
					  SMCCC_OWNER_SHIFT) | (func))
#define OPTEE_CALL_WITH_ARG		OPTEE_CALL(4)
#define OPTEE_CALL_WITH_RPC_ARG		OPTEE_CALL(18)
#define OPTEE_RETURN_EBADADDR		4
/* A struct optee_msg_arg with its parameters: within a page in practice */
#define OPTEE_MSG_SPAN			4096UL

/* FF-A (Arm DEN0077, Linux include/linux/arm_ffa.h): fast, 32 or 64 */
#define FFA_FUNC(fid)			((fid) & ~SMCCC_64)
#define FFA_ERROR			SMCCC_ID(0, SMCCC_OWNER_STANDARD, 0x60)
#define FFA_RXTX_MAP			SMCCC_ID(0, SMCCC_OWNER_STANDARD, 0x66)
#define FFA_MEM_DONATE			SMCCC_ID(0, SMCCC_OWNER_STANDARD, 0x71)
#define FFA_MEM_RETRIEVE_REQ		SMCCC_ID(0, SMCCC_OWNER_STANDARD, 0x74)
#define FFA_RXTX_PAGES			GENMASK(5, 0)	/* w3 of RXTX_MAP */
#define FFA_INVALID_PARAMETERS		(-2)
#define FFA_PAGE_SIZE			4096UL

/* Does [@addr, @addr + @size) reach the hypervisor's memory? (wrapping: yes) */
static bool touches_hyp(u64 addr, u64 size)
{
	u64 end;

	if (__builtin_add_overflow(addr, size, &end))
		return true;
	return addr < hyp_layout.hyp_base + HYP_REGION_SIZE &&
	       end > hyp_layout.hyp_base;
}

static bool ffa_pages_touch_hyp(u64 addr, u64 pages)
{
	return touches_hyp(addr, pages * FFA_PAGE_SIZE);
}

/* May @fid's arguments go to firmware? If not, x0.. hold the refusal. */
static bool args_allowed(struct trap_frame *frame, u32 fid)
{
	u64 *r = frame->regs;
	u32 ffa = FFA_FUNC(fid);
	u32 optee = fid & ~SMCCC_64;	/* whichever convention it tries */

	if (optee == OPTEE_CALL_WITH_ARG || optee == OPTEE_CALL_WITH_RPC_ARG) {
		if (!touches_hyp((r[1] & 0xffffffffULL) << 32 |
				 (r[2] & 0xffffffffULL), OPTEE_MSG_SPAN))
			return true;
		r[0] = OPTEE_RETURN_EBADADDR;
		return false;
	}
	if (ffa == FFA_RXTX_MAP) {
		u64 pages = FIELD_GET(FFA_RXTX_PAGES, r[3]);

		if (!ffa_pages_touch_hyp(r[1], pages) &&
		    !ffa_pages_touch_hyp(r[2], pages))
			return true;
	} else if (ffa >= FFA_MEM_DONATE && ffa <= FFA_MEM_RETRIEVE_REQ) {
		/* x3 = 0: the descriptor is in the RX/TX buffers, checked */
		if (!r[3] || !ffa_pages_touch_hyp(r[3], (u32)r[4]))
			return true;
	} else {
		return true;
	}
	r[0] = FFA_ERROR;
	r[1] = 0;
	r[2] = (u32)FFA_INVALID_PARAMETERS;
	return false;
}

/* Is @fid a service that lives in firmware and may be passed there? */
static bool fw_service(u32 fid)
{
	u32 owner = SMCCC_OWNER(fid), func = fid & SMCCC_FUNC_MASK;

	switch (owner) {
	case SMCCC_OWNER_SIP:
	case SMCCC_OWNER_OEM:
		return true;
	case SMCCC_OWNER_STANDARD:
		/* Yielding standard calls do not exist; PSCI is relayed */
		return (fid & SMCCC_FAST_CALL) && func > STD_PSCI_LAST &&
		       (func < STD_SDEI_FIRST || func > STD_SDEI_LAST);
	}
	return owner >= SMCCC_OWNER_TRUSTED_APP;
}

/*
 * EL1's SMC @fid (x0 without the SVE hint) to a firmware service: passed
 * to firmware, or refused for an address in our memory. False if it is
 * not a firmware service's: the caller answers NOT_SUPPORTED. Out of
 * line: inlined into smccc_handle_call(), its trace sites kept the fid in
 * saved registers on every call that function takes, the hypervisor's own
 * untraced hypercalls too (bench row 3d, 3.0 -> 3.5).
 */
noinline bool fw_forward_call(struct trap_frame *frame, u32 fid)
{
	struct fw_call call;
	bool traced;

	if (!fw_service(fid))
		return false;
	/* TRNG, SCMI, OP-TEE decoded (fw_trace.c): before and after */
	traced = fw_call_begin(frame->regs, fid, &call);
	if (args_allowed(frame, fid))
		firmware_call_regs(frame);
	if (traced)
		fw_call_end(frame->regs, fid, &call);
	return true;
}
