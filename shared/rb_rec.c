// SPDX-License-Identifier: GPL-2.0
/*
 * The record decoder of rb_rec.h. Freestanding: the hypervisor, the host
 * module and the hyptrace tool compile this same file.
 */
#include "rb_rec.h"

/*
 * A little-endian word of the page, each byte loaded once through a
 * volatile pointer: the page may change under the walk (another CPU, a DMA
 * master), and a word the compiler chose to load again could then differ
 * from the one checked. Byte loads need no alignment (-mstrict-align, and
 * a trace.dat page may lie anywhere in a file).
 */
static u32 rb_le32(const u8 *p)
{
	const volatile u8 *v = p;

	return (u32)v[0] | (u32)v[1] << 8 | (u32)v[2] << 16 | (u32)v[3] << 24;
}

/* Add @delta to *@ts, or false if time would wrap */
static bool rb_time_add(u64 *ts, u64 delta)
{
	return !__builtin_add_overflow(*ts, delta, ts);
}

/**
 * rb_walk_start() - start a walk over one data page
 * @w:		the walk, filled in
 * @data:	the page's data[]: @commit bytes of it must be readable, once
 *		@commit has been checked against @capacity
 * @commit:	the page's commit, read once by the caller, without the
 *		reader's flags (RB_COMMIT_FLAGS)
 * @capacity:	bytes of data[] the page has (RB_PAGE_CAPACITY for a page of
 *		the hypervisor's, page size - RB_PAGE_HDR_SIZE in a file)
 * @ts:		the page's time_stamp, or the time at the place the walk is
 *		moved to afterwards
 *
 * A commit beyond @capacity is refused: the walk then holds nothing.
 *
 * Return: RB_PAGE_OK, or RB_PAGE_BAD_COMMIT (also left in @w->fault).
 */
enum rb_page_fault rb_walk_start(struct rb_walk *w, const void *data,
				 u64 commit, u64 capacity, u64 ts)
{
	w->data = data;
	w->off = 0;
	w->ts = ts;
	w->fault = RB_PAGE_OK;
	w->commit = 0;
	if (commit > capacity || commit > 0xffffffffULL)
		w->fault = RB_PAGE_BAD_COMMIT;
	else
		w->commit = (u32)commit;
	return w->fault;
}

/* A length word (array[0]) of a type-0 or padding record: its size, or 0 */
static u64 rb_len_size(u32 array0)
{
	/* array[0] counts itself; an event has at least one payload word */
	if (array0 < 4 || array0 & 3)
		return 0;
	return (u64)array0 + RB_EVENT_HDR_SIZE;
}

/*
 * Decode the record at @w->off, @left bytes before the commit (4 or more),
 * into @rec: its kind, size and time. False with @w->fault set when it
 * breaks a rule; with @w->fault still RB_PAGE_OK at a null padding.
 */
