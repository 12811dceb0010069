// SPDX-License-Identifier: GPL-2.0
/*
 * shared/rb_rec.c, the one record decoder, on pages built by hand: each
 * record kind, and each hostile pattern a page shared with all of EL1 can
 * hold (a wrapping length word, a commit past the page, a zero-length
 * record, a padding record longer than the page, a time record cut by the
 * commit, time going backwards or wrapping). Each must stop the walk where
 * it lies, with its own fault, within a bounded number of steps; the page
 * is its own allocation so that AddressSanitizer sees any read outside it.
 */
#include "check.h"
#include "testbuf.h"
#include "../../shared/rb_rec.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* A page being built: data[] words from the start */
struct pb {
	struct rb_data_page *page;
	u32 len;
};

static void pb_init(struct pb *b, u64 ts)
{
	b->page = tb_page();
	memset(b->page, 0, RB_PAGE_SIZE);
	b->page->time_stamp = ts;
	b->len = 0;
}

static void pb_word(struct pb *b, u32 w)
{
	memcpy(b->page->data + b->len, &w, sizeof(w));
	b->len += sizeof(w);
}

static u32 pb_hdr(u32 type, u32 delta)
{
	return type | delta << RB_TYPE_LEN_BITS;
}

/* A type-0 event of @words payload words */
static void pb_event(struct pb *b, u32 delta, u32 words)
{
	pb_word(b, pb_hdr(0, delta));
	pb_word(b, 4 + 4 * words);
	while (words--)
		pb_word(b, 0x1d);
}

struct walked {
	u32 records, events;
	u64 last_ts;
	u32 stop;		/* w.off at the end */
	enum rb_page_fault fault;
};

/* Walk @b's page up to @commit, counting; at most one step per 4 bytes */
static int walk(const struct pb *b, u64 commit, struct walked *out)
{
	struct rb_walk w;
	struct rb_rec rec;
	u32 steps = 0;

	memset(out, 0, sizeof(*out));
	out->fault = rb_walk_start(&w, b->page->data, commit, RB_PAGE_CAPACITY,
				   b->page->time_stamp);
	while (rb_rec_next(&w, &rec)) {
		CHECK(rec.size >= 8 && rec.off + rec.size <= w.commit,
		      "record at %u of %u bytes, commit %u", rec.off,
		      rec.size, w.commit);
		CHECK(++steps <= RB_PAGE_CAPACITY / 8, "walk does not end");
		out->records++;
		if (rec.kind == RB_REC_DATA) {
			CHECK(rec.payload >= b->page->data + rec.off &&
			      rec.payload + rec.payload_len <=
			      b->page->data + w.commit, "payload outside");
			out->events++;
		}
		out->last_ts = rec.ts;
	}
	out->stop = w.off;
	out->fault = w.fault;
	return 0;
}

static int test_kinds(void)
{
	struct walked r;
	struct pb b;

	pb_init(&b, 1000);
	pb_event(&b, 5, 1);				/* 1005 */
	pb_word(&b, pb_hdr(2, 7));			/* 1012, 2 words */
	pb_word(&b, 0);
	pb_word(&b, 0);
	pb_word(&b, pb_hdr(RB_TYPE_TIME_EXTEND, 3));	/* + 2^27 + 3 */
	pb_word(&b, 1);
	pb_word(&b, pb_hdr(RB_TYPE_PADDING, 9));	/* skipped, 12 bytes */
	pb_word(&b, 8);
	pb_word(&b, 0);
	pb_word(&b, pb_hdr(RB_TYPE_TIME_STAMP, 1));	/* 2^28 + 1 */
	pb_word(&b, 2);
	pb_event(&b, 1, 2);
	CHECK(!walk(&b, b.len, &r), "walk");
	CHECK(r.fault == RB_PAGE_OK, "fault %d", r.fault);
	CHECK(r.records == 6 && r.events == 3, "%u records %u events",
	      r.records, r.events);
	CHECK(r.last_ts == (1ULL << 28) + 2, "ts %llu",
	      (unsigned long long)r.last_ts);
	CHECK(r.stop == b.len, "stopped at %u of %u", r.stop, b.len);
	/* A null padding ends the page without a fault */
	pb_word(&b, pb_hdr(RB_TYPE_PADDING, 0));
	pb_word(&b, 0xffffffff);
	pb_event(&b, 1, 1);
	CHECK(!walk(&b, b.len, &r) && r.fault == RB_PAGE_OK && r.events == 3,
	      "null padding: fault %d, %u events", r.fault, r.events);
	free(b.page);
	return 0;
}

