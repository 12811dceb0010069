// SPDX-License-Identifier: GPL-2.0
/*
 * The vendor-specific hypervisor service: hyptrace's own hypercalls, as
 * declared in shared/hyptrace_abi.h.
 */
#include "hyp.h"
#include "trap.h"
#include "../shared/hyptrace_abi.h"

void vendor_hyp_call(struct trap_frame *frame, u32 fid)
{
	u64 *r = frame->regs;

	switch (fid) {
	case HYPTRACE_CALL_UID:
		r[0] = HYPTRACE_UID_0;
		r[1] = HYPTRACE_UID_1;
		r[2] = HYPTRACE_UID_2;
		r[3] = HYPTRACE_UID_3;
		return;
	case HYPTRACE_CALL_REVISION:
		r[0] = HYPTRACE_ABI_MAJOR;
		r[1] = HYPTRACE_ABI_MINOR;
		return;
	case HYPTRACE_CALL_VERSION:
		r[0] = SMCCC_RET_SUCCESS;
		r[1] = HYPTRACE_ABI_VERSION;
		r[2] = hyp_layout.nr_cpus;
		r[3] = HYPTRACE_FEATURE_NONE;
		return;
	}
	r[0] = (u64)SMCCC_RET_NOT_SUPPORTED;
}
