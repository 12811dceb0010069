// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of tools/hyptrace/lib/loghist.c, the histogram behind the
 * percentiles of `hyptrace stats`: the bucket layout covers u64 without
 * gaps or overlaps and no bucket is wider than the bound allows; count,
 * min and max are exact; and every nearest-rank quantile (0 to 100 %) is
 * within the stated bound, |got - exact| * 256 <= exact, of the exact one
 * computed here from the sorted values, on random and adversarial sets:
 * uniform, log-uniform over all of u64, all equal, zeros, bimodal, a heavy
 * tail, values on bucket edges, near UINT64_MAX, tiny sets; and a set
 * split over histograms and merged gives the same buckets and quantiles.
 *
 * t-stats.sh also builds this against broken copies of loghist.c (coarser
 * buckets; the bucket's low end instead of its midpoint) and wants it to
 * fail, so that the bound check is known to bite.
 *
 * Built with tools/hyptrace/lib/loghist.c, -Itools/hyptrace/lib.
 * Reports in KTAP (tests/include/check.h): a test point per set, one
 * diagnostic for the first quantile out of bounds of each.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hyptrace/loghist.h"

/* The bound the documentation states: 1/256 of the exact value */
#define BOUND_DIV	256

static double worst_error;		/* largest relative error seen */

/* xorshift64*: the same sets on every run */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest rank of sorted @v, computed the plain way, as stats promised */
static uint64_t exact_quantile(const uint64_t *v, size_t n, unsigned int pct)
{
	unsigned __int128 rank = ((unsigned __int128)n * pct + 99) / 100;

	return v[rank ? (size_t)rank - 1 : 0];
}

/* Fill a histogram with @v, check it against the sorted copy */
static void check_set(const char *name, const uint64_t *values, size_t n)
{
	struct loghist h = { 0 };
	uint64_t *v = malloc(n * sizeof(*v));
	unsigned int pct;
	size_t i;
	int bad = 0;

	ck_begin();
	if (!v) {
		ck_fail(__FILE__, __LINE__, "out of memory");
		ck_end("quantiles of %s, %zu values", name, n);
		return;
	}
	memcpy(v, values, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 0; i < n; i++)
		EXPECT_EQ(loghist_add(&h, values[i]), 0);
	EXPECT_EQ(h.count, n);
	EXPECT_EQ(h.min, v[0]);
	EXPECT_EQ(h.max, v[n - 1]);
	for (pct = 0; pct <= 100; pct++) {
		uint64_t got = loghist_quantile(&h, pct);
		uint64_t want = exact_quantile(v, n, pct);
		uint64_t err = got > want ? got - want : want - got;

		ck.checks++;
		if (want && (double)err / (double)want > worst_error)
			worst_error = (double)err / (double)want;
		/* in 128 bits: err * 256 overflows u64 for huge values */
		if ((unsigned __int128)err * BOUND_DIV > want && !bad++)
			/* one a set */
			ck_fail(__FILE__, __LINE__, "%s: p%u = %" PRIu64
				", exact %" PRIu64 ": off by more than 1/%d",
				name, pct, got, want, BOUND_DIV);
	}
	loghist_free(&h);
	EXPECT_EQ(h.count, 0);
	free(v);
	ck_end("quantiles of %s, %zu values", name, n);
}

static void test_layout(void)
{
	unsigned int i, bad = 0;

	EXPECT_EQ(loghist_lo(0), 0);
	EXPECT_EQ(loghist_hi(0), 0);
	EXPECT_EQ(loghist_index(255), 255);
	EXPECT_EQ(loghist_index(256), 256);
	EXPECT_EQ(loghist_index(257), 256);
	EXPECT_EQ(loghist_index(UINT64_MAX), LOGHIST_BUCKETS - 1);
	EXPECT_EQ(loghist_hi(LOGHIST_BUCKETS - 1), UINT64_MAX);
	EXPECT_EQ(LOGHIST_ERR_DIV, BOUND_DIV);
	for (i = 0; i < LOGHIST_BUCKETS; i++) {
		uint64_t lo = loghist_lo(i), hi = loghist_hi(i);
		int ok = loghist_index(lo) == i && loghist_index(hi) == i &&
			 lo <= hi && (!i || lo == loghist_hi(i - 1) + 1) &&
			 /* no wider than lo / 128: the bound's premise */
			 (unsigned __int128)(hi - lo) * (BOUND_DIV / 2) <= lo;

		ck.checks++;
		if (!ok && !bad++)
			ck_fail(__FILE__, __LINE__, "bucket %u: [%" PRIu64
				", %" PRIu64 "] is misplaced or too wide", i,
				lo, hi);
	}
	/* every power of two and its neighbours land in range */
	for (i = 0; i < 64; i++) {
		uint64_t p = 1ULL << i;

		EXPECT(loghist_lo(loghist_index(p)) <= p);
		EXPECT(loghist_hi(loghist_index(p - 1)) >= p - 1);
		EXPECT(loghist_index(p + 1) < LOGHIST_BUCKETS);
	}
}

#define N_BIG	200000

static void test_distributions(void)
{
	static uint64_t v[N_BIG];
	static const uint64_t same[] = { 0, 1, 255, 256, 257, 1000003,
					 (1ULL << 40) + 12345, UINT64_MAX };
	size_t i, k;

	for (i = 0; i < N_BIG; i++)
		v[i] = 100 + rnd() % 5000;		/* like hvc lengths */
	check_set("uniform 100..5099", v, N_BIG);
	for (i = 0; i < N_BIG; i++)
		v[i] = rnd() >> (rnd() % 64);		/* all magnitudes */
	check_set("log-uniform", v, N_BIG);
	for (k = 0; k < sizeof(same) / sizeof(same[0]); k++) {
		for (i = 0; i < 1000; i++)
			v[i] = same[k];
		check_set("all equal", v, 1000);
	}
	memset(v, 0, sizeof(v));
	check_set("zeros", v, N_BIG);
	for (i = 0; i < N_BIG; i++)		/* 98 % short, 2 % long */
		v[i] = i % 50 ? 90 + rnd() % 20 : 1000000000 + rnd() % 1000;
	check_set("bimodal", v, N_BIG);
	for (i = 0; i < N_BIG; i++)		/* p99 falls in the tail */
		v[i] = i % 100 < 97 ? 150 : (uint64_t)1e6 * (1 + rnd() % 1000);
	check_set("heavy tail", v, N_BIG);
	for (i = 0; i < N_BIG; i++) {		/* on the edges of buckets */
		unsigned int b = (unsigned int)(rnd() % LOGHIST_BUCKETS);

		v[i] = rnd() & 1 ? loghist_lo(b) : loghist_hi(b);
	}
	check_set("bucket edges", v, N_BIG);
	for (i = 0; i < N_BIG; i++)
		v[i] = UINT64_MAX - rnd() % 100000;
	check_set("near UINT64_MAX", v, N_BIG);
	for (i = 0; i < N_BIG; i++)		/* the top of wide buckets */
		v[i] = loghist_hi(256 + (unsigned int)(rnd() % 128) * 129);
	check_set("bucket tops", v, N_BIG);
	for (k = 1; k <= 5; k++) {		/* tiny sets */
		for (i = 0; i < k; i++)
			v[i] = 1 + (rnd() % 1000000) * (i + 1);
		check_set("tiny", v, k);
	}
	v[0] = 0;
	v[1] = UINT64_MAX;
	check_set("0 and max", v, 2);
}

static void test_merge(void)
{
	struct loghist part[4] = { { 0 } }, whole = { 0 }, sum = { 0 };
	unsigned int i, p, differ = 0;

	/* into an empty one, from an empty one: nothing */
	EXPECT_EQ(loghist_merge(&sum, &whole), 0);
	EXPECT_EQ(sum.count, 0);
	EXPECT_EQ(loghist_quantile(&sum, 50), 0);
	for (i = 0; i < 100000; i++) {
		uint64_t x = i % 3 ? rnd() % 3000 : rnd() >> (rnd() % 64);

		loghist_add(&whole, x);
		/* the last part stays empty */
		loghist_add(&part[rnd() % 3], x);
	}
	for (p = 0; p < 4; p++)
		EXPECT_EQ(loghist_merge(&sum, &part[p]), 0);
	EXPECT_EQ(sum.count, whole.count);
	EXPECT_EQ(sum.min, whole.min);
	EXPECT_EQ(sum.max, whole.max);
	for (i = 0; i < LOGHIST_BUCKETS; i++)
		if (loghist_bucket_count(&sum, i) !=
		    loghist_bucket_count(&whole, i))
			differ++;
	EXPECT_EQ(differ, 0);
	for (p = 0; p <= 100; p++)
		EXPECT_EQ(loghist_quantile(&sum, p), loghist_quantile(&whole, p));
	/* a merged min and max tighten the midpoint as one histogram's do */
	loghist_free(&sum);
	loghist_add(&part[3], 1000001);
	loghist_add(&sum, 1000003);
	EXPECT_EQ(loghist_merge(&sum, &part[3]), 0);
	EXPECT_EQ(sum.min, 1000001);
	EXPECT_EQ(sum.max, 1000003);
	EXPECT(loghist_quantile(&sum, 100) >= 1000001 &&
	       loghist_quantile(&sum, 100) <= 1000003);
	EXPECT_EQ(loghist_bucket_count(&sum, LOGHIST_BUCKETS), 0);
	for (p = 0; p < 4; p++)
		loghist_free(&part[p]);
	loghist_free(&whole);
	loghist_free(&sum);
}

int main(void)
{
	ck_run_void("bucket layout", test_layout);
	test_distributions();		/* a test point per set */
	ck_run_void("merge", test_merge);
	printf("# quantiles within 1/%d (worst seen %.4f %%)\n", BOUND_DIV,
	       100.0 * worst_error);
	return ck_exit();
}
