// SPDX-License-Identifier: GPL-2.0
/*
 * hyp/arch/stage2_change.c on the host, with hyp/arch/pgtable.c: the
 * barriers and TLB invalidations are fakes that record what ran, in order
 * (fake/tlb.h, fake/sysregs.h), so that each change can be held to
 * break-before-make in pKVM's order: the entry invalid and that store
 * published (dsb ishst) before the stage-2 invalidation, which completes
 * (dsb ish) before the stage-1 one, which completes before the new entry
 * is written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyp_layout.h"
#include "stage2.h"
#include "../../shared/hyptrace_abi.h"
#include "check.h"

#define MMIO	(0xfUL << 2 | 3UL << 6 | 3UL << 8 | PTE_AF | 2UL << 53)
#define RAM	(0xfUL << 2 | 3UL << 6 | 3UL << 8 | PTE_AF)

struct hyp_layout hyp_layout = { .hyp_base = 0x40200000 };
struct pgtable stage2_host_map;

/* What ran, "|"-separated; a whole 2 MiB changed page by page fits */
static char events[1 << 17];

u64 stage2_attrs(enum stage2_kind kind)
{
	return kind == STAGE2_RAM ? RAM : kind == STAGE2_MMIO ? MMIO : 0;
}

void hyp_panic(const char *fmt, ...)
{
	printf("unexpected panic: %s\n", fmt);
	exit(1);
}

static void record(const char *what)
{
	size_t n = strlen(events);

	if (n + strlen(what) + 2 > sizeof(events)) {
		printf("FAIL: more events than the test holds\n");
		exit(1);
	}
	memcpy(events + n, what, strlen(what));
	memcpy(events + n + strlen(what), "|", 2);
}

void fake_barrier(const char *what)
{
	record(what);
}

/* Break before this: the walk for @ipa must find no valid entry now */
void fake_tlbi_ipas2e1is(u64 ipa)
{
	unsigned int level;
	char buf[64];

	EXPECT(!(*pgtable_walk(&stage2_host_map, ipa, &level) & PTE_VALID),
	       "tlbi ipas2e1is 0x%llx while its entry is valid",
	       (unsigned long long)ipa);
	snprintf(buf, sizeof(buf), "tlbi ipas2e1is %llx",
		 (unsigned long long)ipa >> 12);
	record(buf);
}

/* What a block split into a table, or a leaf's break, must run */
#define PUBLISH		"dsb ishst|"
#define BREAK(ipa)	"dsb ishst|tlbi ipas2e1is " ipa "|dsb ish|" \
			"tlbi vmalle1is|dsb ish|isb|"
#define SPLIT(ipa)	PUBLISH BREAK(ipa) PUBLISH

/* The leaf for @ipa: its level and whether it maps @ipa with @attrs */
static bool maps(u64 ipa, u64 attrs, unsigned int want_level)
{
	unsigned int level;
	u64 e = *pgtable_walk(&stage2_host_map, ipa, &level);

	return level == want_level && e & PTE_VALID &&
	       (e & PTE_ADDR_MASK) == ALIGN_DOWN(ipa, 1UL <<
						 PGTABLE_LEVEL_SHIFT(level)) &&
	       (e & ~PTE_ADDR_MASK & ~3UL) == attrs;
}

static bool absent(u64 ipa)
{
	unsigned int level;

	return !(*pgtable_walk(&stage2_host_map, ipa, &level) & PTE_VALID);
}

static void change(u64 ipa, u64 size, enum stage2_kind kind, s64 want,
		   const char *want_events, const char *what)
{
	s64 ret;

	events[0] = '\0';
	ret = stage2_change(ipa, size, kind);
	EXPECT(ret == want, "%s: returned %lld, want %lld", what,
	       (long long)ret, (long long)want);
	EXPECT(!want_events || !strcmp(events, want_events),
	       "%s: ran\n  %s\nwant\n  %s", what, events, want_events);
}

