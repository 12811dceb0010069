/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sets of physical address ranges (mem_ranges.c): RAM from the device
 * tree's /memory nodes, and the holes stage 2 leaves in what it maps.
 * Pure arithmetic, built on the host too (tests/mem/).
 */
#ifndef HYP_MEM_RANGES_H
#define HYP_MEM_RANGES_H

#include "types.h"

/* [base, base + size); base + size never wraps in a set */
struct mem_range {
	u64 base;
	u64 size;
};

/* A set: sorted by base, no two ranges overlapping or touching */
struct mem_ranges {
	struct mem_range *r;
	unsigned int nr;
	unsigned int max;
};

/* Whether [a, a + a_size) and [b, b + b_size) share a byte; no sum wraps */
bool ranges_overlap(u64 a, u64 a_size, u64 b, u64 b_size);

/*
 * Add [@base, @base + @size) to @set, merged with every range it overlaps
 * or touches. False, @set unchanged, if the range wraps past 2^64 or the
 * set has no room for it.
 */
bool ranges_add(struct mem_ranges *set, u64 base, u64 size);

/* Call @fn(@ctx, from, to) for each piece of [@from, @to) outside @holes */
void ranges_outside(const struct mem_ranges *holes, u64 from, u64 to,
		    void (*fn)(void *ctx, u64 from, u64 to), void *ctx);

#endif /* HYP_MEM_RANGES_H */
