/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracing inside the hypervisor: the clock, the per-CPU writers and the
 * emitter for the events of shared/hyp_events.h.
 *
 *	hyp_trace(hyp_enter, .reason = HYP_REASON_HVC, .func_id = fid);
 *
 * A disabled event, or any event while tracing is off, costs one load and
 * one branch. An enabled one reads the clock, reserves room on this CPU's
 * buffer, stores the payload in place and commits; nothing is copied and
 * nothing is called.
 *
 * HYP_TRACE_SITES=0 compiles every site out. That build exists only as the
 * baseline that `make bench` measures the cost of a disabled site against.
 */
#ifndef HYP_TRACE_H
#define HYP_TRACE_H

#include "cpus.h"
#include "shared/hyp_events.h"
#include "shared/ring_buffer.h"

/*
 * Counter to CLOCK_BOOTTIME nanoseconds, as the host module last said. The
 * host re-anchors it about every half second while tracing is on, from any
 * CPU. An update fills the bank no reader is pointed at and then publishes
 * it, so a reader never waits and never retries (a sequence count would
 * cost a barrier and a re-check on every event). A reader still on a bank
 * when the one after next is written, two updates inside one read of a few
 * dozen instructions, may mix two anchors: one event then carries a time
 * the host itself supplied, and the writer keeps timestamps monotonic. The
 * host steers no address this way.
 */
struct hyp_clock {
	u64 epoch_cyc;
	u64 epoch_ns;
	/*
	 * 32 bits, as the kernel's clocksource mult (trace_clock.c refuses
	 * more): a delta below 2^32 has a product that fits 64 bits, which
	 * a shift tests without a load. The two words are one ldp.
	 */
	u32 mult;
	u32 shift;
};

extern const struct hyp_clock *hyp_clock_cur;

_Static_assert(HYP_NR_EVENTS < 64, "hyp_cpu.trace_events: a bit per id");
#define HYP_EVENT_BIT(name)	(1ULL << HYP_EVENT_##name)
/*
 * Bit 0 of hyp_cpu.trace_events (no event has id 0): hyp_enter or hyp_exit
 * is on, the one bit an SMCCC call from EL1 tests before it goes its
 * untraced way (traps.c).
 */
#define HYP_TRACE_CALLS_BIT	1ULL

/*
 * A delta too large for a 64-bit product: a full 128-bit multiply, or a
 * counter behind the epoch (an epoch from the future), which gives a time
 * before epoch_ns rather than one centuries ahead. Inline, though rare: a
 * call here would make every trace site save registers it otherwise need
 * not.
 */
static inline u64 hyp_clock_ns_wide(const struct hyp_clock *clk, u64 delta)
{
	if ((s64)delta < 0)
		return -mul_u64_u64_shr(-delta, clk->mult, clk->shift);
	return mul_u64_u64_shr(delta, clk->mult, clk->shift);
}

static inline u64 read_cntvct(void)
{
	u64 cyc;

	asm volatile("mrs %0, cntvct_el0" : "=r" (cyc));
	return cyc;
}

/* What @clk stamps at counter value @cyc */
static inline u64 hyp_clock_at(const struct hyp_clock *clk, u64 cyc)
{
	/* Both words before the test: the compiler then pairs them */
	u64 epoch_cyc = clk->epoch_cyc, epoch_ns = clk->epoch_ns;
	u64 delta = cyc - epoch_cyc;

	if (__builtin_expect(delta >> 32, 0))
		return hyp_clock_ns_wide(clk, delta) + epoch_ns;
	return ((delta * clk->mult) >> clk->shift) + epoch_ns;
}

static inline u64 hyp_clock_ns(void)
{
	/*
	 * No acquire needed: the loads in hyp_clock_at() depend on the
	 * pointer's value, which arm64 orders after the pointer's load, as
	 * rcu_dereference() relies on.
	 */
	return hyp_clock_at(READ_ONCE(hyp_clock_cur), read_cntvct());
}

/* The same from @cpu's own pointer to the clock (trace_clock_publish()) */
static inline u64 hyp_clock_ns_on(const struct hyp_cpu *cpu)
{
	return hyp_clock_at(READ_ONCE(cpu->trace_clock), read_cntvct());
}

#ifndef HYP_TRACE_SITES
#define HYP_TRACE_SITES 1
#endif

/* Whether a hyp_trace(name, ...) here would record anything */
#define hyp_trace_on(name)						\
	(HYP_TRACE_SITES &&						\
	 (READ_ONCE(this_cpu()->trace_events) & HYP_EVENT_BIT(name)))

#define hyp_trace(name, ...)						\
do {									\
	struct hyp_cpu *__cpu;						\
									\
	if (!HYP_TRACE_SITES)	/* not even TPIDR_EL2's read */		\
		break;							\
	__cpu = this_cpu();						\
	hyp_trace_cpu(__cpu, READ_ONCE(__cpu->trace_events), name,	\
		      __VA_ARGS__);					\
} while (0)

/*
 * Everything an event needs is reached from @cpu, read from TPIDR_EL2 once
 * a site: the writer, the enabled events, the clock. @events is @cpu's
 * trace_events, which a path that loaded it to decide whether it is traced
 * at all passes on (traps.c).
 */
#define hyp_trace_cpu(cpu, events, name, ...)				\
do {									\
	if (HYP_TRACE_SITES && ((events) & HYP_EVENT_BIT(name))) {	\
		struct rb_cpu *__rb = &(cpu)->trace_rb;			\
		struct hyp_event_##name *__ev;				\
									\
		__ev = rb_reserve(__rb, sizeof(*__ev),			\
				  hyp_clock_ns_on(cpu));		\
		if (__ev) {						\
			*__ev = (struct hyp_event_##name){		\
				.hdr.id = HYP_EVENT_##name,		\
				__VA_ARGS__				\
			};						\
			rb_commit(__rb);				\
		}							\
	}								\
} while (0)

/* trace.c and trace_clock.c: the tracing hypercalls, HYPTRACE_RET_* codes */
struct trap_frame;
void trace_query(u64 *res);
s64 trace_load(u64 size, u64 flags, u64 *res);
s64 trace_unload(void);
s64 trace_enable(u64 enable);
s64 trace_swap_reader(u64 cpu, u64 flags, u64 read);
s64 trace_reset(u64 cpu);
s64 trace_hide_counters(u64 cpu, u64 hide);
s64 trace_enable_event(u64 id, u64 enable);
void trace_clock_unbind(void);
void trace_clock_bind_cpus(void);
void trace_clock_publish(const struct hyp_clock *next);
void trace_clock_lock(void);
void trace_clock_unlock(void);
const struct hyp_clock *trace_clock_next(u64 mult, u64 shift, u64 epoch_ns,
					 u64 epoch_cyc, s64 *ret);
s64 trace_early_start(u64 events, u64 size);
void trace_early_query(u64 *res);
bool trace_early_align(s64 offset, u64 now_ns, const struct hyp_clock *next,
		       u64 *res);
void trace_clock_early(void);
const char *trace_event_name(unsigned int id);
s64 trace_update_clock_res(u64 mult, u64 shift, u64 epoch_ns, u64 epoch_cyc,
			   u64 *res);

#endif /* HYP_TRACE_H */
