/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracing inside the hypervisor: the clock, the per-CPU writers and the
 * emitter for the events of shared/hyp_events.h.
 *
 *	hyp_trace(hyp_enter, .reason = HYP_REASON_HVC, .func_id = fid);
 *
 * A disabled event, or any event while tracing is off, costs one load and
 * one branch. An enabled one reads the clock and reserves room on this
 * CPU's buffer (hyp_trace_reserve(), one function for every site), stores
 * the payload in place and commits; nothing is copied. A traced SMCCC
 * call's hyp_enter and hyp_exit are written inline, without a call.
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
	 * mult / 2^shift as a 32.32 fixed-point number of nanoseconds per
	 * count, mult << (32 - shift): the kernel's clocks_calc_mult_shift()
	 * gives a shift of at most 32, and then a 128-bit product shifted by
	 * the constant 32 is exactly the host's (delta * mult) >> shift for
	 * any delta, with no test of its size (trace_clock_scale()).
	 */
	u64 scale;
	/* As the host gave them, for trace_clock.c's checks */
	u32 mult;
	u32 shift;
};

extern const struct hyp_clock *hyp_clock_cur;

_Static_assert(HYP_NR_EVENTS < 63, "hyp_cpu.trace_events: a bit per id");
#define HYP_EVENT_BIT(name)	(1ULL << HYP_EVENT_##name)
/*
 * Bit 0 of hyp_cpu.trace_events (no event has id 0): hyp_enter or hyp_exit
 * is on, the one bit an SMCCC call from EL1 tests before it goes its
 * untraced way (traps.c).
 */
#define HYP_TRACE_CALLS_BIT	1ULL
/*
 * Bit 63 (no event has that id): the hypervisor answers PSCI itself
 * (hyp_layout.psci_local), so a traced HVC tests here, in the word it
 * already holds, which reason its PSCI calls get (traps.c).
 */
#define HYP_TRACE_PSCI_LOCAL_SHIFT	63
#define HYP_TRACE_PSCI_LOCAL_BIT	(1ULL << HYP_TRACE_PSCI_LOCAL_SHIFT)

static inline u64 read_cntvct(void)
{
	u64 cyc;

	asm volatile("mrs %0, cntvct_el0" : "=r" (cyc));
	return cyc;
}

/*
 * What @clk stamps at counter value @cyc: mul, smulh and extr, no branch.
 * The delta is signed: a counter read a little before the bank's epoch
 * (the counter read is not ordered after the load of the bank) gives a
 * time just before epoch_ns, which the writer clamps, not one centuries
 * ahead. scale < 2^63 (trace_clock_scale()), so it is positive as an s64.
 */
static inline u64 hyp_clock_at(const struct hyp_clock *clk, u64 cyc)
{
	s64 delta = (s64)(cyc - clk->epoch_cyc);
	__int128 prod = (__int128)delta * (s64)clk->scale;

	return clk->epoch_ns + (u64)(prod >> 32);
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

/* trace_reserve.c: the clock and the room, NULL if the event is refused */
void *hyp_trace_reserve(struct hyp_cpu *cpu, u32 len);
void hyp_trace_commit(struct hyp_cpu *cpu);

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
		struct hyp_event_##name *__ev;				\
									\
		__ev = hyp_trace_reserve(cpu, sizeof(*__ev));		\
		if (__ev) {						\
			*__ev = (struct hyp_event_##name){		\
				.hdr.id = HYP_EVENT_##name,		\
				__VA_ARGS__				\
			};						\
			hyp_trace_commit(cpu);				\
		}							\
	}								\
} while (0)

/*
 * A traced call's hyp_enter and hyp_exit begin with the same eight payload
 * bytes but for the id: id, reason, func_id, which this builds as one
 * little-endian word, laid out as struct hyp_event_hyp_enter is. The call
 * keeps it in one register across its handler, and each event stores it
 * with its header by one pair store (rb_reserve_with()). hyp_exit's is
 * the word + 1: the next id.
 */
#define HYP_CALL_WORD_REASON	16	/* bit of hyp_enter.reason */
#define HYP_CALL_WORD_FUNC_ID	32	/* bit of hyp_enter.func_id */
_Static_assert(__builtin_offsetof(struct hyp_event_hyp_enter, reason) * 8 ==
	       HYP_CALL_WORD_REASON &&
	       __builtin_offsetof(struct hyp_event_hyp_enter, func_id) * 8 ==
	       HYP_CALL_WORD_FUNC_ID &&
	       __builtin_offsetof(struct hyp_event_hyp_exit, reason) * 8 ==
	       HYP_CALL_WORD_REASON &&
	       __builtin_offsetof(struct hyp_event_hyp_exit, func_id) * 8 ==
	       HYP_CALL_WORD_FUNC_ID &&
	       __builtin_offsetof(struct hyp_event_hyp_exit, ret) == 8,
	       "hyp_enter/hyp_exit: id, reason, func_id in one word");
_Static_assert(HYP_EVENT_hyp_exit == HYP_EVENT_hyp_enter + 1,
	       "hyp_exit's word is hyp_enter's + 1");

/* The low half, reason and id: for HYP_REASON_HVC one mov (0x10001) */
static inline u64 hyp_call_word_low(u16 reason)
{
	return (u64)reason << HYP_CALL_WORD_REASON | HYP_EVENT_hyp_enter;
}

/* @low from hyp_call_word_low(), then one orr with a shifted operand */
static inline u64 hyp_call_word(u64 low, u32 fid)
{
	return (u64)fid << HYP_CALL_WORD_FUNC_ID | low;
}