/*
 * A page of @before one-word events, a record of @type whose array[0] is
 * @array0, one more event: the walk must stop at that record with a
 * length fault, the commit at the records' end or at the page's.
 */
static int check_bad_record(u32 type, u32 array0, u32 before)
{
	u64 commit = 0;
	struct walked r;
	struct pb b;
	u32 i;

	pb_init(&b, 1);
	for (i = 0; i < before; i++)
		pb_event(&b, 1, 1);
	pb_word(&b, pb_hdr(type, 1));
	pb_word(&b, array0);
	pb_event(&b, 1, 1);
	while (commit != RB_PAGE_CAPACITY) {
		commit = commit ? RB_PAGE_CAPACITY : b.len;
		CHECK(!walk(&b, commit, &r), "walk");
		CHECK(r.fault == RB_PAGE_BAD_LENGTH && r.stop == 12 * before &&
		      r.events == before,
		      "type %u array0 %#x commit %llu: fault %d at %u", type,
		      array0, (unsigned long long)commit, r.fault, r.stop);
	}
	free(b.page);
	return 0;
}

/* array[0] of 0xfffffffc..0xffffffff: a 32-bit size would wrap to 0..3 */
static int test_wrapping_length(void)
{
	u32 array0, type;

	for (type = 0; type <= RB_TYPE_PADDING; type += RB_TYPE_PADDING) {
		for (array0 = 0xfffffffc; array0; array0++) {
			if (check_bad_record(type, array0, 1))
				return 1;
		}
	}
	return 0;
}

static int test_commit_past_page(void)
{
	static const u64 commits[] = {
		RB_PAGE_CAPACITY + 1, RB_PAGE_SIZE, 1ULL << 32,
		(1ULL << 32) + 16, ~0ULL & ~RB_COMMIT_FLAGS,
	};
	struct walked r;
	struct pb b;
	u32 i;

	pb_init(&b, 1);
	pb_event(&b, 1, 1);
	for (i = 0; i < ARRAY_SIZE(commits); i++) {
		CHECK(!walk(&b, commits[i], &r), "walk");
		CHECK(r.fault == RB_PAGE_BAD_COMMIT && !r.records,
		      "commit %#llx: fault %d, %u records",
		      (unsigned long long)commits[i], r.fault, r.records);
	}
	/* A commit at the page's end is taken: the zeros are no records */
	CHECK(!walk(&b, RB_PAGE_CAPACITY, &r), "walk");
	CHECK(r.fault == RB_PAGE_BAD_LENGTH && r.events == 1,
	      "full page: fault %d", r.fault);
	free(b.page);
	return 0;
}

/* Every length below 8 bytes or not a multiple of 4: type 0 and padding */
static int test_short_lengths(void)
{
	u32 array0, type;
	struct walked r;
	struct pb b;

	for (type = 0; type <= RB_TYPE_PADDING; type += RB_TYPE_PADDING) {
		for (array0 = 0; array0 < 16; array0++) {
			if ((array0 < 4 || array0 & 3) &&
			    check_bad_record(type, array0, 0))
				return 1;
		}
	}
	/* A zeroed page with a commit: type 0, length 0 */
	pb_init(&b, 1);
	CHECK(!walk(&b, 64, &r), "walk");
	CHECK(r.fault == RB_PAGE_BAD_LENGTH && !r.records, "zero page");
	free(b.page);
	return 0;
}

static int test_huge_padding(void)
{
	static const u32 lens[] = {
		RB_PAGE_CAPACITY, RB_PAGE_SIZE, 0x10000000, 0x7ffffffc,
		0xfffffff8,
	};
	u32 i;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		if (check_bad_record(RB_TYPE_PADDING, lens[i], 1))
			return 1;
	}
	return 0;
}

