// SPDX-License-Identifier: GPL-2.0
/*
 * Format test: pages written by shared/ring_buffer.c are decoded with
 * libtraceevent's kbuffer API (the reader trace-cmd uses for the kernel's own
 * ring-buffer pages) and every event must come back with its payload, size
 * and timestamp, across time extends, clamps and page boundaries. Also the
 * meta-page counters, lost-event reporting, no-overwrite drops, reset, the
 * enable/nesting rules. The page descriptor has its own test, desc_test.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/kbuffer.h>

#include "check.h"
#include "testbuf.h"
#include "kreader.h"

struct expect {
	u64 ts;
	u32 len;
	u8 bytes[RB_MAX_PAYLOAD];
};

static u64 rng_state = 0x9e3779b97f4a7c15ULL;

static u64 rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static struct kbuffer *kbuf;

/*
 * Swap until the writer has nothing more to give and decode each new reader
 * page with kbuffer. Calls @fn for every event with the lost count the swap
 * reported before it (0 after the first event of a page).
 */
typedef int (*event_fn)(void *arg, u64 ts, const void *data, int size,
			u64 lost);

static int drain(struct tbuf *tb, event_fn fn, void *arg, u64 *nr_events)
{
	unsigned long long ts;
	u64 lost;
	void *data;
	u32 id;

	*nr_events = 0;
	while (!rb_swap_reader(&tb->cpu)) {
		id = tb->meta->reader.id;
		lost = tb->meta->reader.lost_events;
		if (id >= tb->nr_pages)
			return 1;
		if (kbuffer_load_subbuffer(kbuf, tb->pages[id]) < 0)
			return 1;
		for (data = kbuffer_read_event(kbuf, &ts); data;
		     data = kbuffer_next_event(kbuf, &ts)) {
			if (fn(arg, ts, data, kbuffer_event_size(kbuf), lost))
				return 1;
			lost = 0;
			(*nr_events)++;
		}
		if (kbuffer_missed_events(kbuf))
			return 1;
	}
	return 0;
}

static int test_layout_init(void)
{
	struct tbuf tb;
	struct rb_meta_ext *ext;
	u32 i;

	CHECK(tb_init(&tb, 3, 5, RB_MODE_OVERWRITE) == 0, "init");
	ext = (void *)((u8 *)tb.meta + RB_META_EXT_OFFSET);
	CHECK(tb.meta->meta_page_size == 4096, "meta_page_size");
	CHECK(tb.meta->meta_struct_len == 80, "meta_struct_len");
	CHECK(tb.meta->subbuf_size == 4096, "subbuf_size");
	CHECK(tb.meta->nr_subbufs == 5, "nr_subbufs includes the reader");
	CHECK(tb.meta->reader.id == 0 && tb.meta->reader.lost_events == 0 &&
	      tb.meta->reader.read == 0, "reader");
	CHECK(!tb.meta->entries && !tb.meta->overrun && !tb.meta->read &&
	      !tb.meta->pages_lost && !tb.meta->pages_touched &&
	      !tb.meta->flags, "counters");
	CHECK(ext->magic == RB_META_EXT_MAGIC && ext->mode == 0 &&
	      !ext->dropped, "ext");
	for (i = 0; i < 5; i++)
		CHECK(tb.pages[i]->commit == 0, "page %u commit", i);
	/* the rest of the meta page is not the writer's to clear */
	CHECK(((u8 *)tb.meta)[100] == 0xa5, "meta tail untouched");
	CHECK(rb_check(&tb.cpu) == 0, "invariants");
	/* refused configurations */
	{
		struct rb_cpu c;

		CHECK(rb_init(&c, 0, tb.meta, (void *const *)tb.pages, 2,
			      tb.info, RB_MODE_OVERWRITE) == -RB_EINVAL,
		      "2 pages");
		CHECK(rb_init(&c, 0, (u8 *)tb.meta + 8,
			      (void *const *)tb.pages, 3, tb.info,
			      RB_MODE_OVERWRITE) == -RB_EINVAL, "unaligned");
	}
	tb_free(&tb);
	return 0;
}

