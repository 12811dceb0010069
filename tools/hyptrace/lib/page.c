// SPDX-License-Identifier: GPL-2.0
/*
 * Walking one ring-buffer page (struct buffer_data_page) event by event,
 * with the timestamps rebuilt as the kernel's reader rebuilds them
 * (kernel/trace/ring_buffer.c rb_update_read_stamp): the page time_stamp,
 * plus each record's 27-bit delta, plus TIME_EXTEND words, with TIME_STAMP
 * records resetting the running time.
 *
 * Nothing in the page is trusted: the commit must fit the page, every record
 * must fit the commit before a byte of it beyond the header word is read,
 * and a stored lost count must fit the page too.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "compiler.h"
#include "errmsg.h"
#include "page.h"
#include "ring_buffer.h"

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

int pg_open(struct pg_walk *w, const void *page, size_t page_size,
	    char *err, size_t errlen)
{
	const uint8_t *p = page;
	uint64_t commit, capacity, lost = 0;

	memset(w, 0, sizeof(*w));
	if (page_size < RB_PAGE_HDR_SIZE || page_size > (1U << 30))
		return errmsg(err, errlen, "page size %zu is impossible",
			       page_size);
	capacity = page_size - RB_PAGE_HDR_SIZE;
	commit = get64(p + 8);
	if (commit & PG_MISSED_EVENTS)
		lost = PG_LOST_UNKNOWN;
	commit &= ~(PG_MISSED_EVENTS | PG_MISSED_STORED);
	if (commit > capacity)
		return errmsg(err, errlen,
			       "page commit %llu is beyond its %llu data bytes",
			       (unsigned long long)commit,
			       (unsigned long long)capacity);
	if (lost && (get64(p + 8) & PG_MISSED_STORED)) {
		/* the reader stores the count as a long right after the data */
		if (commit + 8 > capacity)
			return errmsg(err, errlen,
				       "page lost count lies beyond the page");
		lost = get64(p + RB_PAGE_HDR_SIZE + commit);
	}
	w->data = p + RB_PAGE_HDR_SIZE;
	w->commit = commit;
	w->page_ts = get64(p);
	w->ts = w->page_ts;
	w->lost = lost;
	return 0;
}

/* The absolute stamp keeps bits 59..63 from the running time (rb_fix_abs_ts) */
static uint64_t pg_abs_ts(uint64_t abs, uint64_t running)
{
	const uint64_t msb = ~0ULL << RB_TS_EXT_BITS;

	if (running & msb) {
		abs |= running & msb;
		if (abs < running)
			abs += 1ULL << RB_TS_EXT_BITS;
	}
	return abs;
}

int pg_next(struct pg_walk *w, struct pg_event *ev, char *err, size_t errlen)
{
	while (w->pos < w->commit) {
		uint32_t left = w->commit - w->pos;
		const uint8_t *rec = w->data + w->pos;
		uint32_t hdr, type, delta, len, size;

		if (left < RB_EVENT_HDR_SIZE)
			goto truncated;
		hdr = get32(rec);
		type = hdr & ((1U << RB_TYPE_LEN_BITS) - 1);
		delta = hdr >> RB_TYPE_LEN_BITS;

		if (type == RB_TYPE_PADDING && !delta) {
			/* a null event: nothing more on this page */
			w->pos = w->commit;
			return 0;
		}
		if (type >= 1 && type <= RB_TYPE_DATA_MAX) {
			size = RB_EVENT_HDR_SIZE + type * 4;
			if (size > left)
				goto truncated;
			w->ts += delta;
			ev->ts = w->ts;
			ev->data = rec + RB_EVENT_HDR_SIZE;
			ev->size = type * 4;
			ev->offset = RB_PAGE_HDR_SIZE + w->pos;
			w->pos += size;
			return 1;
		}
		/* every other type has a second word */
		if (left < 8)
			goto truncated;
		len = get32(rec + 4);
		switch (type) {
		case 0:
			/* array[0] counts itself: payload is array[0] - 4 */
			if (len < 4 || (len & 3) || len > left - 4)
				return errmsg(err, errlen,
					       "event at page offset %u has length %u, %u bytes left",
					       RB_PAGE_HDR_SIZE + w->pos, len,
					       left);
			w->ts += delta;
			ev->ts = w->ts;
			ev->data = rec + 8;
			ev->size = len - 4;
			ev->offset = RB_PAGE_HDR_SIZE + w->pos;
			w->pos += len + 4;
			return 1;
		case RB_TYPE_PADDING:
			/* a discarded event: skipped, its delta not counted */
			if ((len & 3) || len > left - 4)
				return errmsg(err, errlen,
					       "padding at page offset %u has length %u, %u bytes left",
					       RB_PAGE_HDR_SIZE + w->pos, len,
					       left);
			w->pos += len + 4;
			break;
		case RB_TYPE_TIME_EXTEND:
			w->ts += ((uint64_t)len << RB_TS_SHIFT) + delta;
			w->pos += RB_TS_EXTEND_SIZE;
			break;
		case RB_TYPE_TIME_STAMP:
			w->ts = pg_abs_ts(((uint64_t)len << RB_TS_SHIFT) | delta,
					  w->ts);
			w->pos += RB_TS_EXTEND_SIZE;
			break;
		}
	}
	return 0;

truncated:
	return errmsg(err, errlen,
		       "event at page offset %u runs past the page commit %u",
		       RB_PAGE_HDR_SIZE + w->pos, w->commit);
}
