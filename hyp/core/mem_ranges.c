// SPDX-License-Identifier: GPL-2.0
/*
 * Sets of physical address ranges (mem_ranges.h). A device tree may list
 * RAM in several /memory nodes that overlap or repeat one another (a
 * firmware that adds a node beside the one it was given); kept merged, a
 * set has one range per stretch of memory, so that whatever is cut out of
 * it is cut out once, everywhere.
 *
 * Every end is computed from a base and a size that were checked not to
 * wrap: a size near 2^64 must not make a range look small.
 */
#include "mem_ranges.h"

bool ranges_overlap(u64 a, u64 a_size, u64 b, u64 b_size)
{
	if (!a_size || !b_size)
		return false;
	/* a - b and b - a are the distances, never sums that could wrap */
	return a >= b ? a - b < b_size : b - a < a_size;
}

bool ranges_add(struct mem_ranges *set, u64 base, u64 size)
{
	u64 end = base + size;
	unsigned int first, last, i;

	if (end < base)
		return false;
	if (!size)
		return true;
	/* The ranges [first, last) overlap or touch the new one */
	for (first = 0; first < set->nr; first++)
		if (set->r[first].base + set->r[first].size >= base)
			break;
	for (last = first; last < set->nr; last++)
		if (set->r[last].base > end)
			break;
	if (first == last) {
		if (set->nr == set->max)
			return false;
		for (i = set->nr; i > first; i--)
			set->r[i] = set->r[i - 1];
		set->nr++;
	} else {
		base = min(base, set->r[first].base);
		end = max(end, set->r[last - 1].base + set->r[last - 1].size);
		/* Close the gap the merged ranges leave */
		for (i = last; i < set->nr; i++)
			set->r[first + 1 + i - last] = set->r[i];
		set->nr -= last - first - 1;
	}
	set->r[first].base = base;
	set->r[first].size = end - base;
	return true;
}

void ranges_outside(const struct mem_ranges *holes, u64 from, u64 to,
		    void (*fn)(void *ctx, u64 from, u64 to), void *ctx)
{
	unsigned int i;

	for (i = 0; i < holes->nr && from < to; i++) {
		u64 h = holes->r[i].base, h_end = h + holes->r[i].size;

		if (h_end <= from)
			continue;
		if (h >= to)
			break;
		if (h > from)
			fn(ctx, from, h);
		from = h_end;
	}
	if (from < to)
		fn(ctx, from, to);
}