/* Exact bytes for a hand-computed sequence, no decoder involved. */
static int test_golden_bytes(void)
{
	struct tbuf tb;
	u64 pl8 = 0x1122334455667788ULL;
	u32 w[16];
	u8 three[3] = { 1, 2, 3 };

	CHECK(tb_init(&tb, 0, 3, RB_MODE_OVERWRITE) == 0, "init");
	rb_enable(&tb.cpu);
	CHECK(rb_write(&tb.cpu, 1000, &pl8, 8), "w1");
	CHECK(rb_write(&tb.cpu, 1005, &pl8, 8), "w2");
	CHECK(rb_write(&tb.cpu, 1005 + (1ULL << 27) + 3, three, 3), "w3");
	memcpy(w, tb.pages[1]->data, sizeof(w));
	CHECK(tb.pages[1]->time_stamp == 1000, "page ts %llu",
	      (unsigned long long)tb.pages[1]->time_stamp);
	/* first event: delta 0, type_len 0, array[0] = 8 + 4 */
	CHECK(w[0] == 0 && w[1] == 12, "e1 hdr %x %x", w[0], w[1]);
	CHECK(w[2] == 0x55667788 && w[3] == 0x11223344, "e1 payload");
	CHECK(w[4] == (5 << 5) && w[5] == 12, "e2 hdr %x %x", w[4], w[5]);
	/* time extend: type 30, low 27 bits of delta, then delta >> 27 */
	CHECK(w[8] == (30 | (3 << 5)) && w[9] == 1, "extend %x %x", w[8],
	      w[9]);
	/* 3-byte payload rounded to 8, padding zeroed */
	CHECK(w[10] == 0 && w[11] == 12, "e3 hdr %x %x", w[10], w[11]);
	CHECK(w[12] == 0x030201, "e3 payload+pad %x", w[12]);
	CHECK(w[13] == 0, "pad");
	CHECK(tb.pages[1]->commit == 56, "commit %llu",
	      (unsigned long long)tb.pages[1]->commit);
	CHECK(tb.meta->entries == 3, "entries");
	tb_free(&tb);
	return 0;
}

/* 0 if @a and @b hold the same pages, byte for byte, and @b is sound */
static int same_pages(struct tbuf *a, struct tbuf *b)
{
	unsigned int p;

	for (p = 0; p < a->nr_pages; p++) {
		CHECK(a->pages[p]->commit == b->pages[p]->commit &&
		      a->pages[p]->time_stamp == b->pages[p]->time_stamp,
		      "page %u header", p);
		CHECK(!memcmp(a->pages[p]->data, b->pages[p]->data,
			      a->pages[p]->commit), "page %u bytes", p);
	}
	CHECK(rb_check(&b->cpu) == 0, "invariants");
	return 0;
}

/*
 * rb_write_words() (the payload's words stored with the header, the
 * count loaded before them: hyp_enter/hyp_exit's path) leaves the same bytes
 * as rb_write() of the same payload: on the fast path, through a time
 * extend and through page switches (the slow path), with padding.
 */
static int test_reserve_words(void)
{
	struct tbuf a, b;
	u64 pl[3], ts = 1000;
	unsigned int i, n = 700;

	CHECK(tb_init(&a, 0, 4, RB_MODE_OVERWRITE) == 0, "init a");
	CHECK(tb_init(&b, 0, 4, RB_MODE_OVERWRITE) == 0, "init b");
	rb_enable(&a.cpu);
	rb_enable(&b.cpu);
	for (i = 0; i < n; i++) {
		u32 len = i % 3 == 0 ? 8 : i % 3 == 1 ? 16 : 12;

		ts += i % 50 == 7 ? (1ULL << 27) + i : 3 + i % 5;
		pl[0] = 0x0102030405060708ULL * (i + 1);
		pl[1] = ~pl[0] & (len == 12 ? 0xffffffffULL : ~0ULL);
		pl[2] = 0;
		CHECK(rb_write(&a.cpu, ts, pl, len), "rb_write %u", i);
		CHECK(rb_write_words(&b.cpu, len, ts, len == 8 ? 1 : 2,
				     pl[0], pl[1]), "rb_write_words %u", i);
	}
	CHECK(a.meta->entries == n && b.meta->entries == n, "entries");
	if (same_pages(&a, &b))
		return 1;
	tb_free(&a);
	tb_free(&b);
	return 0;
}

