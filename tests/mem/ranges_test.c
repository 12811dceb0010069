// SPDX-License-Identifier: GPL-2.0
/*
 * hyp/core/mem_ranges.c on the host: the RAM set dt_mem.c builds from
 * /memory nodes, and the pieces stage2.c maps around its holes.
 */
#include <stdio.h>
#include <string.h>

#include "mem_ranges.h"
#include "check.h"

/* The set as "base+size,...", for comparison */
static const char *show(const struct mem_ranges *set)
{
	static char buf[512];
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < set->nr; i++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s%llx+%llx",
			      i ? "," : "", (unsigned long long)set->r[i].base,
			      (unsigned long long)set->r[i].size);
	return buf;
}

struct add {
	u64 base, size;
};

/* Add @adds in order to an empty set of @max; it must read @want */
static void check_set(const char *what, const struct add *adds,
		      unsigned int n, unsigned int max, const char *want)
{
	struct mem_range r[8];
	struct mem_ranges set = { r, 0, max };
	unsigned int i;

	ck_begin();
	for (i = 0; i < n; i++)
		EXPECT(ranges_add(&set, adds[i].base, adds[i].size),
		       "%s: adding %llx+%llx refused", what,
		       (unsigned long long)adds[i].base,
		       (unsigned long long)adds[i].size);
	EXPECT(!strcmp(show(&set), want), "%s: got %s, want %s", what,
	       show(&set), want);
	ck_end("%s", what);
}

static void test_merge(void)
{
	/* Two memory nodes, the second overlapping the first's top half */
	const struct add overlap[] = {
		{ 0x40000000, 0x40000000 }, { 0x60000000, 0x40000000 } };
	const struct add reversed[] = {
		{ 0x60000000, 0x40000000 }, { 0x40000000, 0x40000000 } };
	const struct add touching[] = {
		{ 0x40000000, 0x200000 }, { 0x40200000, 0x200000 } };
	const struct add apart[] = {
		{ 0x80000000, 0x1000 }, { 0x0, 0x1000 }, { 0x40000000, 0x1000 } };
	/* The last one joins all three */
	const struct add bridge[] = {
		{ 0x0, 0x1000 }, { 0x3000, 0x1000 }, { 0x6000, 0x1000 },
		{ 0x800, 0x6000 } };
	const struct add same[] = {
		{ 0x40000000, 0x40000000 }, { 0x40000000, 0x40000000 } };
	const struct add inside[] = {
		{ 0x40000000, 0x40000000 }, { 0x40200000, 0x200000 } };
	const struct add empty[] = { { 0x1000, 0 } };

	check_set("overlapping memory nodes merge", overlap, 2, 8,
		  "40000000+60000000");
	check_set("in either order", reversed, 2, 8, "40000000+60000000");
	check_set("touching ranges merge", touching, 2, 8, "40000000+400000");
	check_set("apart ranges sorted", apart, 3, 8,
		  "0+1000,40000000+1000,80000000+1000");
	check_set("one range bridging three", bridge, 4, 8, "0+7000");
	check_set("a repeated node", same, 2, 8, "40000000+40000000");
	check_set("a range inside another", inside, 2, 8, "40000000+40000000");
	check_set("an empty range", empty, 1, 8, "");
	/* A full set still merges what overlaps */
	check_set("full, but merging", overlap, 2, 1, "40000000+60000000");
}

static void test_refuse(void)
{
	struct mem_range r[2];
	struct mem_ranges set = { r, 0, 2 };

	ck_begin();
	EXPECT(!ranges_add(&set, 0xffffffffffe00000ULL, 0x400000),
	       "a range wrapping past 2^64 accepted");
	EXPECT(!ranges_add(&set, 0x40000000, ~0ULL), "a size of 2^64 - 1 accepted");
	EXPECT(set.nr == 0, "a refused range changed the set");
	EXPECT(ranges_add(&set, 0x0, 0x1000) && ranges_add(&set, 0x4000, 0x1000),
	       "two ranges refused");
	EXPECT(!ranges_add(&set, 0x2000, 0x1000), "a third range in a set of 2");
	EXPECT(!strcmp(show(&set), "0+1000,4000+1000"),
	       "the refused range changed the set: %s", show(&set));
	ck_end("wrapping ranges and a full set refused, the set unchanged");
}

struct pieces {
	char buf[512];
	size_t n;
};

static void piece(void *ctx, u64 from, u64 to)
{
	struct pieces *p = ctx;

	p->n += snprintf(p->buf + p->n, sizeof(p->buf) - p->n, "%s%llx-%llx",
			 p->n ? "," : "", (unsigned long long)from,
			 (unsigned long long)to);
}

static void check_outside(const char *what, const struct mem_ranges *holes,
			  u64 from, u64 to, const char *want)
{
	struct pieces p = { "", 0 };

	ck_begin();
	ranges_outside(holes, from, to, piece, &p);
	EXPECT(!strcmp(p.buf, want), "%s: got %s, want %s", what, p.buf, want);
	ck_end("%s", what);
}

static void test_outside(void)
{
	struct mem_range r[4];
	struct mem_ranges holes = { r, 0, 4 };

	ranges_add(&holes, 0x40200000, 0x200000);	/* the hypervisor */
	ranges_add(&holes, 0x9000000, 0x1000);		/* a debug window */
	check_outside("RAM around the hypervisor", &holes, 0x40000000,
		      0x80000000, "40000000-40200000,40400000-80000000");
	check_outside("RAM starting inside the hole", &holes, 0x40300000,
		      0x80000000, "40400000-80000000");
	check_outside("RAM ending inside the hole", &holes, 0x40000000,
		      0x40300000, "40000000-40200000");
	check_outside("RAM inside the hole", &holes, 0x40280000, 0x40300000,
		      "");
	check_outside("devices around a window", &holes, 0x0, 0x40000000,
		      "0-9000000,9001000-40000000");
	check_outside("no hole in the way", &holes, 0x80000000, 0x100000000,
		      "80000000-100000000");
	check_outside("both holes", &holes, 0x0, 0x100000000,
		      "0-9000000,9001000-40200000,40400000-100000000");
}

static void test_overlap(void)
{
	ck_begin();
	EXPECT(ranges_overlap(0x40000000, 0x200000, 0x401ff000, 0x1000),
	       "last page");
	EXPECT(!ranges_overlap(0x40000000, 0x200000, 0x40200000, 0x1000),
	       "touching");
	EXPECT(!ranges_overlap(0x40000000, 0x200000, 0x3ffff000, 0x1000),
	       "touching below");
	/* 17592186044414M@1026M: the sum wraps to just below the base */
	EXPECT(ranges_overlap(0x40200000, 0xffffffffffe00000ULL, 0x40200000,
			     0x200000), "a size near 2^64 over the hypervisor");
	EXPECT(ranges_overlap(0x40200000, 0x200000, 0x0, ~0ULL),
	       "everything overlaps the hypervisor");
	EXPECT(!ranges_overlap(0x40200000, 0, 0x40200000, 0x200000),
	       "an empty range overlaps");
	ck_end("overlaps, with sizes whose sums would wrap");
}

int main(void)
{
	test_merge();
	test_refuse();
	test_outside();
	test_overlap();
	return ck_exit();
}
