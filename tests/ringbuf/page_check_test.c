// SPDX-License-Identifier: GPL-2.0
/*
 * shared/rb_page_check.c, the check the hypervisor runs on the last boot's
 * pages: pages the real writer filled pass with the events and times it
 * wrote; each rule, broken on purpose, fails with its own reason; and
 * random pages, under AddressSanitizer, are never read past their end.
 */
#include "check.h"
#include "testbuf.h"
#include "../../shared/rb_page_check.h"

/* Fill @tb's first ring page with @n events, the gap between them @step */
static u64 fill_page(struct tbuf *tb, u32 n, u64 start, u64 step)
{
	u64 ts = start, v[2];
	u32 i;

	rb_enable(&tb->cpu);
	for (i = 0; i < n; i++, ts += step) {
		v[0] = i;
		v[1] = ts;
		if (!rb_write(&tb->cpu, ts, v, sizeof(v)))
			return 0;
	}
	return ts - step;
}

/* The page the writer is on: ring slot 0 holds page id 1 after rb_init() */
static struct rb_data_page *first_page(struct tbuf *tb)
{
	return tb->pages[1];
}

static int test_written_pages_pass(void)
{
	struct rb_page_summary sum;
	struct tbuf tb;
	u64 last;

	CHECK(!tb_init(&tb, 0, 4, RB_MODE_OVERWRITE), "init");
	/* Gaps of 2^30 ns need a TIME_EXTEND before every event */
	last = fill_page(&tb, 50, 1000, 1ULL << 30);
	CHECK(last, "writes");
	CHECK(rb_page_check(first_page(&tb), &sum) == RB_PAGE_OK, "check");
	CHECK(sum.events == 50, "events %u", sum.events);
	CHECK(sum.first == 1000 && sum.last == last,
	      "first %llu last %llu, want 1000 and %llu",
	      (unsigned long long)sum.first, (unsigned long long)sum.last,
	      (unsigned long long)last);
	tb_free(&tb);
	return 0;
}

static int test_empty_page_passes(void)
{
	struct rb_page_summary sum;
	struct tbuf tb;

	CHECK(!tb_init(&tb, 0, 4, RB_MODE_OVERWRITE), "init");
	CHECK(rb_page_check(first_page(&tb), &sum) == RB_PAGE_OK, "check");
	CHECK(sum.events == 0 && sum.commit == 0, "events %u", sum.events);
	tb_free(&tb);
	return 0;
}

/* Each rule broken on a page the writer filled */
static int test_broken_rules_fail(void)
{
	struct rb_page_summary sum;
	struct rb_data_page *page;
	struct tbuf tb;
	u32 *word;
	u64 commit;

	CHECK(!tb_init(&tb, 0, 4, RB_MODE_OVERWRITE), "init");
	CHECK(fill_page(&tb, 20, 1000, 10), "writes");
	page = first_page(&tb);
	commit = page->commit;

	page->commit = RB_PAGE_CAPACITY + 8;
	CHECK(rb_page_check(page, &sum) == RB_PAGE_BAD_COMMIT, "commit");
	/* The reader's flags are not the writer's: ignored */
	page->commit = commit | RB_MISSED_EVENTS | RB_MISSED_STORED;
	CHECK(rb_page_check(page, &sum) == RB_PAGE_OK, "reader flags");
	/* A commit that ends inside a record cuts it */
	page->commit = commit - 4;
	CHECK(rb_page_check(page, &sum) == RB_PAGE_BAD_LENGTH, "cut record");
	page->commit = commit;

	/* A type-0 record of length 0 */
	word = (u32 *)page->data;
	word[0] = 0;
	word[1] = 0;
	CHECK(rb_page_check(page, &sum) == RB_PAGE_BAD_LENGTH, "empty record");

	/* An absolute stamp behind the page's own time */
	page->time_stamp = 5000;
	word[0] = RB_TYPE_TIME_STAMP | (10U << RB_TYPE_LEN_BITS);
	word[1] = 0;
	CHECK(rb_page_check(page, &sum) == RB_PAGE_BAD_TIME, "time backwards");

	/* Time that wraps */
	page->time_stamp = ~0ULL - 5;
	word[0] = RB_TYPE_TIME_EXTEND | (10U << RB_TYPE_LEN_BITS);
	CHECK(rb_page_check(page, &sum) == RB_PAGE_BAD_TIME, "time wraps");
	tb_free(&tb);
	return 0;
}

/* Random pages: any answer, but no read outside the page (ASan) */
static int test_random_pages(void)
{
	struct rb_data_page *page = aligned_alloc(RB_PAGE_SIZE, RB_PAGE_SIZE);
	unsigned int seed = 12345, faults[4] = { 0 };
	struct rb_page_summary sum;
	u8 *bytes = (u8 *)page;
	u32 i, round;

	CHECK(page, "alloc");
	for (round = 0; round < 20000; round++) {
		for (i = 0; i < RB_PAGE_SIZE; i++)
			bytes[i] = rand_r(&seed);
		/* Mostly plausible commits, so that the walk goes deep */
		page->commit = round & 1 ? (u32)rand_r(&seed) % RB_PAGE_CAPACITY :
					   (u32)rand_r(&seed);
		/* Small types: records that look like data */
		for (i = 0; round & 2 && i < RB_PAGE_CAPACITY; i += 4)
			page->data[i] &= 0x3f;
		faults[rb_page_check(page, &sum)]++;
		CHECK(sum.commit <= RB_PAGE_CAPACITY, "commit %u", sum.commit);
	}
	printf("  20000 random pages: ok %u, commit %u, length %u, time %u\n",
	       faults[RB_PAGE_OK], faults[RB_PAGE_BAD_COMMIT],
	       faults[RB_PAGE_BAD_LENGTH], faults[RB_PAGE_BAD_TIME]);
	CHECK(faults[RB_PAGE_BAD_LENGTH] && faults[RB_PAGE_BAD_COMMIT],
	      "the random pages never reached the checks");
	free(page);
	return 0;
}

int main(void)
{
	ck_run("page check: written pages pass", test_written_pages_pass);
	ck_run("page check: an empty page passes", test_empty_page_passes);
	ck_run("page check: each broken rule fails", test_broken_rules_fail);
	ck_run("page check: random pages", test_random_pages);
	return ck_exit();
}