/*
 * rb_write_pair() (a traced call's hyp_enter and hyp_exit under one claim)
 * leaves the same bytes as rb_write() of the two events, one after the
 * other. Where it answers RB_PAIR_SLOW (a page crossing, a delta too
 * large for the header, a time that went back) nothing is written and the
 * two go one at a time, as the hypervisor writes them then; the test
 * counts both kinds, so that both are reached.
 */
static int test_write_pair(void)
{
	struct tbuf a, b;
	u64 ts = 1000, enter, exit_[2];
	unsigned int i, n = 900, fast = 0, slow = 0;

	CHECK(tb_init(&a, 0, 4, RB_MODE_OVERWRITE) == 0, "init a");
	CHECK(tb_init(&b, 0, 4, RB_MODE_OVERWRITE) == 0, "init b");
	rb_enable(&a.cpu);
	rb_enable(&b.cpu);
	for (i = 0; i < n; i++) {
		u64 ts_exit;
		int ret;

		ts += i % 50 == 7 ? (1ULL << 27) + i : 3 + i % 5;
		/* The call's own length: long, or a time that went back */
		ts_exit = i % 40 == 11 ? ts + (1ULL << 27) :
			  i % 40 == 23 ? ts - 2 : ts + 1 + i % 7;
		enter = 0x0102030405060708ULL * (i + 1);
		exit_[0] = enter + 1;
		exit_[1] = ~enter;
		CHECK(rb_write(&a.cpu, ts, &enter, 8), "rb_write enter %u", i);
		CHECK(rb_write(&a.cpu, ts_exit, exit_, 16), "rb_write exit %u",
		      i);
		ret = rb_write_pair(&b.cpu, ts, enter, ts_exit, exit_[0],
				    exit_[1]);
		if (ret == RB_PAIR_SLOW) {
			slow++;
			CHECK(rb_write_words(&b.cpu, 8, ts, 1, enter, 0) &&
			      rb_write_words(&b.cpu, 16, ts_exit, 2, exit_[0],
					     exit_[1]), "one at a time %u", i);
		} else {
			fast++;
			CHECK(ret == 1, "rb_write_pair %u: %d", i, ret);
		}
		ts = ts_exit > ts ? ts_exit : ts;
	}
	CHECK(fast > n / 2 && slow > n / 20, "fast %u, slow %u", fast, slow);
	CHECK(a.meta->entries == 2 * n && b.meta->entries == 2 * n,
	      "entries %llu %llu", (unsigned long long)a.meta->entries,
	      (unsigned long long)b.meta->entries);
	if (same_pages(&a, &b))
		return 1;
	rb_disable(&b.cpu);
	CHECK(rb_write_pair(&b.cpu, ts + 1, 1, ts + 2, 2, 3) == 0,
	      "refused while disabled");
	CHECK(b.meta->entries == 2 * n, "nothing written while disabled");
	tb_free(&a);
	tb_free(&b);
	return 0;
}

struct rt_state {
	struct expect *exp;
	u64 n, next;
};

static int rt_check(void *arg, u64 ts, const void *data, int size, u64 lost)
{
	struct rt_state *s = arg;
	struct expect *e;

	if (s->next >= s->n || lost) {
		printf("  extra event or unexpected loss at %llu\n",
		       (unsigned long long)s->next);
		return 1;
	}
	e = &s->exp[s->next++];
	if (ts != e->ts || (u32)size != ((e->len + 7) & ~7U) ||
	    memcmp(data, e->bytes, e->len)) {
		printf("  event %llu: ts %llu/%llu size %d/%u\n",
		       (unsigned long long)s->next - 1,
		       (unsigned long long)ts, (unsigned long long)e->ts,
		       size, e->len);
		return 1;
	}
	return 0;
}

