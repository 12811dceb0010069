// SPDX-License-Identifier: GPL-2.0
/*
 * The trace clock: the architected counter turned into the host's
 * CLOCK_BOOTTIME nanoseconds with the mult/shift/epoch the host module
 * supplies (HYPTRACE_CALL_TRACE_UPDATE_CLOCK). Readers are in trace.h.
 */
#include "spinlock.h"
#include "trace.h"
#include "../shared/hyptrace_abi.h"

/* Until the host speaks, events carry the raw counter: mult 1, shift 0. */
static struct hyp_clock clock_banks[2] = {
	{ .mult = 1, .max_delta = ~0ULL },
};

const struct hyp_clock *hyp_clock_cur = &clock_banks[0];

static struct spinlock clock_lock;

s64 trace_update_clock(u64 mult, u64 shift, u64 epoch_ns, u64 epoch_cyc)
{
	struct hyp_clock *next;

	/* The kernel's clocksource mult is 32 bits; anything else is junk. */
	if (!mult || mult > 0xffffffffULL || shift >= 64)
		return HYPTRACE_RET_INVALID;

	spin_lock(&clock_lock);
	next = hyp_clock_cur == &clock_banks[0] ? &clock_banks[1] :
						  &clock_banks[0];
	next->mult = mult;
	next->shift = (u32)shift;
	next->epoch_ns = epoch_ns;
	next->epoch_cyc = epoch_cyc;
	next->max_delta = ~0ULL / mult;
	/* The bank's fields before the pointer that leads to them */
	__atomic_store_n(&hyp_clock_cur, next, __ATOMIC_RELEASE);
	spin_unlock(&clock_lock);
	return HYPTRACE_RET_SUCCESS;
}
