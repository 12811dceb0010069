// SPDX-License-Identifier: GPL-2.0
/*
 * hyp/core/hyp_mem.c on the host, its 2 MiB region an array of the test's
 * (the Makefile puts the image's end, __hyp_end, 64 KiB into it), with
 * canary.c, and hyp_panic() a longjmp back into the test:
 *  - while the boot stack is in use, nothing allocated reaches it, and its
 *    lowest bytes carry the canary pattern; then its memory is free up to
 *    the log, and never the log or the record;
 *  - a boot stack that outgrew its size (a write into its guard) panics
 *    when it is given back, naming the word written; one that did not,
 *    however deep into its size it went, does not;
 *  - nothing of all that writes in the log or the record.
 */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "canary.h"
#include "hyp_layout.h"
#include "hyp_mem.h"
#include "panic.h"
#include "panic_catch.h"
#include "check.h"

#define IMAGE_END	0x10000		/* __hyp_end: see the Makefile */
#define LOG_BASE	(HYP_REGION_SIZE - HYP_PERSIST_SIZE - HYP_LOG_SIZE)
#define STACK_BOTTOM	(LOG_BASE - HYP_BOOT_STACK_SIZE)
#define TOP_BYTE	0xa5		/* what the log and record hold */

/* The region: its base 2 MiB aligned, as a loader places it */
u8 hyp_region[HYP_REGION_SIZE] __attribute__((aligned(HYP_REGION_SIZE)));
struct hyp_layout hyp_layout;

static u64 at(u64 offset)
{
	return (u64)hyp_region + offset;
}

/* A boot as setup.c starts one, the log and the record full of TOP_BYTE */
static void boot(void)
{
	memset(hyp_region, 0, sizeof(hyp_region));
	memset(hyp_region + LOG_BASE, TOP_BYTE, HYP_REGION_SIZE - LOG_BASE);
	hyp_layout.hyp_base = (u64)hyp_region;
	hyp_mem_init();
}

/* Whether hyp_mem_boot_stack_done() panics, its message in panic_msg */
static bool stack_done_panics(void)
{
	panic_msg[0] = '\0';
	if (setjmp(panic_jmp))
		return true;
	hyp_mem_boot_stack_done();
	return false;
}

static bool top_untouched(void)
{
	u64 i;

	for (i = LOG_BASE; i < HYP_REGION_SIZE; i++)
		if (hyp_region[i] != TOP_BYTE)
			return false;
	return true;
}

static void test_boot_stack_kept(void)
{
	u64 bad = 0, room;

	boot();
	EXPECT_EQ(hyp_mem_end(), at(STACK_BOTTOM));
	EXPECT(canary_intact_range(at(STACK_BOTTOM), at(STACK_BOTTOM + HYP_BOOT_STACK_GUARD),
				   &bad), "no guard at 0x%lx", bad);
	/* All there is below the boot stack, and not a page more */
	room = STACK_BOTTOM - IMAGE_END;
	EXPECT(!hyp_mem_alloc(room + SZ_4K, SZ_4K),
	       "an allocation reaching into the boot stack");
	EXPECT_EQ(hyp_mem_alloc(room, SZ_4K), at(IMAGE_END));
	EXPECT(!hyp_mem_alloc(1, SZ_4K), "a page past it all");
	EXPECT(top_untouched(), "the log or the record written");
}

static void test_boot_stack_given_back(void)
{
	u64 bad = 0;

	boot();
	/* The deepest a boot may go: the whole stack but its guard */
	memset(hyp_region + STACK_BOTTOM + HYP_BOOT_STACK_GUARD, 0x5a,
	       HYP_BOOT_STACK_SIZE - HYP_BOOT_STACK_GUARD);
	EXPECT(!stack_done_panics(), "panicked: %s", panic_msg);
	EXPECT_EQ(hyp_mem_end(), at(LOG_BASE));
	hyp_mem_canary_fill();
	EXPECT(hyp_mem_canary_intact(&bad), "canary broken at 0x%lx", bad);
	EXPECT(!hyp_mem_alloc(LOG_BASE - IMAGE_END + SZ_4K, SZ_4K),
	       "an allocation reaching into the log");
	EXPECT_EQ(hyp_mem_alloc(LOG_BASE - IMAGE_END, SZ_4K), at(IMAGE_END));
	hyp_mem_free_to(at(IMAGE_END));
	EXPECT(hyp_mem_canary_intact(&bad), "canary broken at 0x%lx", bad);
	EXPECT(top_untouched(), "the log or the record written");
}

static void test_boot_stack_outgrown(void)
{
	char want[80];
	u64 off;

	/* Its lowest word, and the highest of its guard */
	for (off = STACK_BOTTOM; off < STACK_BOTTOM + HYP_BOOT_STACK_GUARD; off += HYP_BOOT_STACK_GUARD - 8) {
		boot();
		hyp_region[off] ^= 1;
		snprintf(want, sizeof(want), "its %u KiB: 0x%lx written",
			 HYP_BOOT_STACK_SIZE >> 10, at(off));
		EXPECT(stack_done_panics() && strstr(panic_msg, want),
		       "a write at +0x%lx: '%s', want '%s'", off, panic_msg,
		       want);
		EXPECT_EQ(hyp_mem_end(), at(STACK_BOTTOM));
	}
}

int main(void)
{
	ck_run_void("boot stack kept from the allocator, guard painted",
		    test_boot_stack_kept);
	ck_run_void("boot stack given back, free up to the log",
		    test_boot_stack_given_back);
	ck_run_void("boot stack outgrown: panic naming the word",
		    test_boot_stack_outgrown);
	return ck_exit();
}