/* Random sizes and time steps, every record checked through kbuffer. */
static int test_kbuffer_roundtrip(void)
{
	const u64 n = 20000;
	struct rt_state s = { .n = n };
	u64 ts = 1ULL << 40, last = 0, got, i, extends = 0, clamps = 0;
	struct rb_stats st;
	struct tbuf tb;
	u32 j;

	s.exp = calloc(n, sizeof(*s.exp));
	CHECK(tb_init(&tb, 0, 4096, RB_MODE_NO_OVERWRITE) == 0, "init");
	rb_enable(&tb.cpu);
	for (i = 0; i < n; i++) {
		struct expect *e = &s.exp[i];
		u64 r = rng();

		switch (r % 16) {
		case 0:	/* needs a TIME_EXTEND */
			ts += (1ULL << 27) + (rng() % (1ULL << 40));
			extends++;
			break;
		case 1:	/* clock re-anchored backwards */
			ts -= rng() % 100000;
			break;
		case 2:	/* exactly the largest delta without an extend */
			ts += (1ULL << 27) - 1;
			break;
		default:
			ts += rng() % 5000;
		}
		switch ((r >> 8) % 8) {
		case 0:
			e->len = rng() % 4073;	/* up to RB_MAX_PAYLOAD */
			break;
		case 1:
			e->len = 8;
			break;
		case 2:
			e->len = 16;
			break;
		default:
			e->len = rng() % 200;
		}
		for (j = 0; j < e->len; j++)
			e->bytes[j] = (u8)rng();
		if (ts < last)
			clamps++;
		e->ts = ts < last ? last : ts;
		last = e->ts;
		CHECK(rb_write(&tb.cpu, ts, e->bytes, e->len), "write %llu",
		      (unsigned long long)i);
	}
	rb_get_stats(&tb.cpu, &st);
	CHECK(st.clamped == clamps && st.dropped == 0, "clamped %llu/%llu",
	      (unsigned long long)st.clamped, (unsigned long long)clamps);
	CHECK(tb.meta->entries == n, "entries");
	CHECK(drain(&tb, rt_check, &s, &got) == 0, "decode");
	CHECK(got == n && s.next == n, "decoded %llu of %llu",
	      (unsigned long long)got, (unsigned long long)n);
	CHECK(tb.meta->pages_touched > 100, "crossed pages");
	printf("  %llu events, %llu pages, %llu time extends, %llu clamps\n",
	       (unsigned long long)n,
	       (unsigned long long)tb.meta->pages_touched + 1,
	       (unsigned long long)extends, (unsigned long long)clamps);
	tb_free(&tb);
	free(s.exp);
	return 0;
}

static int test_too_big(void)
{
	static u8 big[RB_MAX_PAYLOAD + 8];
	struct rb_meta_ext *ext;
	unsigned long long ts;
	struct tbuf tb;
	void *data;

	CHECK(tb_init(&tb, 0, 3, RB_MODE_OVERWRITE) == 0, "init");
	ext = (void *)((u8 *)tb.meta + RB_META_EXT_OFFSET);
	rb_enable(&tb.cpu);
	memset(big, 0x5a, sizeof(big));
	CHECK(!rb_write(&tb.cpu, 10, big, RB_MAX_PAYLOAD + 1), "refused");
	CHECK(!rb_reserve(&tb.cpu, 0xffffffffU, 11), "huge refused");
	CHECK(ext->too_big == 2 && tb.meta->entries == 0, "counted");
	CHECK(rb_write(&tb.cpu, 12, big, 8), "small");
	CHECK(rb_write(&tb.cpu, 13, big, RB_MAX_PAYLOAD), "largest");
	CHECK(tb.pages[2]->commit == RB_PAGE_CAPACITY, "fills a page");
	CHECK(rb_swap_reader(&tb.cpu) == 0, "swap");
	CHECK(rb_swap_reader(&tb.cpu) == 0, "swap");
	CHECK(tb.meta->reader.id == 2, "reader");
	CHECK(kbuffer_load_subbuffer(kbuf, tb.pages[2]) >= 0, "load");
	data = kbuffer_read_event(kbuf, &ts);
	CHECK(data && ts == 13 && kbuffer_event_size(kbuf) == RB_MAX_PAYLOAD &&
	      !memcmp(data, big, RB_MAX_PAYLOAD), "decoded largest");
	CHECK(!kbuffer_next_event(kbuf, &ts), "alone on its page");
	tb_free(&tb);
	return 0;
}

struct seq_state {
	u64 next;	/* next sequence number expected */
	u64 lost;	/* sum of reported lost events */
	u64 last_ts;
};

