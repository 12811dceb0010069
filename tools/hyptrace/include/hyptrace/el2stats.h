/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Time spent in EL2, computed from the hypervisor's hyp_enter and hyp_exit
 * events: the pairing of enters with exits, percentiles (from a log-linear
 * histogram, loghist.h), a log2 histogram and per-function totals. Memory
 * grows with the CPUs and function IDs, not with the intervals. No I/O and no trace.dat here, so that the rules
 * can be unit tested on hand-made sequences (tests/tools/el2stats_test.c);
 * `hyptrace stats` (stats.c) feeds it records and prints the result.
 *
 * Pairing, per CPU: an interval in EL2 runs from a hyp_enter to the next
 * hyp_exit on the same CPU; it takes the enter's reason and function ID
 * (the exit's may differ: an SMC that ends in firmware exits as
 * "firmware"). Anything else is counted as unmatched, never paired:
 *   - an enter followed by another enter (the exit was lost, or the CPU
 *     went off to firmware without one);
 *   - an enter still open when a lost-events marker arrives on its CPU;
 *   - an enter still open at the end of the trace;
 *   - an exit with no open enter before it;
 *   - an enter and exit whose timestamps run backwards (both counted).
 */
#ifndef HYPTRACE_TOOLS_EL2STATS_H
#define HYPTRACE_TOOLS_EL2STATS_H

#include <stddef.h>
#include <stdint.h>

#include "hyptrace/loghist.h"

/* Slots 1..6 are enum hyp_reason; slot 0 takes any other value. */
#define EL2_NR_REASONS		7
#define EL2_REASON_UNKNOWN	0

/* Bucket b holds the durations whose bit width is b: 0, 1, [2,4), [4,8)... */
#define EL2_HIST_BUCKETS	65

enum el2_unmatched_enter {
	EL2_ENTER_THEN_ENTER,		/* another enter came first */
	EL2_ENTER_CUT_BY_LOST,		/* events were lost before the exit */
	EL2_ENTER_OPEN_AT_END,		/* the trace ended first */
	EL2_ENTER_TIME_BACKWARDS,	/* its exit is stamped before it */
	EL2_NR_UNMATCHED_ENTER,
};

enum el2_unmatched_exit {
	EL2_EXIT_NO_ENTER,		/* nothing open on its CPU */
	EL2_EXIT_TIME_BACKWARDS,	/* stamped before its enter */
	EL2_NR_UNMATCHED_EXIT,
};

/* The intervals of one CPU and one reason. */
struct el2_group {
	struct loghist lengths;		/* ns; count, min, max exact */
	uint64_t total_ns;
	uint64_t hist[EL2_HIST_BUCKETS];
	/* by the enter's (resp. the exit's) own reason */
	uint64_t unmatched_enter[EL2_NR_UNMATCHED_ENTER];
	uint64_t unmatched_exit[EL2_NR_UNMATCHED_EXIT];
};

/*
 * The pairing rules above, alone: one CPU's state, fed one record at a
 * time, for a caller that must know what became of each record rather
 * than the totals (`hyptrace perfetto` draws its slices from it).
 * el2stats_lost(), el2stats_enter(), el2stats_exit() and el2stats_finish() go through these,
 * so the two cannot pair differently.
 */
struct el2_pairing {
	int open;			/* an enter awaits its exit */
	uint64_t open_ts;
};

/* Events were lost: 1 when the open enter goes (EL2_ENTER_CUT_BY_LOST) */
int el2stats_pair_lost(struct el2_pairing *p);
/* An enter: 1 when the enter open before it goes (EL2_ENTER_THEN_ENTER) */
int el2stats_pair_enter(struct el2_pairing *p, uint64_t ts);
/*
 * An exit: -1 when it closes the open enter, *@ns then the time between
 * them; else the enum el2_unmatched_exit saying why it closes none. With
 * EL2_EXIT_TIME_BACKWARDS the open enter goes too (EL2_ENTER_TIME_BACKWARDS).
 */
int el2stats_pair_exit(struct el2_pairing *p, uint64_t ts, uint64_t *ns);
/* The trace ends: 1 when an enter was open (EL2_ENTER_OPEN_AT_END) */
int el2stats_pair_end(struct el2_pairing *p);

