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

/*
 * The hypercalls that manage the trace, the log and the hypervisor's
 * state: a few a second at most. Built for size with this file; the hot
 * ones are vendor_hyp.h's, inline in smccc_handle_call().
 */
s64 vendor_hyp_manage(u64 *r, u32 fid)
{
	/*
	 * A call that manages the trace writes its waiting hyp_enter before
	 * it acts (trace.h): the call that stops tracing is then its CPU's
	 * last event, as it was before the two were written together
	 * (tests/boot/92-clock-align.sh aligns clocks by it)
	 */
	if (HYP_TRACE_SITES)
		hyp_trace_call_flush(this_cpu());
	switch (fid) {
	case HYPTRACE_CALL_TRACE_QUERY:
		trace_query(&r[1]);
		return HYPTRACE_RET_SUCCESS;
	case HYPTRACE_CALL_TRACE_LOAD:
		return trace_load(r[1], r[2], &r[1]);
	case HYPTRACE_CALL_TRACE_UNLOAD:
		return trace_unload();
	case HYPTRACE_CALL_TRACE_ENABLE:
		return trace_enable(r[1]);
	case HYPTRACE_CALL_TRACE_SWAP_READER:
		return trace_swap_reader(r[1], r[2], r[3]);
	case HYPTRACE_CALL_TRACE_RESET:
		return trace_reset(r[1]);
	case HYPTRACE_CALL_TRACE_ENABLE_EVENT:
		return trace_enable_event(r[1], r[2]);
	case HYPTRACE_CALL_TRACE_UPDATE_CLOCK:
		return trace_update_clock_res(r[1], r[2], r[3], r[4], &r[1]);
	case HYPTRACE_CALL_TRACE_HIDE_COUNTERS:
		return trace_hide_counters(r[1], r[2]);
	case HYPTRACE_CALL_CPU_MPIDR:
		return hyp_cpu_mpidr(r[1], &r[1]);
	case HYPTRACE_CALL_TRACE_EARLY:
		trace_early_query(&r[1]);
		return HYPTRACE_RET_SUCCESS;
	case HYPTRACE_CALL_TRACE_LAST_BOOT:
		return last_boot_op(r[1], r[2], &r[1]);
	case HYPTRACE_CALL_HYP_LOG:
		return hyp_log_call(r[1], r[2], &r[1]);
	case HYPTRACE_CALL_HOST_PANIC:
		trace_persist_clean();
		return HYPTRACE_RET_SUCCESS;
	case HYPTRACE_CALL_IMAGE_SUM:
		r[1] = image_sum(&r[2]);
		if (hyp_mem_canary_intact(&r[3]))
			r[3] = 0;
		return HYPTRACE_RET_SUCCESS;
	case HYPTRACE_CALL_MMIO_REGION:
		return mmio_region_call(r[1], r[2], r[3], r[4]);
	case HYPTRACE_CALL_MMIO_QUERY:
		return mmio_query_call(r[1], &r[1]);
	case HYPTRACE_CALL_MAINT_WINDOW:
		return maint_window_call(r[1], r[2], &r[1]);
	}
	return HYPTRACE_RET_NOT_SUPPORTED;
}