static int seq_check(void *arg, u64 ts, const void *data, int size, u64 lost)
{
	struct seq_state *s = arg;
	u64 v[2];

	if (size != 16)
		return 1;
	memcpy(v, data, 16);
	if (v[0] != s->next + lost || v[1] != ts || ts < s->last_ts) {
		printf("  seq %llu expected %llu + lost %llu (ts %llu/%llu)\n",
		       (unsigned long long)v[0], (unsigned long long)s->next,
		       (unsigned long long)lost, (unsigned long long)ts,
		       (unsigned long long)v[1]);
		return 1;
	}
	s->lost += lost;
	s->next = v[0] + 1;
	s->last_ts = ts;
	return 0;
}

static bool write_seq(struct tbuf *tb, u64 seq)
{
	u64 v[2] = { seq, 1000 + seq * 7 };

	return rb_write(&tb->cpu, v[1], v, 16);
}

/* Flight recorder: the oldest pages go, lost counts match the seq gaps. */
static int test_overwrite_lost(void)
{
	struct seq_state s = { 0 };
	struct tbuf tb;
	u64 i, got, per_page = RB_PAGE_CAPACITY / 24;

	CHECK(tb_init(&tb, 0, 4, RB_MODE_OVERWRITE) == 0, "init");
	rb_enable(&tb.cpu);
	for (i = 0; i < 1000; i++)
		CHECK(write_seq(&tb, i), "write");
	CHECK(tb.meta->entries == 1000, "entries cumulative");
	CHECK(tb.meta->overrun % per_page == 0 && tb.meta->overrun > 0,
	      "overrun %llu whole pages",
	      (unsigned long long)tb.meta->overrun);
	CHECK(tb.meta->pages_lost == tb.meta->overrun / per_page, "pages_lost");
	CHECK(drain(&tb, seq_check, &s, &got) == 0, "decode");
	CHECK(s.next == 1000, "last event read %llu",
	      (unsigned long long)s.next);
	CHECK(got + s.lost == 1000 && s.lost == tb.meta->overrun,
	      "got %llu lost %llu overrun %llu", (unsigned long long)got,
	      (unsigned long long)s.lost,
	      (unsigned long long)tb.meta->overrun);
	/* counters stay cumulative: reading does not decrement anything */
	CHECK(tb.meta->entries == 1000, "entries after reading");
	tb_free(&tb);
	return 0;
}

/*
 * Hidden counters: while another reader consumes the pages, the meta page
 * the kernel reads says nothing was written, the extension says what was;
 * shown again, the meta page has every count, and the pages themselves
 * are the same either way.
 */
static int test_hidden_counters(void)
{
	struct rb_meta_ext *ext;
	struct seq_state s = { 0 };
	struct tbuf tb;
	u64 i, got;

	CHECK(tb_init(&tb, 0, 4, RB_MODE_OVERWRITE) == 0, "init");
	ext = (struct rb_meta_ext *)((u8 *)tb.meta + RB_META_EXT_OFFSET);
	rb_enable(&tb.cpu);
	for (i = 0; i < 100; i++)
		CHECK(write_seq(&tb, i), "write");
	rb_set_hidden(&tb.cpu, true);
	CHECK(rb_check(&tb.cpu) == 0, "invariants hidden");
	CHECK(ext->hidden == 1, "extension says hidden");
	CHECK(tb.meta->entries == 0 && tb.meta->overrun == 0 &&
	      tb.meta->pages_touched == 0, "meta page shows nothing");
	CHECK(ext->counters.entries == 100, "extension has the 100");
	for (; i < 1000; i++)
		CHECK(write_seq(&tb, i), "write while hidden");
	CHECK(tb.meta->entries == 0 && tb.meta->overrun == 0,
	      "meta page still shows nothing");
	CHECK(ext->counters.entries == 1000 && ext->counters.overrun > 0 &&
	      ext->counters.pages_lost > 0, "extension counts, losses too");
	rb_set_hidden(&tb.cpu, false);
	CHECK(rb_check(&tb.cpu) == 0, "invariants shown");
	CHECK(ext->hidden == 0, "extension says shown");
	CHECK(tb.meta->entries == 1000 &&
	      tb.meta->overrun == ext->counters.overrun,
	      "meta page has every count again");
	CHECK(drain(&tb, seq_check, &s, &got) == 0, "decode");
	CHECK(s.next == 1000 && got + s.lost == 1000, "got %llu lost %llu",
	      (unsigned long long)got, (unsigned long long)s.lost);
	rb_reset(&tb.cpu, NULL);
	CHECK(ext->counters.entries == 0 && tb.meta->entries == 0,
	      "reset zeroes both");
	tb_free(&tb);
	return 0;
}

