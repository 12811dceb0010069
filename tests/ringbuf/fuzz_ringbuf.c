// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile-host fuzzer (libFuzzer). The input is a program of operations on
 * one CPU's buffer: writes of random sizes at random times (forward, far
 * forward, backwards), reserve with a nested write inside, swap, reset,
 * enable, disable, a kernel-like consumer, and "host" scribbles of random
 * bytes anywhere on the meta page and the data pages.
 *
 * After every operation:
 *   - rb_check(): the writer's private invariants hold;
 *   - every byte the operation changed in shared memory lies where the
 *     writer's *private* state says it may write (the event's bytes on the
 *     tail page, page headers, the meta struct and the hyptrace extension):
 *     whatever the host wrote cannot steer a store elsewhere;
 *   - a written event reads back with the right header, timestamp and
 *     payload, and the counters match a model of successful writes;
 * and AddressSanitizer sees every page as its own allocation.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../shared/ring_buffer.h"
#include "kreader.h"

#define MAX_PAGES	9

static struct rb_cpu cpu;
static struct rb_page_info info[MAX_PAGES];
static struct rb_data_page *pages[MAX_PAGES];
static struct rb_meta *meta;
static u8 shadow[MAX_PAGES + 1][RB_PAGE_SIZE];
static u32 nr_pages;

struct input {
	const u8 *p;
	size_t left;
};

static u64 take(struct input *in, int bytes)
{
	u64 v = 0;

	while (bytes--) {
		v <<= 8;
		if (in->left) {
			v |= *in->p++;
			in->left--;
		}
	}
	return v;
}

static u8 *page_bytes(u32 i)
{
	return i == nr_pages ? (u8 *)meta : (u8 *)pages[i];
}

static void snapshot(void)
{
	u32 i;

	for (i = 0; i <= nr_pages; i++)
		memcpy(shadow[i], page_bytes(i), RB_PAGE_SIZE);
}

struct region {
	u32 page;		/* nr_pages means the meta page */
	u32 start, end;
};

static int in_regions(u32 page, u32 off, const struct region *r, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (r[i].page == page && off >= r[i].start && off < r[i].end)
			return 1;
	return 0;
}

/* Abort unless every changed byte is inside one of @r. */
static void check_changes(const struct region *r, int n, const char *op)
{
	u32 i, off;

	for (i = 0; i <= nr_pages; i++) {
		const u8 *now = page_bytes(i);

		for (off = 0; off < RB_PAGE_SIZE; off++) {
			if (now[off] == shadow[i][off] || in_regions(i, off, r, n))
				continue;
			fprintf(stderr, "%s changed page %u offset %u\n", op, i,
				off);
			abort();
		}
	}
}

