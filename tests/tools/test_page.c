// SPDX-License-Identifier: GPL-2.0
/*
 * The page walker (tools/hyptrace/lib/page.c) on pages built by hand: each
 * record type, timestamps across time extends and absolute stamps, the
 * lost-event marks, and every way a length can lie, which must give an
 * error and no read outside the page (run under AddressSanitizer, with
 * the page its own allocation).
 */
#include "check.h"
#include "page_builder.h"
#include "hyptrace/page.h"

static char err[256];

/* Walk @page into @ts/@len arrays; returns the count, or -1 on error */
static int walk(const void *page, size_t size, uint64_t *ts, uint32_t *len,
		int max)
{
	struct pg_walk w;
	struct pg_event ev;
	uint8_t *copy = malloc(size);
	int n = 0, r;

	/* its own allocation, exactly @size, so ASan sees any overrun */
	memcpy(copy, page, size);
	if (page_open(&w, copy, size, err, sizeof(err))) {
		free(copy);
		return -1;
	}
	while ((r = page_next(&w, &ev, err, sizeof(err))) > 0) {
		if (n < max) {
			ts[n] = ev.ts;
			len[n] = ev.size;
		}
		n++;
	}
	free(copy);
	return r < 0 ? -1 : n;
}

static int test_record_types(void)
{
	uint64_t ts[8], payload = 0x1122334455667788ULL, big;
	uint32_t len[8];
	struct pb b;

	pb_init(&b, 1000);
	pb_data(&b, 0, &payload, 8, 0);		/* 1000 */
	pb_data(&b, 5, &payload, 8, 1);		/* 1005, type_len 2 */
	pb_extend(&b, (1ULL << 27) + 3);	/* + 2^27 + 3 */
	pb_data(&b, 0, &payload, 3, 0);		/* 3 bytes, padded to 4 */
	/* a discarded event: skipped, and its delta is not counted */
	pb_word(&b, pb_hdr(29, 77));
	pb_word(&b, 8);		/* counts itself: 12 bytes in all */
	pb_word(&b, 0);
	pb_data(&b, 10, &payload, 8, 0);
	/* an absolute stamp: bits 0..58 */
	big = (1ULL << 40) + 12345;
	pb_word(&b, pb_hdr(31, big & ((1U << 27) - 1)));
	pb_word(&b, big >> 27);
	pb_data(&b, 1, &payload, 8, 0);
	pb_commit(&b, 0, 0);
	CHECK(walk(b.page, 4096, ts, len, 8) == 5, "count: %s", err);
	CHECK(ts[0] == 1000 && ts[1] == 1005, "%llu %llu",
	      (unsigned long long)ts[0], (unsigned long long)ts[1]);
	CHECK(ts[2] == 1005 + (1ULL << 27) + 3, "extend %llu",
	      (unsigned long long)ts[2]);
	CHECK(ts[3] == ts[2] + 10, "padding delta %llu",
	      (unsigned long long)ts[3]);
	CHECK(ts[4] == big + 1, "abs %llu", (unsigned long long)ts[4]);
	CHECK(len[0] == 8 && len[1] == 8 && len[2] == 4, "lens %u %u %u",
	      len[0], len[1], len[2]);
	return 0;
}

static int test_empty_and_null(void)
{
	uint64_t ts[4], p = 1;
	uint32_t len[4];
	struct pb b;

	pb_init(&b, ~0ULL);
	pb_commit(&b, 0, 0);
	CHECK(walk(b.page, 4096, ts, len, 4) == 0, "empty page");
	/* a null padding event ends the page */
	pb_init(&b, 50);
	pb_data(&b, 0, &p, 8, 0);
	pb_word(&b, pb_hdr(29, 0));
	pb_word(&b, 0xffffffff);
	pb_commit(&b, 0, 0);
	CHECK(walk(b.page, 4096, ts, len, 4) == 1, "null event: %s", err);
	return 0;
}

static int test_lost_marks(void)
{
	struct pg_walk w;
	struct pb b;
	uint64_t p = 7;

	pb_init(&b, 1);
	pb_data(&b, 0, &p, 8, 0);
	pb_commit(&b, 1ULL << 31, 0);
	CHECK(!page_open(&w, b.page, 4096, err, sizeof(err)), "%s", err);
	CHECK(w.lost == PG_LOST_UNKNOWN, "only the flag: unknown");
	pb_commit(&b, 3ULL << 30, 42);
	CHECK(!page_open(&w, b.page, 4096, err, sizeof(err)), "%s", err);
	CHECK(w.lost == 42, "stored %llu", (unsigned long long)w.lost);
	pb_commit(&b, 0, 0);
	CHECK(!page_open(&w, b.page, 4096, err, sizeof(err)) && !w.lost,
	      "none");
	/* a count that would lie past the page */
	b.pos = 4080;
	pb_commit(&b, 3ULL << 30, 0);
	CHECK(page_open(&w, b.page, 4096, err, sizeof(err)) < 0,
	      "stored count beyond the page accepted");
	return 0;
}