/* No-overwrite: the newest events are dropped and counted, none lost. */
static int test_no_overwrite(void)
{
	struct seq_state s = { 0 };
	struct rb_meta_ext *ext;
	u64 seq = 0, got, i, dropped = 0, total = 0;
	struct tbuf tb;

	CHECK(tb_init(&tb, 0, 3, RB_MODE_NO_OVERWRITE) == 0, "init");
	ext = (void *)((u8 *)tb.meta + RB_META_EXT_OFFSET);
	rb_enable(&tb.cpu);
	for (i = 0; i < 1000; i++) {
		if (write_seq(&tb, seq))
			seq++;
		else
			dropped++;
	}
	CHECK(seq == 2 * (RB_PAGE_CAPACITY / 24), "kept %llu",
	      (unsigned long long)seq);
	CHECK(ext->dropped == dropped && tb.meta->overrun == 0 &&
	      tb.meta->entries == seq, "counters");
	/* one swap frees the oldest page; writing resumes */
	CHECK(rb_swap_reader(&tb.cpu) == 0, "swap");
	CHECK(tb.meta->reader.lost_events == 0, "nothing lost");
	total = RB_PAGE_CAPACITY / 24;
	for (i = 0; i < 10; i++)
		CHECK(write_seq(&tb, seq++), "resumed");
	CHECK(kbuffer_load_subbuffer(kbuf, tb.pages[tb.meta->reader.id]) >= 0,
	      "load");
	{
		unsigned long long ts;
		void *d;

		for (d = kbuffer_read_event(kbuf, &ts); d;
		     d = kbuffer_next_event(kbuf, &ts))
			CHECK(!seq_check(&s, ts, d, kbuffer_event_size(kbuf),
					 0), "first page");
	}
	CHECK(s.next == total, "first page events");
	CHECK(drain(&tb, seq_check, &s, &got) == 0, "decode");
	CHECK(s.next == seq && s.lost == 0, "all kept events read");
	tb_free(&tb);
	return 0;
}

static int test_reset(void)
{
	struct seq_state s = { 0 };
	struct rb_stats before;
	struct tbuf tb;
	u64 i, got;
	u32 id;

	CHECK(tb_init(&tb, 0, 4, RB_MODE_OVERWRITE) == 0, "init");
	rb_enable(&tb.cpu);
	for (i = 0; i < 700; i++)
		CHECK(write_seq(&tb, i), "write");
	CHECK(rb_swap_reader(&tb.cpu) == 0, "swap");
	id = tb.meta->reader.id;
	CHECK(id != 0 && tb.meta->reader.lost_events, "lost reported");
	CHECK(rb_reset(&tb.cpu, &before) == 0, "reset");
	CHECK(before.entries == 700 && before.overrun, "before");
	CHECK(tb.meta->reader.id == id, "reader.id kept");
	CHECK(!tb.meta->entries && !tb.meta->overrun && !tb.meta->pages_lost &&
	      !tb.meta->pages_touched && !tb.meta->reader.lost_events &&
	      !tb.meta->read && !tb.meta->reader.read, "counters zeroed");
	for (i = 0; i < 4; i++)
		CHECK(tb.pages[i]->commit == 0, "commit %llu zeroed",
		      (unsigned long long)i);
	CHECK(rb_check(&tb.cpu) == 0, "invariants");
	CHECK(rb_swap_reader(&tb.cpu) == -RB_EAGAIN, "nothing to swap");
	/* still enabled; new events start over at the head page */
	for (i = 0; i < 300; i++)
		CHECK(write_seq(&tb, 10000 + i), "write after reset");
	s.next = 10000;
	CHECK(drain(&tb, seq_check, &s, &got) == 0, "decode");
	CHECK(got == 300 && s.lost == 0 && s.next == 10300, "only new events");
	/* a disabled buffer stays disabled across reset */
	rb_disable(&tb.cpu);
	CHECK(rb_reset(&tb.cpu, NULL) == 0, "reset");
	CHECK(!write_seq(&tb, 1), "still disabled");
	tb_free(&tb);
	return 0;
}