#define FAIL_IF(cond)							\
	do {								\
		if (cond) {						\
			fprintf(stderr, "%s:%d: %s\n", __FILE__,	\
				__LINE__, #cond);			\
			abort();					\
		}							\
	} while (0)

static int swap_cb(void *arg, u64 read)
{
	return rb_swap_reader_after(arg, read);
}

struct model {
	u64 entries;		/* successful writes since reset */
	u64 last_ts;		/* writer's clamped time of the last event */
	u64 ts;			/* the fuzzer's clock */
	bool enabled;
};

static void do_write(struct input *in, struct model *m, int nested)
{
	u32 sel = (u32)take(in, 1), len, old_write = cpu.write, i;
	struct rb_data_page *old_tail = cpu.tail_page;
	u64 step = take(in, 2), ts, exp_ts, size;
	struct region r[4];
	u8 payload[RB_MAX_PAYLOAD + 16];
	const u32 *hdr;
	bool ok;
	void *p;

	switch (sel & 7) {
	case 0:
		len = (u32)take(in, 2) % (RB_MAX_PAYLOAD + 16);
		break;
	case 1:
		len = 8;
		break;
	case 2:
		len = 16;
		break;
	default:
		len = (sel >> 3) % 64;
	}
	switch ((step >> 12) & 7) {
	case 0:		/* needs a time extend */
		m->ts += (step << 20) + (1ULL << 27);
		break;
	case 1:		/* backwards */
		m->ts -= step * 16;
		break;
	case 2:		/* beyond what an extend encodes */
		m->ts += step << 48;
		break;
	default:
		m->ts += step & 0xfff;
	}
	ts = m->ts;
	for (i = 0; i < len && i < sizeof(payload); i++)
		payload[i] = (u8)(i * 7 + step);

	if (nested) {
		p = rb_reserve(&cpu, len, ts);
		if (p) {
			/* an "interrupt" writes on the same CPU: refused */
			FAIL_IF(rb_write(&cpu, ts, payload, 8));
			memcpy(p, payload, len);
			rb_commit(&cpu);
		}
		ok = p;
	} else {
		ok = rb_write(&cpu, ts, payload, len);
	}

	r[0] = (struct region){ nr_pages, 0, sizeof(struct rb_meta) };
	r[1] = (struct region){ nr_pages, RB_META_EXT_OFFSET,
				RB_META_EXT_OFFSET + sizeof(struct rb_meta_ext) };
	if (!ok) {
		FAIL_IF(m->enabled && len <= RB_MAX_PAYLOAD &&
			cpu.mode == RB_MODE_OVERWRITE);
		check_changes(r, 2, "refused write");
		return;
	}
	FAIL_IF(!m->enabled || len > RB_MAX_PAYLOAD);
	m->entries++;
	/* the writer's rule: a step of more than 2^63 forward is backwards */
	exp_ts = (s64)(ts - m->last_ts) < 0 ? m->last_ts : ts;
	/* the event just written ends at the private write offset */
	size = rb_event_size(len);
	FAIL_IF(cpu.write < size || cpu.write > RB_PAGE_CAPACITY);
	for (i = 0; i < nr_pages; i++)
		if (pages[i] == cpu.tail_page)
			break;
	FAIL_IF(i == nr_pages);
	r[2] = (struct region){ i, 0, RB_PAGE_HDR_SIZE };
	r[3] = (struct region){ i, RB_PAGE_HDR_SIZE +
		((cpu.tail_page == old_tail && old_write != RB_WRITE_FRESH &&
		  cpu.write > old_write) ? old_write : 0),
		RB_PAGE_HDR_SIZE + cpu.write };
	check_changes(r, 4, "write");

	hdr = (const u32 *)(cpu.tail_page->data + cpu.write - size);
	FAIL_IF((hdr[0] & 31) != 0 || hdr[1] != size - 4);
	FAIL_IF(memcmp(hdr + 2, payload, len));
	if (cpu.write == size) {
		FAIL_IF(cpu.tail_page->time_stamp != exp_ts || hdr[0] != 0);
	} else if ((exp_ts - m->last_ts) >> RB_TS_SHIFT) {
		FAIL_IF(hdr[0] != 0 || cpu.write < size + 8 ||
			(hdr[-2] & 31) != RB_TYPE_TIME_EXTEND);
		FAIL_IF(((u64)hdr[-1] << 27) + (hdr[-2] >> 5) !=
			exp_ts - m->last_ts);
	} else {
		FAIL_IF((hdr[0] >> 5) != exp_ts - m->last_ts);
	}
	m->last_ts = exp_ts;
	FAIL_IF(cpu.tail_page->commit != cpu.write);
	FAIL_IF(meta->entries != m->entries || cpu.entries != m->entries);
}

static void do_scribble(struct input *in)
{
	u32 page = (u32)take(in, 1) % (nr_pages + 1);
	u32 off = (u32)take(in, 2) % RB_PAGE_SIZE;
	u32 len = (u32)take(in, 1) % 64 + 1, i;
	u8 *dst = page_bytes(page);

	for (i = 0; i < len && off + i < RB_PAGE_SIZE; i++)
		dst[off + i] = (u8)take(in, 1);
}

/* Worst plausible values in every field the kernel format defines. */
static void do_scribble_headers(struct input *in)
{
	u64 v = take(in, 8);
	u32 i;

	for (i = 0; i < nr_pages; i++) {
		pages[i]->commit = v ^ i;
		pages[i]->time_stamp = ~v;
	}
	meta->reader.id = (u32)v;
	meta->entries = v;
	meta->overrun = ~v;
	meta->nr_subbufs = (u32)(v >> 32);
	meta->reader.lost_events = v * 3;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct input in = { data, size };
	struct region none[1] = { { 0, 0, 0 } };
	struct region hdrs[MAX_PAGES + 2];
	struct model m = { 0, 0, 1ULL << 40, false };
	struct kreader rd;
	struct kevent ev;
	u32 i, ops = 0;
	u8 conf;

	if (!meta) {
		meta = aligned_alloc(RB_PAGE_SIZE, RB_PAGE_SIZE);
		for (i = 0; i < MAX_PAGES; i++)
			pages[i] = aligned_alloc(RB_PAGE_SIZE, RB_PAGE_SIZE);
	}
	conf = (u8)take(&in, 1);
	nr_pages = RB_MIN_PAGES + conf % (MAX_PAGES - RB_MIN_PAGES + 1);
	for (i = 0; i < nr_pages; i++)
		memset(pages[i], (int)take(&in, 1), RB_PAGE_SIZE);
	memset(meta, 0xee, RB_PAGE_SIZE);
	FAIL_IF(rb_init(&cpu, 0, meta, (void *const *)pages, nr_pages, info,
			(conf >> 4) & 1 ? RB_MODE_NO_OVERWRITE :
			RB_MODE_OVERWRITE));
	kreader_init(&rd, meta, pages, nr_pages, swap_cb, &cpu);
	for (i = 0; i <= nr_pages; i++)
		hdrs[i] = (struct region){ i, 0, i == nr_pages ?
			(u32)sizeof(struct rb_meta) : RB_PAGE_HDR_SIZE };
	hdrs[nr_pages + 1] = (struct region){ nr_pages, RB_META_EXT_OFFSET,
		RB_META_EXT_OFFSET + sizeof(struct rb_meta_ext) };

	while (in.left && ops++ < 2000) {
		u8 op = (u8)take(&in, 1);

		snapshot();
		switch (op % 16) {
		case 0: case 1: case 2: case 3: case 4: case 5:
			do_write(&in, &m, 0);
			break;
		case 6:
			do_write(&in, &m, 1);
			break;
		case 7: case 8: {
			u32 reader = cpu.reader_id;

			if (!rb_swap_reader(&cpu)) {
				FAIL_IF(cpu.reader_id == reader);
				FAIL_IF(meta->reader.id != cpu.reader_id);
			}
			check_changes(hdrs + nr_pages, 1, "swap");
			break;
		}
		case 9:
			rb_reset(&cpu, NULL);
			m.entries = 0;
			m.last_ts = 0;
			kreader_reset(&rd);
			FAIL_IF(meta->entries || meta->overrun ||
				meta->reader.id != cpu.reader_id);
			check_changes(hdrs, nr_pages + 2, "reset");
			break;
		case 10:
			rb_disable(&cpu);
			m.enabled = false;
			check_changes(none, 0, "disable");
			break;
		case 11:
			rb_enable(&cpu);
			m.enabled = true;
			check_changes(none, 0, "enable");
			break;
		case 12: case 13:
			do_scribble(&in);
			break;
		case 14:
			do_scribble_headers(&in);
			break;
		case 15:
			/*
			 * Consume like the kernel would; it may be misled by
			 * scribbled pages, the writer may not.
			 */
			rd.error = NULL;
			if (rd.reader_id >= nr_pages)
				rd.reader_id = cpu.reader_id;
			for (i = 0; i < 64 && kreader_next(&rd, &ev) == 1; i++)
				;
			check_changes(hdrs + nr_pages, 1, "consume");
			break;
		}
		FAIL_IF(rb_check(&cpu) != 0);
		FAIL_IF(cpu.entries != m.entries);
		FAIL_IF(cpu.overrun > cpu.entries);
	}
	return 0;
}
