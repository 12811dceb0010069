// SPDX-License-Identifier: GPL-2.0
/*
 * One page's records walked once, each length checked against the commit
 * before anything behind it is read (rb_page_check.h). Freestanding: the
 * hypervisor runs it at boot, the host unit tests on crafted pages.
 */
#include "rb_page_check.h"

static u32 rb_word(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

/* Add @delta to *@ts, or false if time would wrap */
static bool rb_time_add(u64 *ts, u64 delta)
{
	return !__builtin_add_overflow(*ts, delta, ts);
}

enum rb_page_fault rb_page_check(const struct rb_data_page *page,
				 struct rb_page_summary *sum)
{
	/*
	 * Nothing writes the page while it is checked. The kernel's reader
	 * marks lost events in the commit's top bits: not the writer's.
	 */
	u64 commit = page->commit & ~RB_COMMIT_FLAGS;
	u64 ts = page->time_stamp, stamp;
	const u8 *data = page->data;
	u32 off = 0, hdr, type, delta, array0, size;

	sum->first = ts;
	sum->last = ts;
	sum->events = 0;
	sum->commit = 0;
	if (commit > RB_PAGE_CAPACITY)
		return RB_PAGE_BAD_COMMIT;
	sum->commit = (u32)commit;

	while (off < commit) {
		if (commit - off < RB_EVENT_HDR_SIZE)
			return RB_PAGE_BAD_LENGTH;
		hdr = rb_word(data + off);
		type = hdr & ((1U << RB_TYPE_LEN_BITS) - 1);
		delta = hdr >> RB_TYPE_LEN_BITS;
		array0 = 0;
		/* Type 0 and the non-data types keep a length or time next */
		if (type == 0 || type > RB_TYPE_DATA_MAX) {
			if (commit - off < 8)
				return RB_PAGE_BAD_LENGTH;
			array0 = rb_word(data + off + 4);
		}

		switch (type) {
		case 0:			/* data, its length in array[0] */
			if (array0 < 4 || array0 & 3 ||
			    array0 > RB_PAGE_CAPACITY)
				return RB_PAGE_BAD_LENGTH;
			size = array0 + 4;
			break;
		case RB_TYPE_PADDING:
			/* A zero delta pads out the rest of the commit */
			if (!delta)
				return RB_PAGE_OK;
			if (array0 < 4 || array0 & 3 ||
			    array0 > RB_PAGE_CAPACITY)
				return RB_PAGE_BAD_LENGTH;
			size = array0 + 4;
			delta = 0;
			break;
		case RB_TYPE_TIME_EXTEND:
			size = RB_TS_EXTEND_SIZE;
			if (!rb_time_add(&ts, delta +
					 ((u64)array0 << RB_TS_SHIFT)))
				return RB_PAGE_BAD_TIME;
			delta = 0;
			break;
		case RB_TYPE_TIME_STAMP:
			/* Replaces the low RB_TS_EXT_BITS, never goes back */
			size = RB_TS_EXTEND_SIZE;
			stamp = (ts & ~((1ULL << RB_TS_EXT_BITS) - 1)) |
				(delta + ((u64)array0 << RB_TS_SHIFT));
			if (stamp < ts)
				return RB_PAGE_BAD_TIME;
			ts = stamp;
			delta = 0;
			break;
		default:		/* data, @type words of it */
			size = RB_EVENT_HDR_SIZE + 4 * type;
			break;
		}
		if (size > commit - off)
			return RB_PAGE_BAD_LENGTH;
		if (!rb_time_add(&ts, delta))
			return RB_PAGE_BAD_TIME;
		if (type <= RB_TYPE_DATA_MAX) {
			sum->events++;
			sum->last = ts;
		}
		off += size;
	}
	return RB_PAGE_OK;
}