static int test_enable_nested(void)
{
	struct rb_meta_ext *ext;
	struct tbuf tb;
	u64 v = 7;
	void *p;

	CHECK(tb_init(&tb, 0, 3, RB_MODE_OVERWRITE) == 0, "init");
	ext = (void *)((u8 *)tb.meta + RB_META_EXT_OFFSET);
	CHECK(!rb_write(&tb.cpu, 1, &v, 8), "disabled at init");
	CHECK(!ext->nested && !tb.meta->entries, "not counted");
	rb_enable(&tb.cpu);
	p = rb_reserve(&tb.cpu, 8, 2);
	CHECK(p, "reserve");
	CHECK(!rb_write(&tb.cpu, 3, &v, 8), "nested refused");
	CHECK(ext->nested == 1, "nested counted");
	memcpy(p, &v, 8);
	rb_commit(&tb.cpu);
	CHECK(tb.meta->entries == 1, "outer committed");
	CHECK(rb_disable(&tb.cpu) == true, "was enabled");
	CHECK(rb_disable(&tb.cpu) == false, "already disabled");
	CHECK(!rb_write(&tb.cpu, 4, &v, 8), "disabled");
	rb_enable(&tb.cpu);
	CHECK(rb_write(&tb.cpu, 5, &v, 8), "enabled again");
	CHECK(tb.meta->entries == 2, "entries");
	tb_free(&tb);
	return 0;
}

/*
 * The writer's page handed to the reader: the writer keeps appending to it,
 * the reader sees the growing commit, no event is read twice.
 */
static int swap_unknown(void *cpu, u64 read)
{
	(void)read;
	return rb_swap_reader(cpu);
}

static int test_writer_on_reader(void)
{
	struct kreader r;
	struct kevent ev;
	struct tbuf tb;
	u64 i, seq = 0, v[2];

	CHECK(tb_init(&tb, 0, 3, RB_MODE_OVERWRITE) == 0, "init");
	kreader_init(&r, tb.meta, tb.pages, 3,
		     swap_unknown, &tb.cpu);
	rb_enable(&tb.cpu);
	CHECK(kreader_next(&r, &ev) == 0, "empty");
	for (i = 0; i < 3; i++)
		CHECK(write_seq(&tb, i), "write");
	for (i = 0; i < 3; i++) {
		CHECK(kreader_next(&r, &ev) == 1, "read %llu",
		      (unsigned long long)i);
		memcpy(v, ev.payload, 16);
		CHECK(v[0] == seq++ && ev.ts == v[1], "seq");
	}
	CHECK(r.reader_id == 1, "writer page is the reader");
	CHECK(rb_swap_reader(&tb.cpu) == -RB_EAGAIN, "nothing else to give");
	for (i = 3; i < 1000; i++) {
		CHECK(write_seq(&tb, i), "write");
		if (i % 3)
			continue;
		while (kreader_next(&r, &ev) == 1) {
			memcpy(v, ev.payload, 16);
			CHECK(v[0] == seq + ev.lost, "seq %llu/%llu+%llu",
			      (unsigned long long)v[0],
			      (unsigned long long)seq,
			      (unsigned long long)ev.lost);
			CHECK(ev.ts == v[1], "ts");
			seq = v[0] + 1;
		}
		CHECK(!r.error, "%s", r.error);
	}
	CHECK(seq == 1000 && kreader_unread(&r) == 0, "all read");
	CHECK(rb_check(&tb.cpu) == 0, "invariants");
	tb_free(&tb);
	return 0;
}

/*
 * The race behind a silent loss (88-virtio-agent, 34 events): the reader
 * is handed the page the writer is on, reads it to its commit, and before
 * it asks for the next page the writer fills that page and moves on. Its
 * swap must not take the page back with events it never saw: a reader
 * that says how far it read is told to read the rest first.
 */
