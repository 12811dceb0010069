// SPDX-License-Identifier: GPL-2.0
/*
 * The log-linear histogram of loghist.h: the layout, adding, merging and
 * the nearest-rank quantile with its error bound.
 */
#include <stdlib.h>
#include <string.h>

#include "hyptrace/loghist.h"

/* The first power of two cut into buckets rather than counted exactly */
#define LOGHIST_EXACT_BITS	(LOGHIST_SUB_BITS + 1)

/*
 * How far a value is shifted right to pick its bucket: 0 below 2^8, so
 * that each such value is a bucket; else enough to keep 8 significant
 * bits, of which the top one is always set.
 */
static unsigned int value_shift(uint64_t value)
{
	unsigned int msb;

	if (value < (1ULL << LOGHIST_EXACT_BITS))
		return 0;
	msb = 63 - (unsigned int)__builtin_clzll(value);
	return msb - LOGHIST_SUB_BITS;
}

unsigned int loghist_index(uint64_t value)
{
	unsigned int shift = value_shift(value);

	/*
	 * Shifted, a value >= 2^8 is 128..255: block shift + 1 holds it,
	 * and block 0 and 1 hold 0..255 as they are.
	 */
	return (shift << LOGHIST_SUB_BITS) + (unsigned int)(value >> shift);
}

/* The shift of the values in bucket @index: 0 in blocks 0 and 1 */
static unsigned int index_shift(unsigned int index)
{
	unsigned int block = index >> LOGHIST_SUB_BITS;

	return block < 2 ? 0 : block - 1;
}

uint64_t loghist_lo(unsigned int index)
{
	unsigned int shift;

	if (index >= LOGHIST_BUCKETS)
		index = LOGHIST_BUCKETS - 1;
	shift = index_shift(index);
	return (uint64_t)(index - (shift << LOGHIST_SUB_BITS)) << shift;
}

uint64_t loghist_hi(unsigned int index)
{
	if (index >= LOGHIST_BUCKETS)
		index = LOGHIST_BUCKETS - 1;
	/* no overflow: the last bucket ends at UINT64_MAX exactly */
	return loghist_lo(index) + ((1ULL << index_shift(index)) - 1);
}

void loghist_free(struct loghist *h)
{
	unsigned int b;

	for (b = 0; b < LOGHIST_BLOCKS; b++)
		free(h->block[b]);
	memset(h, 0, sizeof(*h));
}

static uint64_t *block_of(struct loghist *h, unsigned int block)
{
	if (!h->block[block])
		h->block[block] = calloc(LOGHIST_SUB, sizeof(uint64_t));
	return h->block[block];
}

/* Count, min and max of @n more values from min @lo to max @hi */
static void note_range(struct loghist *h, uint64_t n, uint64_t lo, uint64_t hi)
{
	if (!h->count || lo < h->min)
		h->min = lo;
	if (!h->count || hi > h->max)
		h->max = hi;
	h->count += n;
}

int loghist_add(struct loghist *h, uint64_t value)
{
	unsigned int i = loghist_index(value);
	uint64_t *block = block_of(h, i >> LOGHIST_SUB_BITS);

	if (!block)
		return -1;
	block[i & (LOGHIST_SUB - 1)]++;
	note_range(h, 1, value, value);
	return 0;
}

int loghist_merge(struct loghist *dst, const struct loghist *src)
{
	unsigned int b, i;
	uint64_t *block;

	if (!src->count)
		return 0;
	for (b = 0; b < LOGHIST_BLOCKS; b++) {
		if (!src->block[b])
			continue;
		block = block_of(dst, b);
		if (!block)
			return -1;
		for (i = 0; i < LOGHIST_SUB; i++)
			block[i] += src->block[b][i];
	}
	note_range(dst, src->count, src->min, src->max);
	return 0;
}

uint64_t loghist_bucket_count(const struct loghist *h, unsigned int index)
{
	const uint64_t *block;

	if (index >= LOGHIST_BUCKETS)
		return 0;
	block = h->block[index >> LOGHIST_SUB_BITS];
	return block ? block[index & (LOGHIST_SUB - 1)] : 0;
}

/* The bucket that holds the @rank-th smallest value, 1 <= rank <= count */
static unsigned int bucket_of_rank(const struct loghist *h, uint64_t rank)
{
	unsigned int b, i;
	uint64_t seen = 0;

	for (b = 0; b < LOGHIST_BLOCKS; b++) {
		if (!h->block[b])
			continue;
		for (i = 0; i < LOGHIST_SUB; i++) {
			seen += h->block[b][i];
			if (seen >= rank)
				return (b << LOGHIST_SUB_BITS) + i;
		}
	}
	/* counts that fall short of h->count: only a caller's bad merge */
	return loghist_index(h->max);
}

uint64_t loghist_quantile(const struct loghist *h, unsigned int pct)
{
	uint64_t rank, lo, hi;
	unsigned int i;

	if (!h->count)
		return 0;
	if (pct > 100)
		pct = 100;
	/* ceil(count * pct / 100), at least 1, without overflow */
	rank = (uint64_t)(((__uint128_t)h->count * pct + 99) / 100);
	/* the first and last ranks are the exact min and max */
	if (rank <= 1)
		return h->min;
	if (rank >= h->count)
		return h->max;
	i = bucket_of_rank(h, rank);
	/*
	 * The value lies in the bucket and within [min, max]; the midpoint
	 * of that range is at most half a bucket's width from it. A bucket
	 * of width 2^s starts at 2^(s+7) or above, so that is at most
	 * 2^(s-1), 1/256 of the value. An all-equal set comes out exact.
	 */
	lo = loghist_lo(i) > h->min ? loghist_lo(i) : h->min;
	hi = loghist_hi(i) < h->max ? loghist_hi(i) : h->max;
	return lo + ((hi - lo + 1) >> 1);
}
