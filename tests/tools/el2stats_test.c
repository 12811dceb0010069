// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of tools/hyptrace/lib/el2stats.c, the pairing and arithmetic
 * behind `hyptrace stats`: hand-made enter/exit sequences (the tracing guide's
 * firmware round trips, lost events, unpaired enters and exits, time
 * running backwards) with the figures worked out by hand, plus the
 * histogram and naming helpers on their edge values. Percentiles come
 * from lib/loghist.c (its own test: loghist_test.c) and are checked here
 * within its bound, 1/256 of the exact value.
 *
 * Built with tools/hyptrace/lib/el2stats.c, loghist.c and el2names.c, and
 * -Itools/hyptrace/lib -Ishared (t-stats.sh does it when no Makefile has).
 * Reports in KTAP (tests/include/check.h): a test point per test_*().
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hyptrace/el2stats.h"

/* a percentile: within 1/256 of the exact nearest-rank value */
#define EXPECT_NEAR(a, b) expect_near((uint64_t)(a), (uint64_t)(b), #a, __LINE__)

static void expect_near(uint64_t got, uint64_t want, const char *what,
			int line)
{
	uint64_t err = got > want ? got - want : want - got;

	ck.checks++;
	if ((unsigned __int128)err * 256 > want)
		ck_fail(__FILE__, line, "%s = %" PRIu64 ", want %" PRIu64
			" within 1/256", what, got, want);
}

enum { HVC = 1, SMC = 2, PSCI = 3, FIRMWARE = 4, TRAP = 5 };

static void test_histogram_buckets(void)
{
	unsigned int b;

	EXPECT_EQ(el2stats_hist_bucket(0), 0);
	EXPECT_EQ(el2stats_hist_bucket(1), 1);
	EXPECT_EQ(el2stats_hist_bucket(2), 2);
	EXPECT_EQ(el2stats_hist_bucket(3), 2);
	EXPECT_EQ(el2stats_hist_bucket(4), 3);
	EXPECT_EQ(el2stats_hist_bucket(1023), 10);
	EXPECT_EQ(el2stats_hist_bucket(1024), 11);
	EXPECT_EQ(el2stats_hist_bucket(UINT64_MAX), 64);
	EXPECT_EQ(el2stats_hist_lo(0), 0);
	EXPECT_EQ(el2stats_hist_hi(0), 0);
	EXPECT_EQ(el2stats_hist_lo(64), 1ULL << 63);
	EXPECT_EQ(el2stats_hist_hi(64), UINT64_MAX);
	/* every bucket starts right after the one before it ends */
	for (b = 1; b < EL2_HIST_BUCKETS; b++) {
		EXPECT_EQ(el2stats_hist_lo(b), el2stats_hist_hi(b - 1) + 1);
		EXPECT_EQ(el2stats_hist_bucket(el2stats_hist_lo(b)), b);
		EXPECT_EQ(el2stats_hist_bucket(el2stats_hist_hi(b)), b);
	}
}

