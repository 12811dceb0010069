// SPDX-License-Identifier: GPL-2.0
/*
 * HYPTRACE_CALL_TRACE_UPDATE_CLOCK: the host's clock, checked by the
 * clock (trace_clock.c), moves the early buffer's stamps onto it if it is
 * the first (trace.c), and is published. Above both, which call the
 * clock's lower half and never this.
 */
#include "sysregs.h"
#include "trace.h"
#include "shared/hyptrace_abi.h"

s64 trace_update_clock_res(u64 mult, u64 shift, u64 epoch_ns, u64 epoch_cyc,
			   u64 *res)
{
	const struct hyp_clock *next;
	u64 now, new_ns;
	s64 offset, ret;

	res[0] = 0;
	res[1] = 0;
	res[2] = 0;

	/* The kernel's clocksource mult is 32 bits; anything else is junk. */
	if (!mult || mult > 0xffffffffULL || shift >= 64)
		return HYPTRACE_RET_INVALID;

	trace_clock_lock();
	next = trace_clock_next(mult, shift, epoch_ns, epoch_cyc, &ret);
	if (next) {
		/* The first update with the early buffer loaded moves its stamps */
		now = read_cntvct();
		new_ns = hyp_clock_at(next, now);
		offset = (s64)(new_ns - hyp_clock_at(hyp_clock_cur, now));
		if (!trace_early_align(offset, new_ns, next, res))
			trace_clock_publish(next);
	}
	trace_clock_unlock();
	return ret;
}