/*
 * A traced call's hyp_enter is not written when the call comes in: its
 * time and word wait in @cpu's struct, and are written with the call's
 * hyp_exit, the two under one claim, one reserve and one publish
 * (rb_write_pair()), some twenty instructions fewer a call (bench row 3c).
 * Whatever else this CPU writes first writes it first
 * (hyp_trace_reserve()): the firmware's hyp_exit and hyp_enter of a call
 * relayed to it, a decoded call's event. So does a PSCI call, which may
 * not return (CPU_OFF, a powerdown suspend, a reset: psci_call()), and a
 * panic (power_off()). The buffer holds the events in the order they
 * happened, at the times they happened; only a call's hyp_enter is
 * readable later, when the call returns.
 */
void hyp_trace_call_flush(struct hyp_cpu *cpu);
void hyp_trace_call_enter_write(struct hyp_cpu *cpu, u64 word);
/* One event of one or two payload words, out of line (trace_reserve.c) */
void hyp_trace_words(struct hyp_cpu *cpu, u32 len, u64 ts, u64 w0, u64 w1);
void hyp_trace_call_exit_slow(struct hyp_cpu *cpu, u64 enter_ts,
			      u64 enter_word, u64 ts, u64 ret);

/*
 * A call's hyp_enter, @word from hyp_call_word(); @events and @clk as
 * handle_trap() read them, with one ldp (hyp_trace_reload()): its time
 * and word, one pair store.
 */
static inline __always_inline void
hyp_trace_call_enter(struct hyp_cpu *cpu, u64 events,
		     const struct hyp_clock *clk, u64 word)
{
	_Static_assert(__builtin_offsetof(struct hyp_cpu, call_enter_word) ==
		       __builtin_offsetof(struct hyp_cpu, call_enter_ts) + 8,
		       "call_enter_ts and call_enter_word: one stp, one ldp");

	if (!HYP_TRACE_SITES || !(events & HYP_EVENT_BIT(hyp_enter)))
		return;
	cpu->call_enter_ts = hyp_clock_at(clk, read_cntvct());
	cpu->call_enter_word = word;
}

/*
 * Its hyp_exit, with the call's return value, and the hyp_enter if it
 * still waits. @events and @clk are @cpu's trace_events and trace_clock
 * read again after the call (the call may have changed them).
 */
static inline __always_inline void
hyp_trace_call_exit(struct hyp_cpu *cpu, u64 events,
		    const struct hyp_clock *clk, u64 word, s64 ret)
{
	u64 enter_ts, enter_word, ts;

	if (!HYP_TRACE_SITES)
		return;
	enter_ts = cpu->call_enter_ts;
	enter_word = cpu->call_enter_word;
	cpu->call_enter_word = 0;
	if (!(events & HYP_EVENT_BIT(hyp_exit))) {
		if (enter_word)
			hyp_trace_words(cpu, sizeof(struct hyp_event_hyp_enter),
					enter_ts, enter_word, 0);
		return;
	}
	ts = hyp_clock_at(clk, read_cntvct());
	/*
	 * Written already: by an event of the call's own, or at a PSCI call.
	 * Inline: every call relayed to firmware comes this way (the
	 * firmware's hyp_exit writes the waiting hyp_enter).
	 */
	if (!enter_word)
		rb_write_words(&cpu->trace_rb,
			       sizeof(struct hyp_event_hyp_exit), ts, 2,
			       word + 1, (u64)ret);
	else if (rb_write_pair(&cpu->trace_rb, enter_ts, enter_word, ts,
			       word + 1, (u64)ret) == RB_PAIR_SLOW)
		hyp_trace_call_exit_slow(cpu, enter_ts, enter_word, ts,
					 (u64)ret);
}

/*
 * The self-test event of HYPTRACE_CALL_TRACE_WRITE_EVENT, whose writing is
 * the whole point of its path: inline, as a call's hyp_exit is, its
 * payload two words in registers (rb_write_words()). `make bench` rows 1*
 * time it as the price of one event. Every other hyp_trace() site calls
 * hyp_trace_reserve(): some 20 instructions more an event (row 1d read 61
 * with this one calling too), and 2.4 KiB less image.
 */
static inline __always_inline void hyp_trace_selftest(u64 id)
{
	struct hyp_cpu *cpu;
	u64 word;

	_Static_assert(sizeof(struct hyp_event_selftest) == 16 &&
		       __builtin_offsetof(struct hyp_event_selftest, id) == 8,
		       "selftest: the id's word after the header's");
	if (!HYP_TRACE_SITES)
		return;
	cpu = this_cpu();
	if (!(READ_ONCE(cpu->trace_events) & HYP_EVENT_BIT(selftest)))
		return;
	word = READ_ONCE(cpu->call_enter_word);
	if (__builtin_expect(word != 0, 0))
		hyp_trace_call_enter_write(cpu, word);
	rb_write_words(&cpu->trace_rb, sizeof(struct hyp_event_selftest),
		       hyp_clock_ns_on(cpu), 2, HYP_EVENT_selftest, id);
}

/* @cpu's trace_events, and its trace_clock in @clk: one ldp (hyp.h) */
static inline u64 hyp_trace_reload(const struct hyp_cpu *cpu,
				   const struct hyp_clock **clk)
{
	u64 events;

	_Static_assert(__builtin_offsetof(struct hyp_cpu, trace_clock) ==
		       __builtin_offsetof(struct hyp_cpu, trace_events) + 8,
		       "trace_events and trace_clock: one ldp");
	asm volatile("ldp %0, %1, %2"
		     : "=r" (events), "=r" (*clk)
		     : "Ump" (cpu->trace_events), "m" (cpu->trace_clock));
	return events;
}

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
