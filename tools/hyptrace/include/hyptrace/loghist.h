/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A log-linear histogram of u64 values (HdrHistogram's layout, at 7 bits
 * of sub-bucket resolution), so that `hyptrace stats` can give percentiles
 * in memory that does not grow with the number of values.
 *
 * Buckets: every value below 256 has its own; each power of two from 2^8
 * up is cut into 128 buckets of equal width, so a bucket [lo, hi] is never
 * wider than lo / 128. 58 blocks of 128 counters cover all of u64; a block
 * is allocated when a value first falls in it (1 KiB each, at most 58 KiB
 * per histogram), and most traces touch a dozen.
 *
 * Exact: count, min and max. Nearest-rank quantiles: the exact quantile x
 * lies in the bucket where the counts reach its rank; loghist_quantile()
 * gives the midpoint of that bucket clipped to [min, max] (the min and max
 * themselves for the first and last rank), so that
 *
 *	|loghist_quantile() - x| <= x / 256	(0.39 %; exact for x < 256)
 *
 * No I/O here, for tests/tools/loghist_test.c.
 */
#ifndef HYPTRACE_TOOLS_LOGHIST_H
#define HYPTRACE_TOOLS_LOGHIST_H

#include <stdint.h>

#define LOGHIST_SUB_BITS	7
#define LOGHIST_SUB		(1u << LOGHIST_SUB_BITS)	/* per block */
/* blocks 0 and 1: the values 0..255; then one per power of two 2^8..2^63 */
#define LOGHIST_BLOCKS		(64 - LOGHIST_SUB_BITS + 1)
#define LOGHIST_BUCKETS		(LOGHIST_BLOCKS * LOGHIST_SUB)
/* the bound above: |error| * LOGHIST_ERR_DIV <= exact value */
#define LOGHIST_ERR_DIV		(2u * LOGHIST_SUB)

struct loghist {
	uint64_t count;
	uint64_t min, max;		/* 0 when count is 0 */
	uint64_t *block[LOGHIST_BLOCKS];	/* NULL: all zero */
};

/* A zeroed struct loghist is an empty histogram; free what add allocated */
void loghist_free(struct loghist *h);

/* 0, or -1 when out of memory (@h unchanged) */
int loghist_add(struct loghist *h, uint64_t value);
/* @dst += @src. 0, or -1 when out of memory (@dst then partly added) */
int loghist_merge(struct loghist *dst, const struct loghist *src);

/*
 * Nearest-rank quantile: about the smallest value that at least @pct
 * percent of the values do not exceed, within the bound above. @pct above
 * 100 counts as 100, 0 as the first value. 0 when empty.
 */
uint64_t loghist_quantile(const struct loghist *h, unsigned int pct);

/* Count of bucket @index (< LOGHIST_BUCKETS) */
uint64_t loghist_bucket_count(const struct loghist *h, unsigned int index);

/* ---- the layout, exported for the unit test ---- */
unsigned int loghist_index(uint64_t value);
uint64_t loghist_lo(unsigned int index);	/* smallest value in it */
uint64_t loghist_hi(unsigned int index);	/* largest value in it */

#endif /* HYPTRACE_TOOLS_LOGHIST_H */
