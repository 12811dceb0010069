// SPDX-License-Identifier: GPL-2.0
/*
 * The trace clock: the architected counter turned into the host's
 * CLOCK_BOOTTIME nanoseconds with the mult/shift/epoch the host module
 * supplies (HYPTRACE_CALL_TRACE_UPDATE_CLOCK). Readers are in trace.h.
 *
 * The writer keeps each CPU's timestamps monotonic, so a clock moved
 * backwards freezes every later stamp until time catches up again, and a
 * step of 2^59 ns between two events does not fit an event's time extend
 * and costs a page. An update is therefore checked against the clock it
 * replaces, both read at the current counter value: the new one may not
 * be behind, nor ahead by more than HYPTRACE_CLOCK_MAX_STEP_NS, and it must
 * run at one second per second of counter, give or take
 * 1/HYPTRACE_CLOCK_RATE_SLACK, so that no later moment can step either.
 * The first update after TRACE_LOAD is free: its buffer holds no stamp yet,
 * and the clock before it may be the boot clock (raw counter values) or a
 * previous user's. So is the first one while the early buffer is loaded:
 * its stamps are on the early clock (nanoseconds of counter at CNTFRQ_EL0
 * from 0) and move onto the new one with it (trace_early_align()).
 */
#include "cpus.h"
#include "hyp_layout.h"
#include "spinlock.h"
#include "sysregs.h"
#include "trace.h"
#include "shared/hyptrace_abi.h"

/* Until the host speaks, events carry the raw counter: mult 1, shift 0. */
static struct hyp_clock clock_banks[2] = {
	{ .mult = 1, .scale = 1ULL << 32 },
};

const struct hyp_clock *hyp_clock_cur = &clock_banks[0];

static struct spinlock clock_lock;

/* The next update is not bounded by the current clock (see above) */
static bool clock_free = true;

/*
 * Under clock_lock. @next's fields before the pointers that lead to it:
 * the global one for the clock's own users (hyp_clock_ns()), and each
 * CPU's, which its trace sites reach from the pointer they already hold
 * (hyp_clock_ns_on()). A site reads either the old bank or the new one.
 */
void trace_clock_publish(const struct hyp_clock *next)
{
	unsigned int i;

	__atomic_store_n(&hyp_clock_cur, next, __ATOMIC_RELEASE);
	for (i = 0; i < hyp_layout.nr_cpus; i++)
		__atomic_store_n(&hyp_cpus[i].trace_clock, next,
				 __ATOMIC_RELEASE);
}

/* A buffer was loaded: nothing is stamped yet with the current clock */
void trace_clock_unbind(void)
{
	WRITE_ONCE(clock_free, true);
}

/*
 * Every CPU's pointer at the current clock: at the start of every
 * TRACE_LOAD, so before any buffer can be enabled; from then on each
 * update sets them all. Not under the trace lock: an update takes the
 * clock's lock first and the trace lock inside it.
 */
void trace_clock_bind_cpus(void)
{
	spin_lock(&clock_lock);
	trace_clock_publish(hyp_clock_cur);
	spin_unlock(&clock_lock);
}

/*
 * mult / 2^shift in 32.32 fixed point (struct hyp_clock), or 0 if it does
 * not fit below 2^63: more than 2^31 ns a count, which no counter of at
 * least one tick a second can need. Exact for a shift up to 32 (the
 * kernel's clocks_calc_mult_shift() never gives more); a larger one loses
 * its bits beyond the 32 fractional ones, below 2^-32 ns a count.
 */
static u64 trace_clock_scale(u32 mult, u32 shift)
{
	if (shift > 32)
		return (u64)mult >> (shift - 32);
	if (shift < 32 && (u64)mult >> (31 + shift))
		return 0;
	return (u64)mult << (32 - shift);
}

/* @next's nanoseconds per second of counter are within the slack of 10^9 */
static bool clock_rate_ok(const struct hyp_clock *next)
{
	u64 freq = read_sysreg(cntfrq_el0);
	u64 rate, slack = 1000000000ULL / HYPTRACE_CLOCK_RATE_SLACK;

	/* No rate to check against: a firmware bug Linux warns about */
	if (!freq)
		return true;
	rate = mul_u64_u64_shr(freq, next->mult, next->shift);
	return rate >= 1000000000ULL - slack && rate <= 1000000000ULL + slack;
}

/*
 * Early capture stamps with the counter at CNTFRQ_EL0 from 0, so that
 * its events are already nanoseconds, on a clock a constant away from the
 * host's: the first update moves them by that constant. At boot, on the
 * boot CPU, before any event. mult/shift as the kernel's
 * clocks_calc_mult_shift() would choose for 10 minutes: a 32-bit mult.
 */
void trace_clock_early(void)
{
	struct hyp_clock *clk = &clock_banks[0];
	u64 freq = read_sysreg(cntfrq_el0);
	u32 shift = 32;

	/* No rate: the raw counter, as before any update */
	if (!freq)
		return;
	while (shift && ((1000000000ULL << shift) / freq) > 0xffffffffULL)
		shift--;
	clk->mult = (1000000000ULL << shift) / freq;
	clk->shift = shift;
	clk->scale = trace_clock_scale(clk->mult, shift);
	clk->epoch_ns = 0;
	clk->epoch_cyc = 0;
}

void trace_clock_lock(void)
{
	spin_lock(&clock_lock);
}

void trace_clock_unlock(void)
{
	spin_unlock(&clock_lock);
}

/*
 * Under trace_clock_lock(): the bank not in use, filled with the host's
 * clock, once checked against the current one (see above); NULL, and
 * *@ret the reason, if it does not pass. The caller publishes it
 * (trace_clock_update.c).
 */
const struct hyp_clock *trace_clock_next(u64 mult, u64 shift, u64 epoch_ns,
					 u64 epoch_cyc, s64 *ret)
{
	struct hyp_clock *next;
	u64 now, old_ns, new_ns;

	*ret = HYPTRACE_RET_CLOCK_STEP;
	next = hyp_clock_cur == &clock_banks[0] ? &clock_banks[1] :
						  &clock_banks[0];
	next->mult = (u32)mult;
	next->shift = (u32)shift;
	next->scale = trace_clock_scale(next->mult, next->shift);
	next->epoch_ns = epoch_ns;
	next->epoch_cyc = epoch_cyc;
	if (!next->scale || !clock_rate_ok(next))
		return NULL;
	if (!READ_ONCE(clock_free)) {
		now = read_cntvct();
		old_ns = hyp_clock_at(hyp_clock_cur, now);
		new_ns = hyp_clock_at(next, now);
		/* Differences, not comparisons: the stamps may wrap */
		if ((s64)(new_ns - old_ns) < 0 ||
		    new_ns - old_ns > HYPTRACE_CLOCK_MAX_STEP_NS)
			return NULL;
	}
	WRITE_ONCE(clock_free, false);
	*ret = HYPTRACE_RET_SUCCESS;
	return next;
}
