/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The vendor-specific hypervisor service: hyptrace's own hypercalls, as
 * declared in shared/hyptrace_abi.h. The hot ones here, the rest in
 * core/vendor_hyp.c; each handler checks its arguments, these only route
 * registers.
 */
#ifndef HYP_VENDOR_HYP_H
#define HYP_VENDOR_HYP_H

#include "hyp_layout.h"
#include "trace.h"
#include "trap.h"
#include "shared/hyptrace_abi.h"

s64 vendor_hyp_manage(u64 *r, u32 fid);

static inline void vendor_hyp_call(struct trap_frame *frame, u32 fid)
{
	u64 *r = frame->regs;
	s64 ret;

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
		r[1] = HYPTRACE_ABI_VERSION;
		r[2] = hyp_layout.nr_cpus;
		r[3] = HYPTRACE_FEATURE_TRACING;
		ret = HYPTRACE_RET_SUCCESS;
		break;
	case HYPTRACE_CALL_TRACE_WRITE_EVENT:
		hyp_trace_selftest(r[1]);
		ret = HYPTRACE_RET_SUCCESS;
		break;
	default:
		ret = vendor_hyp_manage(r, fid);
		break;
	}
	r[0] = (u64)ret;
}

#endif /* HYP_VENDOR_HYP_H */
