// SPDX-License-Identifier: GPL-2.0
/*
 * The vendor-specific hypervisor service: hyptrace's own hypercalls, as
 * declared in shared/hyptrace_abi.h. Each handler checks its arguments;
 * this file only routes registers.
 */
#include "canary.h"
#include "cpus.h"
#include "hyp_layout.h"
#include "hyp_log.h"
#include "hyp_mem.h"
#include "mmio_trace.h"
#include "trace.h"
#include "trace_persist.h"
#include "trap.h"
#include "shared/hyptrace_abi.h"

/*
 * HYPTRACE_CALL_TRACE_LAST_BOOT. Released pages are free: no later boot
 * may show them. Here, not in last_boot.c, which the trace (trace.c) asks
 * where the kept pages are: the two do not call each other.
 */
static s64 last_boot_op(u64 op, u64 cpu, u64 *res)
{
	s64 ret = last_boot_call(op, cpu, res);

	if (op == HYPTRACE_LAST_BOOT_RELEASE && !ret)
		trace_persist_release();
	return ret;
}

void vendor_hyp_call(struct trap_frame *frame, u32 fid)
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
	case HYPTRACE_CALL_TRACE_QUERY:
		trace_query(&r[1]);
		ret = HYPTRACE_RET_SUCCESS;
		break;
	case HYPTRACE_CALL_TRACE_LOAD:
		ret = trace_load(r[1], r[2], &r[1]);
		break;
	case HYPTRACE_CALL_TRACE_UNLOAD:
		ret = trace_unload();
		break;
	case HYPTRACE_CALL_TRACE_ENABLE:
		ret = trace_enable(r[1]);
		break;
	case HYPTRACE_CALL_TRACE_SWAP_READER:
		ret = trace_swap_reader(r[1], r[2], r[3]);
		break;
	case HYPTRACE_CALL_TRACE_RESET:
		ret = trace_reset(r[1]);
		break;
	case HYPTRACE_CALL_TRACE_ENABLE_EVENT:
		ret = trace_enable_event(r[1], r[2]);
		break;
	case HYPTRACE_CALL_TRACE_UPDATE_CLOCK:
		ret = trace_update_clock_res(r[1], r[2], r[3], r[4], &r[1]);
		break;
	case HYPTRACE_CALL_TRACE_WRITE_EVENT:
		hyp_trace(selftest, .id = r[1]);
		ret = HYPTRACE_RET_SUCCESS;
		break;
	case HYPTRACE_CALL_TRACE_HIDE_COUNTERS:
		ret = trace_hide_counters(r[1], r[2]);
		break;
	case HYPTRACE_CALL_CPU_MPIDR:
		ret = hyp_cpu_mpidr(r[1], &r[1]);
		break;
	case HYPTRACE_CALL_TRACE_EARLY:
		trace_early_query(&r[1]);
		ret = HYPTRACE_RET_SUCCESS;
		break;
	case HYPTRACE_CALL_TRACE_LAST_BOOT:
		ret = last_boot_op(r[1], r[2], &r[1]);
		break;
	case HYPTRACE_CALL_HYP_LOG:
		ret = hyp_log_call(r[1], r[2], &r[1]);
		break;
	case HYPTRACE_CALL_HOST_PANIC:
		trace_persist_clean();
		ret = HYPTRACE_RET_SUCCESS;
		break;
	case HYPTRACE_CALL_IMAGE_SUM:
		r[1] = image_sum(&r[2]);
		if (hyp_mem_canary_intact(&r[3]))
			r[3] = 0;
		ret = HYPTRACE_RET_SUCCESS;
		break;
	case HYPTRACE_CALL_MMIO_REGION:
		ret = mmio_region_call(r[1], r[2], r[3], r[4]);
		break;
	case HYPTRACE_CALL_MMIO_QUERY:
		ret = mmio_query_call(r[1], &r[1]);
		break;
	case HYPTRACE_CALL_MAINT_WINDOW:
		ret = maint_window_call(r[1], r[2], &r[1]);
		break;
	default:
		ret = HYPTRACE_RET_NOT_SUPPORTED;
		break;
	}
	r[0] = (u64)ret;
}
