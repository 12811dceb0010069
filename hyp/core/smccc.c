// SPDX-License-Identifier: GPL-2.0
/*
 * SMCCC calls from EL1, through HVC or a trapped SMC. Decoding is strict:
 * what is addressed to the hypervisor (HVC, the Arm architecture service,
 * PSCI) is answered here or relayed knowingly, and a call we do not
 * understand exactly is answered NOT_SUPPORTED. The firmware's own services
 * reached by SMC (SiP, OEM, TRNG, FF-A, trusted OSes) go to firmware whole
 * (fw_forward.c).
 */
#include "hyp_layout.h"
#include "psci.h"
#include "sysregs.h"
#include "trap.h"
#include "vendor_hyp.h"
#include "shared/smccc.h"

/* The Arm architecture service: version, features, SoC ID */
static void arch_answer(struct trap_frame *frame, u32 fid)
{
	u64 *r = frame->regs;
	u32 feature = (u32)r[1];

	switch (fid) {
	case SMCCC_VERSION:
		r[0] = SMCCC_VERSION_1_1;
		return;
	case SMCCC_ARCH_FEATURES:
		if (r[1] >> 32) {
			r[0] = (u64)SMCCC_RET_NOT_SUPPORTED;
		} else if (feature == SMCCC_VERSION ||
			   feature == SMCCC_ARCH_FEATURES) {
			r[0] = SMCCC_RET_SUCCESS;
		} else if (feature == SMCCC_ARCH_WORKAROUND_1 ||
			   feature == SMCCC_ARCH_WORKAROUND_2 ||
			   feature == SMCCC_ARCH_WORKAROUND_3) {
			/* Only the firmware knows whether the CPU needs them */
			r[0] = firmware_call(SMCCC_ARCH_FEATURES, feature, 0, 0);
		} else {
			r[0] = (u64)SMCCC_RET_NOT_SUPPORTED;
		}
		return;
	}
	r[0] = (u64)SMCCC_RET_NOT_SUPPORTED;
}

/*
 * The Spectre workarounds are counted (fw_trace.c), everything else is
 * recorded one call at a time. Out of line: inlined, its trace site's
 * registers were saved on every call smccc_handle_call() takes, the
 * hypervisor's own hypercalls too (bench row 3d, 2.5 -> 3.5 per site).
 */
static noinline void arch_call(struct trap_frame *frame, u32 fid)
{
	bool traced;

	if (fid == SMCCC_ARCH_WORKAROUND_1 || fid == SMCCC_ARCH_WORKAROUND_2 ||
	    fid == SMCCC_ARCH_WORKAROUND_3) {
		fw_workaround_call(frame, fid);
		return;
	}
	traced = fw_time_begin(hyp_trace_on(fw_arch));
	arch_answer(frame, fid);
	if (traced)
		fw_trace_arch(fid, frame->regs[1], (s64)frame->regs[0],
			      fw_time_end());
}

void smccc_handle_call(struct trap_frame *frame)
{
	u64 *r = frame->regs;
	u32 fid;

	/* Only HVC #0 / SMC #0 are SMCCC calls; IDs are 32 bits. */
	if (FIELD_GET(ESR_ISS_IMM16, frame->esr) || (r[0] >> 32))
		goto not_supported;
	/* The SVE hint says nothing about which function is meant. */
	fid = (u32)r[0] & ~SMCCC_SVE_HINT;

	switch (SMCCC_OWNER(fid)) {
	case SMCCC_OWNER_ARCH:
		if (fid & SMCCC_FAST_CALL) {
			arch_call(frame, fid);
			return;
		}
		break;
	case SMCCC_OWNER_STANDARD:
		/*
		 * PSCI is reached through the conduit the DT names: SMC to
		 * firmware, relayed, or HVC to the hypervisor's own
		 * (dt_cpus.c).
		 */
		if (!(fid & SMCCC_FAST_CALL))
			break;
		if (smccc_conduit(frame) == (hyp_layout.psci_local ? CONDUIT_HVC :
							CONDUIT_SMC) &&
		    psci_call(hyp_layout.psci_local ? &psci_local_ops :
						      &psci_relay_ops,
			      frame, fid))
			return;
		break;
	case SMCCC_OWNER_VENDOR_HYP:
		if (fid & SMCCC_FAST_CALL) {
			vendor_hyp_call(frame, fid);
			return;
		}
		break;
	}
	/* Firmware services are reached by SMC, never by a call to us */
	if (smccc_conduit(frame) == CONDUIT_SMC &&
	    fw_forward_call(frame, fid))
		return;
not_supported:
	r[0] = (u64)SMCCC_RET_NOT_SUPPORTED;
}
