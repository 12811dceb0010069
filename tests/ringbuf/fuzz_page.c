// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile-page fuzzer (libFuzzer) for the one record decoder,
 * shared/rb_rec.c. The input is a page as a reader finds it: time_stamp,
 * commit, then data[], of any size from a header up to 64 KiB (the tool
 * reads trace.dat files of any page size), copied into an allocation of
 * exactly that size so that AddressSanitizer sees a read past it. The
 * input's commit is walked as it is, and again clamped to the page and
 * stripped of the reader's flags, as the host module and the hypervisor
 * take it. Every walk must:
 *   - end, within one step per 8 bytes of the commit;
 *   - return records whole inside the commit, each at least 8 bytes, one
 *     after the other, payloads inside them, time never going back;
 *   - agree with rb_page_check() on a page of the hypervisor's size.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../shared/rb_page_check.h"

#define MAX_PAGE	65536U

static void fail(const char *why, u64 a, u64 b)
{
	fprintf(stderr, "fuzz_page: %s (%llu, %llu)\n", why,
		(unsigned long long)a, (unsigned long long)b);
	abort();
}

/*
 * Walk @page (@size bytes) with @commit: the data records it found, the
 * time of the last in *@last
 */
static u32 walk(const struct rb_data_page *page, size_t size, u64 commit,
		enum rb_page_fault *fault, u64 *last)
{
	u64 capacity = size - RB_PAGE_HDR_SIZE, ts = page->time_stamp;
	u32 steps = 0, events = 0, next = 0;
	struct rb_walk w;
	struct rb_rec rec;

	*last = ts;
	rb_walk_start(&w, page->data, commit, capacity, ts);
	while (rb_rec_next(&w, &rec)) {
		if (++steps > capacity / 8)
			fail("walk does not end", steps, capacity);
		if (rec.off != next || rec.size < 8 ||
		    (u64)rec.off + rec.size > w.commit || w.commit > capacity)
			fail("record outside the commit", rec.off, rec.size);
		if (rec.ts < ts)
			fail("time went back", rec.ts, ts);
		if (rec.kind == RB_REC_DATA &&
		    (rec.payload < page->data + rec.off ||
		     rec.payload + rec.payload_len >
		     page->data + rec.off + rec.size))
			fail("payload outside its record", rec.off,
			     rec.payload_len);
		if (rec.kind == RB_REC_DATA) {
			events++;
			*last = rec.ts;
		}
		ts = rec.ts;
		next = rec.off + rec.size;
	}
	if (w.off > w.commit)
		fail("walk ended past the commit", w.off, w.commit);
	*fault = w.fault;
	return events;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct rb_page_summary sum;
	enum rb_page_fault fault;
	struct rb_data_page *page;
	size_t size = len;
	u64 commit, last;
	u32 events;

	if (size < RB_PAGE_HDR_SIZE || size > MAX_PAGE)
		return 0;
	page = malloc(size);
	if (!page)
		return 0;
	memcpy(page, data, size);
	commit = page->commit;

	walk(page, size, commit, &fault, &last);
	commit &= ~RB_COMMIT_FLAGS;
	if (commit > size - RB_PAGE_HDR_SIZE)
		commit = size - RB_PAGE_HDR_SIZE;
	events = walk(page, size, commit, &fault, &last);

	/* The hypervisor's check: a page of its size, the input at its start */
	if (size == RB_PAGE_SIZE) {
		enum rb_page_fault check = rb_page_check(page, &sum);
		u64 raw = page->commit & ~RB_COMMIT_FLAGS;

		if (raw <= RB_PAGE_CAPACITY &&
		    (check != fault || sum.events != events ||
		     sum.last != last))
			fail("rb_page_check disagrees", check, fault);
		if (raw > RB_PAGE_CAPACITY && check != RB_PAGE_BAD_COMMIT)
			fail("rb_page_check took a commit past the page", raw,
			     check);
	}
	free(page);
	return 0;
}