static void test_names(void)
{
	char buf[48];

	EXPECT_EQ(el2stats_reason_slot(0), EL2_REASON_UNKNOWN);
	EXPECT_EQ(el2stats_reason_slot(3), 3);
	EXPECT_EQ(el2stats_reason_slot(6), 6);
	EXPECT_EQ(el2stats_reason_slot(7), EL2_REASON_UNKNOWN);
	EXPECT(!strcmp(el2stats_reason_name(6), "psci_local"));
	EXPECT_EQ(el2stats_reason_slot(0x10002), EL2_REASON_UNKNOWN);
	EXPECT(!strcmp(el2stats_reason_name(1), "hvc"));
	EXPECT(!strcmp(el2stats_reason_name(4), "firmware"));
	EXPECT(!strcmp(el2stats_reason_name(99), "unknown"));

#define NAME_IS(reason, id, want) \
	EXPECT(!strcmp(el2names_func_name((reason), (id), buf, sizeof(buf)), (want)))
	NAME_IS(SMC, 0x84000000, "PSCI_VERSION");
	NAME_IS(SMC, 0xc4000001, "CPU_SUSPEND");
	NAME_IS(SMC, 0x84000002, "CPU_OFF");
	NAME_IS(FIRMWARE, 0xc4000003, "CPU_ON");
	NAME_IS(PSCI, 0xc4000003, "CPU_ON");
	NAME_IS(SMC, 0xc4000004, "AFFINITY_INFO");
	NAME_IS(SMC, 0x84000008, "SYSTEM_OFF");
	NAME_IS(SMC, 0x84000009, "SYSTEM_RESET");
	NAME_IS(SMC, 0x8400000a, "PSCI_FEATURES");
	NAME_IS(SMC, 0x80000000, "SMCCC_VERSION");
	NAME_IS(HVC, 0x80000001, "SMCCC_ARCH_FEATURES");
	NAME_IS(HVC, 0x80008000, "ARCH_WORKAROUND_1");
	NAME_IS(HVC, 0x80007fff, "ARCH_WORKAROUND_2");
	NAME_IS(HVC, 0x80003fff, "ARCH_WORKAROUND_3");
	NAME_IS(SMC, 0x84000050, "TRNG_VERSION");
	NAME_IS(HVC, 0xc6000000, "HYPTRACE_VERSION");
	NAME_IS(HVC, 0xc6000001, "HYPTRACE_TRACE_QUERY");
	NAME_IS(HVC, 0xc6000004, "HYPTRACE_TRACE_ENABLE");
	NAME_IS(HVC, 0xc6000009, "HYPTRACE_TRACE_WRITE_EVENT");
	NAME_IS(HVC, 0x8600ff01, "HYPTRACE_CALL_UID");
	NAME_IS(HVC, 0xc6000123, "vendor-hyp64 fn 0x0123");
	NAME_IS(SMC, 0x82000010, "sip fn 0x0010");
	NAME_IS(TRAP, 0x18, "ESR_EC 0x18");
	/* a short buffer is cut, not overrun */
	EXPECT(strlen(el2names_func_name(HVC, 0xc6000004, buf, 5)) == 4);
}

/* The hotplug excerpt of Documentation/guides/tracing.md, timestamps in ns */
static void test_readme_sequence(void)
{
	struct el2_stats s;
	struct el2_summary sum;
	struct el2_func *top;
	long n;

	EXPECT_EQ(el2stats_init(&s, 4), 0);
	el2stats_enter(&s, 2, 3113266000, SMC, 0x84000002);
	el2stats_exit(&s, 2, 3113333000, FIRMWARE);
	el2stats_enter(&s, 1, 3125305000, SMC, 0xc4000003);
	el2stats_exit(&s, 1, 3125308000, FIRMWARE);
	el2stats_enter(&s, 1, 3125316000, FIRMWARE, 0xc4000003);
	el2stats_exit(&s, 1, 3125318000, SMC);
	el2stats_enter(&s, 2, 3125617000, PSCI, 0xc4000003);
	el2stats_exit(&s, 2, 3125756000, PSCI);
	el2stats_finish(&s);

	EXPECT_EQ(el2stats_summarize(&s, -1, -1, &sum), 0);
	EXPECT_EQ(sum.count, 4);
	EXPECT_EQ(sum.total_ns, 67000 + 3000 + 2000 + 139000);
	EXPECT_EQ(sum.min_ns, 2000);
	EXPECT_EQ(sum.max_ns, 139000);
	EXPECT_NEAR(sum.p50_ns, 3000);
	EXPECT_EQ(sum.p99_ns, 139000);		/* the last rank: the max */
	EXPECT_EQ(sum.unmatched_enter[EL2_ENTER_OPEN_AT_END], 0);
	EXPECT_EQ(sum.unmatched_exit[EL2_EXIT_NO_ENTER], 0);

	/* CPU 1: one smc interval (to firmware) and one firmware interval */
	el2stats_summarize(&s, 1, SMC, &sum);
	EXPECT_EQ(sum.count, 1);
	EXPECT_EQ(sum.total_ns, 3000);
	el2stats_summarize(&s, 1, FIRMWARE, &sum);
	EXPECT_EQ(sum.count, 1);
	EXPECT_EQ(sum.total_ns, 2000);
	el2stats_summarize(&s, 2, -1, &sum);
	EXPECT_EQ(sum.count, 2);
	EXPECT_EQ(sum.total_ns, 67000 + 139000);
	EXPECT_EQ(sum.hist[el2stats_hist_bucket(67000)], 1);
	EXPECT_EQ(sum.hist[el2stats_hist_bucket(139000)], 1);
	el2stats_summarize(&s, 0, -1, &sum);
	EXPECT_EQ(sum.count, 0);
	EXPECT_EQ(sum.max_ns, 0);

	/* by count: 3 keys of 1 each, ties by time: psci CPU_ON first */
	n = el2stats_top_funcs(&s, 0, 0, &top);
	EXPECT_EQ(n, 4);
	if (n == 4) {
		EXPECT_EQ(top[0].reason, PSCI);
		EXPECT_EQ(top[0].func_id, 0xc4000003);
		EXPECT_EQ(top[1].func_id, 0x84000002);
		EXPECT_EQ(top[1].total_ns, 67000);
		EXPECT_EQ(top[3].reason, FIRMWARE);
	}
	free(top);
	n = el2stats_top_funcs(&s, 1, 2, &top);
	EXPECT_EQ(n, 2);
	if (n == 2)
		EXPECT_EQ(top[1].max_ns, 67000);
	free(top);
	el2stats_free(&s);
}