struct el2_cpu {
	struct el2_group reason[EL2_NR_REASONS];
	struct el2_pairing pairing;
	uint16_t open_reason;		/* of the open enter */
	uint32_t open_func_id;
	uint64_t lost_markers;		/* records that followed a loss */
	uint64_t lost_events;		/* sum of the known counts */
	uint64_t lost_unknown;		/* markers without a count */
};

/*
 * Distinct (reason, function ID) keys counted one by one; the intervals of
 * any further key go to el2_stats.funcs_other. A hypervisor has a few
 * hundred at most, but a damaged or made-up trace could bring a new one
 * with every interval, and memory must not grow with the intervals.
 */
#define EL2_FUNCS_MAX		16384

/* The intervals of one (enter reason, function ID) over all CPUs. */
struct el2_func {
	uint16_t reason;
	uint32_t func_id;
	uint64_t count;
	uint64_t total_ns;
	uint64_t max_ns;
};

struct el2_stats {
	unsigned int nr_cpus;
	struct el2_cpu *cpus;
	struct el2_func *funcs;		/* open-addressed hash, count 0 = free */
	size_t funcs_cap;		/* power of two */
	size_t nr_funcs;		/* at most EL2_FUNCS_MAX */
	struct el2_func funcs_other;	/* count, total, max of the rest */
	int finished;
};

struct el2_summary {
	uint64_t count;
	uint64_t total_ns;
	uint64_t min_ns, max_ns;	/* 0 when count is 0 */
	/* nearest rank, within 1/256 of the exact value (loghist.h) */
	uint64_t p50_ns, p99_ns;
	double mean_ns;
	uint64_t hist[EL2_HIST_BUCKETS];
	uint64_t unmatched_enter[EL2_NR_UNMATCHED_ENTER];
	uint64_t unmatched_exit[EL2_NR_UNMATCHED_EXIT];
};

/* 0, or -1 when out of memory. */
int el2stats_init(struct el2_stats *s, unsigned int nr_cpus);
void el2stats_free(struct el2_stats *s);

/*
 * Feed one CPU's records in its time order; @cpu < nr_cpus. el2stats_lost()
 * comes before the record the marker belongs to, with the number lost or
 * UINT64_MAX when unknown. 0, or -1 when out of memory.
 */
void el2stats_lost(struct el2_stats *s, unsigned int cpu, uint64_t nr_lost);
int el2stats_enter(struct el2_stats *s, unsigned int cpu, uint64_t ts,
	      uint16_t reason, uint32_t func_id);
int el2stats_exit(struct el2_stats *s, unsigned int cpu, uint64_t ts,
	     uint16_t reason);

/* End of the trace: close the open enters. Feeding stops here. */
void el2stats_finish(struct el2_stats *s);

/*
 * Sum of one CPU (or all, @cpu -1) and one reason slot (or all, @reason
 * -1), after el2stats_finish(). 0, or -1 when out of memory.
 */
int el2stats_summarize(const struct el2_stats *s, int cpu, int reason,
		  struct el2_summary *out);
/* The same without min, max and percentiles (left 0): no memory */
void el2stats_count(const struct el2_stats *s, int cpu, int reason,
	       struct el2_summary *out);

/*
 * The functions sorted by count (or by total time), ties by the other
 * figure then by reason and ID. Fills at most @max entries of @out (all
 * when @max is 0) and returns how many; -1 when out of memory (*@out NULL).
 * Free *@out.
 */
long el2stats_top_funcs(const struct el2_stats *s, int by_time, size_t max,
		   struct el2_func **out);

/* ---- the pure helpers, exported for the unit test ---- */

/* Slot of a reason value: itself for 1..5, EL2_REASON_UNKNOWN otherwise. */
unsigned int el2stats_reason_slot(uint64_t reason);
const char *el2stats_reason_name(unsigned int slot);	/* "hvc", ..., "unknown" */

unsigned int el2stats_hist_bucket(uint64_t ns);
uint64_t el2stats_hist_lo(unsigned int bucket);	/* smallest value in it */
uint64_t el2stats_hist_hi(unsigned int bucket);	/* largest value in it */

/*
 * A name for the function: the SMCCC/PSCI/hyptrace call's name, "ESR_EC
 * 0xNN" for a trap (whose func_id is the exception class), else the SMCCC
 * owner and function number. Returns @buf.
 */
const char *el2names_func_name(unsigned int reason_slot, uint32_t func_id,
			  char *buf, size_t len);

#endif /* HYPTRACE_TOOLS_EL2STATS_H */