/* A time record (or a type-0 header) whose second word is past the commit */
static int test_cut_by_commit(void)
{
	static const u32 types[] = {
		0, RB_TYPE_TIME_EXTEND, RB_TYPE_TIME_STAMP, RB_TYPE_PADDING, 3,
	};
	struct walked r;
	struct pb b;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		pb_init(&b, 1);
		pb_event(&b, 1, 1);
		pb_word(&b, pb_hdr(types[i], 1));
		pb_word(&b, 4);
		CHECK(!walk(&b, b.len - 4, &r), "walk");
		CHECK(r.fault == RB_PAGE_BAD_LENGTH && r.stop == 12 &&
		      r.events == 1, "type %u: fault %d at %u", types[i],
		      r.fault, r.stop);
		free(b.page);
	}
	/* A time extend ending at the page's end is whole: no fault */
	pb_init(&b, 1);
	while (b.len < RB_PAGE_CAPACITY - 8) {
		pb_word(&b, pb_hdr(RB_TYPE_PADDING, 1));
		pb_word(&b, 4);
	}
	pb_word(&b, pb_hdr(RB_TYPE_TIME_EXTEND, 1));
	pb_word(&b, 1);
	CHECK(!walk(&b, RB_PAGE_CAPACITY, &r), "walk");
	CHECK(r.fault == RB_PAGE_OK && r.stop == RB_PAGE_CAPACITY,
	      "extend at the end: fault %d at %u", r.fault, r.stop);
	/* And cut 4 bytes before its end */
	CHECK(!walk(&b, RB_PAGE_CAPACITY - 4, &r), "walk");
	CHECK(r.fault == RB_PAGE_BAD_LENGTH &&
	      r.stop == RB_PAGE_CAPACITY - 8, "extend cut: fault %d at %u",
	      r.fault, r.stop);
	free(b.page);
	return 0;
}

static int test_time(void)
{
	struct walked r;
	struct pb b;

	/* An absolute stamp behind the page's time */
	pb_init(&b, 5000);
	pb_word(&b, pb_hdr(RB_TYPE_TIME_STAMP, 10));
	pb_word(&b, 0);
	CHECK(!walk(&b, b.len, &r) && r.fault == RB_PAGE_BAD_TIME,
	      "stamp back: fault %d", r.fault);
	free(b.page);
	/* An extend that wraps, and a delta that wraps */
	pb_init(&b, ~0ULL - 5);
	pb_word(&b, pb_hdr(RB_TYPE_TIME_EXTEND, 10));
	pb_word(&b, 0);
	CHECK(!walk(&b, b.len, &r) && r.fault == RB_PAGE_BAD_TIME,
	      "extend wraps: fault %d", r.fault);
	b.len = 0;
	pb_event(&b, 10, 1);
	CHECK(!walk(&b, b.len, &r) && r.fault == RB_PAGE_BAD_TIME &&
	      !r.records, "delta wraps: fault %d", r.fault);
	free(b.page);
	return 0;
}

/* Resuming at a place an earlier walk returned gives the same records */
static int test_resume(void)
{
	struct rb_walk w, again;
	struct rb_rec rec, rec2;
	struct pb b;

	pb_init(&b, 100);
	pb_event(&b, 1, 1);
	pb_event(&b, 2, 3);
	pb_event(&b, 3, 2);
	rb_walk_start(&w, b.page->data, b.len, RB_PAGE_CAPACITY, 100);
	CHECK(rb_event_next(&w, &rec), "first");
	rb_walk_start(&again, b.page->data, b.len, RB_PAGE_CAPACITY, 0);
	again.off = w.off;
	again.ts = w.ts;
	while (rb_event_next(&w, &rec)) {
		CHECK(rb_event_next(&again, &rec2), "resumed walk ends early");
		CHECK(rec.off == rec2.off && rec.ts == rec2.ts, "differs");
	}
	CHECK(!rb_event_next(&again, &rec2) && w.ts == 106, "ts %llu",
	      (unsigned long long)w.ts);
	/* A place past the commit is the end, not a read outside */
	again.off = 0xfffffff0;
	CHECK(!rb_rec_next(&again, &rec) && !again.fault, "past the end");
	free(b.page);
	return 0;
}

int main(void)
{
	ck_run("record decoder: every kind", test_kinds);
	ck_run("record decoder: wrapping array[0]", test_wrapping_length);
	ck_run("record decoder: commit past the page", test_commit_past_page);
	ck_run("record decoder: zero and short lengths", test_short_lengths);
	ck_run("record decoder: huge padding", test_huge_padding);
	ck_run("record decoder: records cut by the commit",
	       test_cut_by_commit);
	ck_run("record decoder: time backwards and wrapping", test_time);
	ck_run("record decoder: a walk resumed", test_resume);
	return ck_exit();
}