/* Every way an enter or exit stays alone, on one CPU */
static void test_unmatched(void)
{
	struct el2_stats s;
	struct el2_summary sum;

	EXPECT_EQ(el2stats_init(&s, 2), 0);
	el2stats_exit(&s, 0, 100, HVC);			/* no enter yet */
	el2stats_enter(&s, 0, 200, HVC, 0xc6000004);	/* then another enter */
	el2stats_enter(&s, 0, 300, SMC, 0x84000002);	/* paired with 350 */
	el2stats_exit(&s, 0, 350, FIRMWARE);
	el2stats_exit(&s, 0, 360, SMC);			/* no enter again */
	el2stats_enter(&s, 0, 400, HVC, 0xc6000001);
	el2stats_lost(&s, 0, 12);				/* cuts the enter */
	el2stats_exit(&s, 0, 500, HVC);			/* so: no enter */
	el2stats_enter(&s, 0, 600, TRAP, 0x18);
	el2stats_exit(&s, 0, 590, TRAP);			/* backwards: both */
	el2stats_enter(&s, 0, 700, HVC, 0xc6000001);	/* paired with 710 */
	el2stats_lost(&s, 0, 0);				/* no loss: no effect */
	el2stats_exit(&s, 0, 710, HVC);
	el2stats_lost(&s, 0, UINT64_MAX);			/* unknown count */
	el2stats_enter(&s, 0, 800, 77, 0);			/* odd reason, open */

	el2stats_enter(&s, 1, 50, PSCI, 0xc4000003);	/* CPU 1: open at end */
	el2stats_lost(&s, 2, 5);				/* no CPU 2: ignored */
	EXPECT_EQ(el2stats_enter(&s, 2, 0, HVC, 0), 0);
	el2stats_finish(&s);
	/* fed after the end: ignored */
	el2stats_exit(&s, 1, 60, PSCI);

	el2stats_summarize(&s, 0, -1, &sum);
	EXPECT_EQ(sum.count, 2);
	EXPECT_EQ(sum.total_ns, 50 + 10);
	EXPECT_EQ(sum.unmatched_enter[EL2_ENTER_THEN_ENTER], 1);
	EXPECT_EQ(sum.unmatched_enter[EL2_ENTER_CUT_BY_LOST], 1);
	EXPECT_EQ(sum.unmatched_enter[EL2_ENTER_OPEN_AT_END], 1);
	EXPECT_EQ(sum.unmatched_enter[EL2_ENTER_TIME_BACKWARDS], 1);
	EXPECT_EQ(sum.unmatched_exit[EL2_EXIT_NO_ENTER], 3);
	EXPECT_EQ(sum.unmatched_exit[EL2_EXIT_TIME_BACKWARDS], 1);
	EXPECT_EQ(s.cpus[0].lost_markers, 2);
	EXPECT_EQ(s.cpus[0].lost_events, 12);
	EXPECT_EQ(s.cpus[0].lost_unknown, 1);

	/* unmatched enters count under their own reason, exits under theirs */
	el2stats_summarize(&s, 0, HVC, &sum);
	EXPECT_EQ(sum.count, 1);
	EXPECT_EQ(sum.unmatched_enter[EL2_ENTER_THEN_ENTER], 1);
	EXPECT_EQ(sum.unmatched_enter[EL2_ENTER_CUT_BY_LOST], 1);
	EXPECT_EQ(sum.unmatched_exit[EL2_EXIT_NO_ENTER], 2);
	el2stats_summarize(&s, 0, SMC, &sum);
	EXPECT_EQ(sum.count, 1);
	EXPECT_EQ(sum.total_ns, 50);
	EXPECT_EQ(sum.unmatched_exit[EL2_EXIT_NO_ENTER], 1);
	el2stats_summarize(&s, 0, TRAP, &sum);
	EXPECT_EQ(sum.count, 0);
	EXPECT_EQ(sum.unmatched_enter[EL2_ENTER_TIME_BACKWARDS], 1);
	EXPECT_EQ(sum.unmatched_exit[EL2_EXIT_TIME_BACKWARDS], 1);
	el2stats_summarize(&s, 0, EL2_REASON_UNKNOWN, &sum);
	EXPECT_EQ(sum.unmatched_enter[EL2_ENTER_OPEN_AT_END], 1);

	el2stats_summarize(&s, 1, -1, &sum);
	EXPECT_EQ(sum.count, 0);
	EXPECT_EQ(sum.unmatched_enter[EL2_ENTER_OPEN_AT_END], 1);
	EXPECT_EQ(sum.unmatched_exit[EL2_EXIT_NO_ENTER], 0);
	EXPECT_EQ(s.cpus[1].lost_markers, 0);
	el2stats_free(&s);
}