int main(void)
{

	pgtable_init(&stage2_host_map, 40, "stage-2 map");
	pgtable_map(&stage2_host_map, 0, 0x40000000, MMIO);
	pgtable_map(&stage2_host_map, 0x40000000, 0x200000, RAM);
	pgtable_map(&stage2_host_map, 0x40400000, 0x3fc00000, RAM);
	stage2_change_init();

	ck_begin();
	/* One page of a device GiB: split twice, then the page's break */
	change(0x9030000, 0x1000, STAGE2_ABSENT, 0,
	       SPLIT("0") SPLIT("9000") BREAK("9030"),
	       "a page out of a 1 GiB block");
	EXPECT(absent(0x9030000) && absent(0x9030fff), "the page is mapped");
	EXPECT(maps(0x9031000, MMIO, 3) && maps(0x902f000, MMIO, 3),
	       "its neighbours lost their mapping");
	EXPECT(maps(0x9200000, MMIO, 2) && maps(0x0, MMIO, 2),
	       "the other 2 MiB blocks lost theirs");
	EXPECT(!stage2_fault_retry(0x9030800) && stage2_fault_retry(0x9031000),
	       "stage2_fault_retry() wrong about what is mapped");
	ck_end("a page unmapped from a GiB block: split, split, break, each break-before-make in pKVM's order");

	ck_begin();
	change(0x9030000, 0x1000, STAGE2_MMIO, 0, PUBLISH,
	       "the page back: no break for an invalid entry");
	EXPECT(maps(0x9030000, MMIO, 3), "the page is not mapped back");
	change(0x9000000, 0x200000, STAGE2_RAM, 0, NULL,
	       "a whole 2 MiB inside a table");
	EXPECT(maps(0x9000000, RAM, 3) && maps(0x91ff000, RAM, 3),
	       "the 2 MiB are not RAM page by page");
	change(0x9400000, 0x200000, STAGE2_ABSENT, 0, BREAK("9400"),
	       "a whole 2 MiB block: one break, no split");
	EXPECT(absent(0x9400000) && maps(0x9600000, MMIO, 2),
	       "the 2 MiB block is not alone unmapped");
	change(0x9400000, 0x200000, STAGE2_ABSENT, 0, "",
	       "absent again: nothing runs");
	ck_end("remapping an invalid entry publishes only; a whole block changes in place");

	ck_begin();
	/* 2 of the 4 spare tables are gone: one more page split uses 2 */
	change(0x80001000, 0x1000, STAGE2_ABSENT, 0, "",
	       "absent in an invalid GiB: nothing runs");
	change(1ULL << 40, 0x1000, STAGE2_ABSENT, HYPTRACE_RET_INVALID, "",
	       "beyond the 40-bit map");
	change(0xc0000000, 0x1000, STAGE2_MMIO, 0, NULL,
	       "a page in an invalid GiB: two tables from nothing");
	EXPECT(maps(0xc0000000, MMIO, 3) && absent(0xc0001000),
	       "the page in the empty GiB");
	change(0x100000000, 0x1000, STAGE2_MMIO, HYPTRACE_RET_NO_MEMORY, NULL,
	       "no spare table left");
	EXPECT(absent(0x100000000), "a page mapped without its tables");
	ck_end("spare tables used up: NO_MEMORY, nothing mapped");

	ck_begin();
	change(0x40200000, 0x1000, STAGE2_RAM, HYPTRACE_RET_INVALID, "",
	       "the hypervisor's region");
	change(0x403ff000, 0x2000, STAGE2_RAM, HYPTRACE_RET_INVALID, "",
	       "across the hypervisor's region's end");
	change(0x9030800, 0x1000, STAGE2_ABSENT, HYPTRACE_RET_INVALID, "",
	       "not page-aligned");
	change(0xfffffffffffff000ULL, 0x2000, STAGE2_ABSENT,
	       HYPTRACE_RET_INVALID, "", "wrapping");
	EXPECT(absent(0x40200000), "the hypervisor's region got mapped");
	ck_end("the hypervisor's region, misaligned and wrapping ranges refused untouched");

	return ck_exit();
}