static bool rb_decode(struct rb_walk *w, u64 left, struct rb_rec *rec)
{
	const u8 *p = w->data + w->off;
	u32 hdr = rb_le32(p), type, delta, array0 = 0;
	u64 size, ts = w->ts, stamp;

	type = hdr & ((1U << RB_TYPE_LEN_BITS) - 1);
	delta = hdr >> RB_TYPE_LEN_BITS;
	/* Type 0 and the non-data types keep a length or time in array[0] */
	if (type == 0 || type > RB_TYPE_DATA_MAX) {
		/* A null padding pads out the rest of the commit */
		if (type == RB_TYPE_PADDING && !delta)
			return false;
		if (left < 8) {
			w->fault = RB_PAGE_BAD_LENGTH;
			return false;
		}
		array0 = rb_le32(p + 4);
	}

	rec->payload = (const u8 *)0;
	rec->payload_len = 0;
	switch (type) {
	case 0:
		rec->kind = RB_REC_DATA;
		size = rb_len_size(array0);
		rec->payload_len = array0 - 4;
		break;
	case RB_TYPE_PADDING:
		rec->kind = RB_REC_SKIP;
		size = rb_len_size(array0);
		delta = 0;	/* a discarded event's time does not count */
		break;
	case RB_TYPE_TIME_EXTEND:
		rec->kind = RB_REC_EXTEND;
		size = RB_TS_EXTEND_SIZE;
		if (!rb_time_add(&ts, (u64)array0 << RB_TS_SHIFT)) {
			w->fault = RB_PAGE_BAD_TIME;
			return false;
		}
		break;
	case RB_TYPE_TIME_STAMP:
		/* Replaces the low RB_TS_EXT_BITS of the time, never back */
		rec->kind = RB_REC_STAMP;
		size = RB_TS_EXTEND_SIZE;
		stamp = (ts & ~((1ULL << RB_TS_EXT_BITS) - 1)) |
			(delta + ((u64)array0 << RB_TS_SHIFT));
		if (stamp < ts) {
			w->fault = RB_PAGE_BAD_TIME;
			return false;
		}
		ts = stamp;
		delta = 0;
		break;
	default:		/* data, @type words of it */
		rec->kind = RB_REC_DATA;
		size = RB_EVENT_HDR_SIZE + 4 * type;
		rec->payload_len = 4 * type;
		break;
	}
	if (!size || size > left) {
		w->fault = RB_PAGE_BAD_LENGTH;
		return false;
	}
	if (!rb_time_add(&ts, delta)) {
		w->fault = RB_PAGE_BAD_TIME;
		return false;
	}
	if (rec->kind == RB_REC_DATA)
		rec->payload = p + size - rec->payload_len;
	rec->off = w->off;
	rec->size = (u32)size;
	rec->ts = ts;
	return true;
}

/**
 * rb_rec_next() - the next record of a page
 * @w:		the walk, from rb_walk_start()
 * @rec:	the record, filled in when one is returned
 *
 * Every kind of record is returned (events, padding, time records), each
 * whole inside the commit; the walk moves past it, @w->ts to its time. A
 * record that breaks a rule of rb_rec.h stops the walk for good, with
 * @w->off at it and the rule in @w->fault. A null padding (type PADDING,
 * delta 0) ends the walk with no fault, as the end of the commit does.
 *
 * Return: true with @rec filled; false at the end of the page or at a
 * fault (@w->fault says which).
 */
bool rb_rec_next(struct rb_walk *w, struct rb_rec *rec)
{
	u64 left;

	if (w->fault || w->off >= w->commit)
		return false;
	left = (u64)w->commit - w->off;
	if (left < RB_EVENT_HDR_SIZE) {
		w->fault = RB_PAGE_BAD_LENGTH;
		return false;
	}
	if (!rb_decode(w, left, rec)) {
		if (!w->fault)		/* a null padding: the end */
			w->off = w->commit;
		return false;
	}
	w->off += rec->size;
	w->ts = rec->ts;
	return true;
}

/**
 * rb_event_next() - the next event (data record) of a page
 * @w:		the walk, from rb_walk_start()
 * @rec:	the event, filled in when one is returned
 *
 * rb_rec_next(), stepping over padding and time records.
 *
 * Return: true with @rec an RB_REC_DATA record; false at the end of the
 * page or at a fault (@w->fault says which).
 */
bool rb_event_next(struct rb_walk *w, struct rb_rec *rec)
{
	while (rb_rec_next(w, rec)) {
		if (rec->kind == RB_REC_DATA)
			return true;
	}
	return false;
}

/**
 * rb_page_fault_name() - a fault in words, for a message
 * @fault:	what rb_walk_start() or the walk reported
 *
 * Return: a short phrase, never NULL.
 */
const char *rb_page_fault_name(enum rb_page_fault fault)
{
	switch (fault) {
	case RB_PAGE_OK:
		return "no fault";
	case RB_PAGE_BAD_COMMIT:
		return "commit beyond the page";
	case RB_PAGE_BAD_LENGTH:
		return "record length impossible";
	case RB_PAGE_BAD_TIME:
		return "time going backwards or wrapping";
	case RB_PAGE_SHORT_COMMIT:
		return "commit behind what the hypervisor wrote";
	}
	return "unknown fault";
}