/* Many intervals over CPUs and reasons: merged percentiles, top lists */
static void test_many(void)
{
	struct el2_stats s;
	struct el2_summary sum;
	struct el2_func *top;
	uint64_t ts = 1000, total = 0;
	unsigned int i;
	long n;

	EXPECT_EQ(el2stats_init(&s, 3), 0);
	/* 1..300 ns: CPU i % 3, hvc for even lengths, smc for odd ones */
	for (i = 1; i <= 300; i++) {
		unsigned int cpu = i % 3;

		el2stats_enter(&s, cpu, ts, i % 2 ? SMC : HVC, 0xc6000000 + i % 7);
		EXPECT_EQ(el2stats_exit(&s, cpu, ts + i, HVC), 0);
		ts += 1000;
		total += i;
	}
	el2stats_finish(&s);
	el2stats_summarize(&s, -1, -1, &sum);
	EXPECT_EQ(sum.count, 300);
	EXPECT_EQ(sum.total_ns, total);
	EXPECT_EQ(sum.min_ns, 1);
	EXPECT_EQ(sum.p50_ns, 150);		/* exact below 256 */
	EXPECT_NEAR(sum.p99_ns, 297);
	EXPECT_EQ(sum.max_ns, 300);
	EXPECT(sum.mean_ns > 150.49 && sum.mean_ns < 150.51);
	EXPECT_EQ(sum.hist[9], 300 - 255);	/* 256..300 */
	EXPECT_EQ(sum.hist[1], 1);
	el2stats_count(&s, -1, -1, &sum);
	EXPECT_EQ(sum.count, 300);
	EXPECT_EQ(sum.total_ns, total);
	EXPECT_EQ(sum.hist[9], 300 - 255);
	EXPECT_EQ(sum.p50_ns, 0);
	EXPECT_EQ(sum.max_ns, 0);
	el2stats_summarize(&s, -1, HVC, &sum);
	EXPECT_EQ(sum.count, 150);
	EXPECT_EQ(sum.min_ns, 2);
	EXPECT_EQ(sum.p50_ns, 150);
	EXPECT_EQ(sum.max_ns, 300);
	el2stats_summarize(&s, 1, SMC, &sum);	/* i = 1, 7, 13, ... 295 */
	EXPECT_EQ(sum.count, 50);
	EXPECT_EQ(sum.min_ns, 1);
	EXPECT_EQ(sum.max_ns, 295);
	EXPECT_EQ(sum.p50_ns, 1 + 24 * 6);

	n = el2stats_top_funcs(&s, 0, 0, &top);
	EXPECT_EQ(n, 14);		/* 7 IDs, each seen as hvc and smc */
	EXPECT_EQ(s.nr_funcs, 14);
	free(top);
	n = el2stats_top_funcs(&s, 1, 1, &top);
	EXPECT_EQ(n, 1);
	/* longest total: i % 7 == 6 and i odd (smc) or even, computed */
	if (n == 1) {
		uint64_t best = 0, t;
		unsigned int k, parity;

		for (k = 0; k < 7; k++)
			for (parity = 0; parity < 2; parity++) {
				t = 0;
				for (i = 1; i <= 300; i++)
					if (i % 7 == k && i % 2 == parity)
						t += i;
				if (t > best)
					best = t;
			}
		EXPECT_EQ(top[0].total_ns, best);
	}
	free(top);
	el2stats_free(&s);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t nearest_rank(const uint64_t *sorted, size_t n,
			     unsigned int pct)
{
	size_t rank = (n * pct + 99) / 100;

	return sorted[rank ? rank - 1 : 0];
}

/*
 * Long intervals over CPUs and reasons, p50 and p99 of each CPU, each
 * reason and all merged, against the exact ones of the sorted lengths
 */
#define MERGED_N	30000

static void test_merged_percentiles(void)
{
	static uint64_t len[MERGED_N], sel[MERGED_N];
	struct el2_stats s;
	struct el2_summary sum;
	uint64_t ts = 1, x = 88172645463325252ULL;
	int cpu, reason;
	size_t i, n;

	EXPECT_EQ(el2stats_init(&s, 4), 0);
	for (i = 0; i < MERGED_N; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* 100 ns to about 1 s, more of them short */
		len[i] = 100 + (x % 1000000000) / (1 + x % 977);
		el2stats_enter(&s, i % 4, ts, 1 + i % 5, 0);
		EXPECT_EQ(el2stats_exit(&s, i % 4, ts + len[i], 1 + i % 5), 0);
		ts += len[i] + 1;
	}
	el2stats_finish(&s);
	for (cpu = -1; cpu < 4; cpu++)
		for (reason = -1; reason <= 5; reason++) {
			for (i = n = 0; i < MERGED_N; i++)
				if ((cpu < 0 || (int)i % 4 == cpu) &&
				    (reason < 0 || 1 + (int)i % 5 == reason))
					sel[n++] = len[i];
			EXPECT_EQ(el2stats_summarize(&s, cpu, reason, &sum), 0);
			EXPECT_EQ(sum.count, n);
			if (!n)
				continue;
			qsort(sel, n, sizeof(*sel), cmp_u64);
			EXPECT_EQ(sum.min_ns, sel[0]);
			EXPECT_EQ(sum.max_ns, sel[n - 1]);
			EXPECT_NEAR(sum.p50_ns, nearest_rank(sel, n, 50));
			EXPECT_NEAR(sum.p99_ns, nearest_rank(sel, n, 99));
		}
	el2stats_free(&s);
}

/* More (reason, function ID)s than the table takes: the rest in one sum */
static void test_funcs_bounded(void)
{
	struct el2_stats s;
	struct el2_func *top;
	uint64_t ts = 0;
	uint32_t id;
	long n;

	EXPECT_EQ(el2stats_init(&s, 1), 0);
	for (id = 0; id < EL2_FUNCS_MAX + 100; id++) {
		el2stats_enter(&s, 0, ts, HVC, id);
		EXPECT_EQ(el2stats_exit(&s, 0, ts + 10 + id % 7, HVC), 0);
		ts += 100;
	}
	/* a key already in the table still counts as itself */
	el2stats_enter(&s, 0, ts, HVC, 5);
	el2stats_exit(&s, 0, ts + 1000, HVC);
	el2stats_finish(&s);
	EXPECT_EQ(s.nr_funcs, EL2_FUNCS_MAX);
	EXPECT_EQ(s.funcs_other.count, 100);
	EXPECT_EQ(s.funcs_other.max_ns, 16);
	n = el2stats_top_funcs(&s, 1, 1, &top);
	EXPECT_EQ(n, 1);
	if (n == 1) {
		EXPECT_EQ(top[0].func_id, 5);
		EXPECT_EQ(top[0].count, 2);
		EXPECT_EQ(top[0].max_ns, 1000);
	}
	free(top);
	EXPECT_EQ(el2stats_top_funcs(&s, 0, 0, &top), EL2_FUNCS_MAX);
	free(top);
	el2stats_free(&s);
}

int main(void)
{
	ck_run_void("histogram buckets", test_histogram_buckets);
	ck_run_void("names", test_names);
	ck_run_void("readme sequence", test_readme_sequence);
	ck_run_void("unmatched", test_unmatched);
	ck_run_void("many", test_many);
	ck_run_void("merged percentiles", test_merged_percentiles);
	ck_run_void("funcs bounded", test_funcs_bounded);
	return ck_exit();
}
