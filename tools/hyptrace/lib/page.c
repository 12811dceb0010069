// SPDX-License-Identifier: GPL-2.0
/*
 * Walking one ring-buffer page (struct buffer_data_page) event by event,
 * with the shared decoder (shared/rb_rec.h): timestamps rebuilt as the
 * kernel's reader rebuilds them (the page time_stamp, plus each record's
 * delta, plus TIME_EXTEND words, TIME_STAMP records setting the running
 * time), every record checked whole inside the commit before it is used.
 *
 * What is left here is the part that belongs to files: any page size, and
 * the lost-event count the kernel's reader stores after the data, which
 * must fit the page too.
 */
#include <string.h>

#include "hyptrace/errmsg.h"
#include "hyptrace/page.h"

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

int page_open(struct pg_walk *w, const void *page, size_t page_size,
	    char *err, size_t errlen)
{
	const uint8_t *p = page;
	uint64_t raw, commit, capacity, lost = 0;

	memset(w, 0, sizeof(*w));
	if (page_size < RB_PAGE_HDR_SIZE || page_size > (1U << 30))
		return errmsg(err, errlen, "page size %zu is impossible",
			       page_size);
	capacity = page_size - RB_PAGE_HDR_SIZE;
	/* Read once: a page in a mapped file may change under us */
	raw = get64(p + 8);
	if (raw & PG_MISSED_EVENTS)
		lost = PG_LOST_UNKNOWN;
	commit = raw & ~(PG_MISSED_EVENTS | PG_MISSED_STORED);
	if (rb_walk_start(&w->rb, p + RB_PAGE_HDR_SIZE, commit, capacity,
			  get64(p)))
		return errmsg(err, errlen,
			       "page commit %llu is beyond its %llu data bytes",
			       (unsigned long long)commit,
			       (unsigned long long)capacity);
	if (lost && (raw & PG_MISSED_STORED)) {
		/* the reader stores the count as a long right after the data */
		if (commit + 8 > capacity)
			return errmsg(err, errlen,
				       "page lost count lies beyond the page");
		lost = get64(p + RB_PAGE_HDR_SIZE + commit);
	}
	w->commit = w->rb.commit;
	w->page_ts = w->rb.ts;
	w->lost = lost;
	return 0;
}

int page_next(struct pg_walk *w, struct pg_event *ev, char *err, size_t errlen)
{
	struct rb_rec rec;

	if (rb_event_next(&w->rb, &rec)) {
		ev->ts = rec.ts;
		ev->data = rec.payload;
		ev->size = rec.payload_len;
		ev->offset = RB_PAGE_HDR_SIZE + rec.off;
		return 1;
	}
	if (!w->rb.fault)
		return 0;
	return errmsg(err, errlen,
		       "event at page offset %u: %s (page commit %u)",
		       RB_PAGE_HDR_SIZE + w->rb.off,
		       rb_page_fault_name(w->rb.fault), w->commit);
}