/* Each of these pages must be refused */
static int test_corrupt(void)
{
	uint64_t ts[4], p = 9;
	uint32_t len[4];
	struct pb b;

	/* commit beyond the data area */
	pb_init(&b, 1);
	pb_data(&b, 0, &p, 8, 0);
	b.pos = 4081;
	pb_commit(&b, 0, 0);
	CHECK(walk(b.page, 4096, ts, len, 4) < 0, "commit 4081");
	b.pos = 0x7fffffff;
	pb_commit(&b, 0, 0);
	CHECK(walk(b.page, 4096, ts, len, 4) < 0, "commit huge");

	/* array[0] under 4, not a multiple of 4, and past the commit */
	pb_init(&b, 1);
	pb_word(&b, pb_hdr(0, 0));
	pb_word(&b, 2);
	pb_word(&b, 0);
	pb_commit(&b, 0, 0);
	CHECK(walk(b.page, 4096, ts, len, 4) < 0, "array[0] 2");
	pb_init(&b, 1);
	pb_word(&b, pb_hdr(0, 0));
	pb_word(&b, 7);
	pb_word(&b, 0);
	pb_commit(&b, 0, 0);
	CHECK(walk(b.page, 4096, ts, len, 4) < 0, "array[0] 7");
	pb_init(&b, 1);
	pb_word(&b, pb_hdr(0, 0));
	pb_word(&b, 4000);
	pb_word(&b, 0);
	pb_commit(&b, 0, 0);
	CHECK(walk(b.page, 4096, ts, len, 4) < 0, "array[0] past commit");

	/* type_len 28 (112 bytes) with 8 bytes committed */
	pb_init(&b, 1);
	pb_word(&b, pb_hdr(28, 0));
	pb_word(&b, 0);
	pb_commit(&b, 0, 0);
	CHECK(walk(b.page, 4096, ts, len, 4) < 0, "type_len 28 past commit");

	/* a time extend cut by the commit, and a lone half header */
	pb_init(&b, 1);
	pb_data(&b, 0, &p, 8, 0);
	pb_word(&b, pb_hdr(30, 0));
	pb_commit(&b, 0, 0);
	CHECK(walk(b.page, 4096, ts, len, 4) < 0, "cut extend");
	pb_init(&b, 1);
	pb_data(&b, 0, &p, 8, 0);
	b.pos += 2;
	pb_commit(&b, 0, 0);
	CHECK(walk(b.page, 4096, ts, len, 4) < 0, "2 bytes left");

	/* padding longer than what is left */
	pb_init(&b, 1);
	pb_word(&b, pb_hdr(29, 1));
	pb_word(&b, 100);
	pb_commit(&b, 0, 0);
	CHECK(walk(b.page, 4096, ts, len, 4) < 0, "padding past commit");

	/* pages too small to hold a header */
	CHECK(walk(b.page, 8, ts, len, 4) < 0, "8-byte page");
	return 0;
}

/* A full page of the smallest records, ending exactly at the capacity */
static int test_full_page(void)
{
	static uint64_t ts[1024];
	static uint32_t len[1024];
	uint32_t id = 0x10001;
	struct pb b;
	int i;

	pb_init(&b, 0);
	for (i = 0; i < 4080 / 8; i++)
		pb_data(&b, 1, &id, 4, 1);
	pb_commit(&b, 1ULL << 31, 0);
	CHECK(walk(b.page, 4096, ts, len, 1024) == 510, "510 records: %s",
	      err);
	CHECK(ts[509] == 510, "last ts %llu", (unsigned long long)ts[509]);
	return 0;
}

int main(void)
{
	ck_run("page: every record type, timestamps", test_record_types);
	ck_run("page: empty page, null event", test_empty_and_null);
	ck_run("page: lost-event marks", test_lost_marks);
	ck_run("page: lying lengths refused", test_corrupt);
	ck_run("page: a page filled to the last byte", test_full_page);
	return ck_exit();
}