static int test_swap_after_unread(void)
{
	u64 per_page = RB_PAGE_CAPACITY / 24, i, seen, events;
	struct rb_data_page *page;
	struct tbuf tb;
	u32 id;

	CHECK(tb_init(&tb, 0, 3, RB_MODE_OVERWRITE) == 0, "init");
	rb_enable(&tb.cpu);
	for (i = 0; i < 5; i++)
		CHECK(write_seq(&tb, i), "write");
	CHECK(rb_swap_reader_after(&tb.cpu, 0) == 0, "the writer's page");
	id = tb.meta->reader.id;
	page = tb.pages[id];
	/* the reader takes what is there: 5 events */
	seen = page->commit;
	CHECK(seen == 5 * 24, "commit %llu", (unsigned long long)seen);
	CHECK(rb_swap_reader_after(&tb.cpu, seen) == -RB_EAGAIN,
	      "the writer is still on the reader page");
	/* the writer fills the reader page and starts the next one */
	for (i = 5; i < per_page + 1; i++)
		CHECK(write_seq(&tb, i), "write");
	CHECK(tb.meta->overrun == 0, "nothing overwritten");
	CHECK(rb_swap_reader_after(&tb.cpu, seen) == -RB_ENOTEMPTY,
	      "swap with %llu of %llu bytes read", (unsigned long long)seen,
	      (unsigned long long)page->commit);
	CHECK(tb.meta->reader.id == id, "the reader keeps its page");
	CHECK(rb_check(&tb.cpu) == 0, "invariants");
	/* it reads the rest, then may swap */
	seen = page->commit;
	events = seen / 24;
	CHECK(events == per_page, "the page is full: %llu events",
	      (unsigned long long)events);
	CHECK(rb_swap_reader_after(&tb.cpu, seen) == 0, "swap once all read");
	CHECK(tb.meta->reader.id != id && tb.meta->reader.lost_events == 0,
	      "next page, nothing lost");
	CHECK(tb.pages[tb.meta->reader.id]->commit == 24, "the one event after");
	CHECK(rb_check(&tb.cpu) == 0, "invariants");
	tb_free(&tb);
	return 0;
}

/* Deltas too large for an extend start a page; the absolute ts survives. */
static int test_huge_delta(void)
{
	u64 v = 1, ts[3] = { 100, 100 + (1ULL << 59) + 5, 1ULL << 62 };
	unsigned long long got;
	struct tbuf tb;
	int i;

	CHECK(tb_init(&tb, 0, 5, RB_MODE_OVERWRITE) == 0, "init");
	rb_enable(&tb.cpu);
	for (i = 0; i < 3; i++)
		CHECK(rb_write(&tb.cpu, ts[i], &v, 8), "write");
	for (i = 0; i < 3; i++) {
		CHECK(rb_swap_reader(&tb.cpu) == 0, "swap");
		CHECK(kbuffer_load_subbuffer(kbuf,
			tb.pages[tb.meta->reader.id]) >= 0, "load");
		CHECK(kbuffer_read_event(kbuf, &got) && got == ts[i],
		      "ts %d: %llu", i, got);
	}
	tb_free(&tb);
	return 0;
}

int main(void)
{
	kbuf = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);
	if (!kbuf)
		return 2;
	ck_run("format: meta page and pages after init", test_layout_init);
	ck_run("format: golden bytes", test_golden_bytes);
	ck_run("format: first words stored with the header",
	       test_reserve_words);
	ck_run("format: a call's two events under one claim",
	       test_write_pair);
	ck_run("format: kbuffer round trip, random sizes/times",
	       test_kbuffer_roundtrip);
	ck_run("format: oversized events refused", test_too_big);
	ck_run("format: overwrite counts and lost events", test_overwrite_lost);
	ck_run("format: no-overwrite drops newest", test_no_overwrite);
	ck_run("format: counters hidden from the kernel's reader",
	       test_hidden_counters);
	ck_run("format: reset", test_reset);
	ck_run("format: enable/disable and nesting", test_enable_nested);
	ck_run("format: writer on the reader page", test_writer_on_reader);
	ck_run("format: no swap over an unread reader page",
	       test_swap_after_unread);
	ck_run("format: deltas beyond 59 bits", test_huge_delta);
	kbuffer_free(kbuf);
	return ck_exit();
}
