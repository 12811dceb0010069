// SPDX-License-Identifier: GPL-2.0
/*
 * One record of a ring-buffer data page, decoded: the kernel's compressed
 * event header (include/linux/ring_buffer.h, "compressed entry header") as
 * the hypervisor writes it. The raw files walk pages with it to count what
 * they hand out; the text files of the fallback interface to print events.
 *
 * Nothing here trusts the page: every length is checked against the bytes
 * that are there before anything past the header is read.
 */
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/types.h>

#include "compat.h"
#include "hyptrace.h"
#include "ring_buffer.h"

int hyptrace_rec_decode(const u8 *data, u32 len, u32 off,
			struct hyptrace_rec *rec)
{
	u32 hdr, type, delta, array0 = 0;

	if (len - off < RB_EVENT_HDR_SIZE)
		return -ENODATA;
	hdr = get_unaligned_le32(data + off);
	type = hdr & ((1U << RB_TYPE_LEN_BITS) - 1);
	delta = hdr >> RB_TYPE_LEN_BITS;
	/* Type 0 and the non-data types keep a length or time in array[0] */
	if (type == 0 || type > RB_TYPE_DATA_MAX) {
		if (len - off < 8)
			return -EIO;
		array0 = get_unaligned_le32(data + off + 4);
	}

	rec->payload = NULL;
	rec->payload_len = 0;
	switch (type) {
	case 0:			/* data, length in array[0], payload after it */
		if (array0 < 4)
			return -EIO;
		rec->size = array0 + 4;
		rec->kind = HYPTRACE_REC_DATA;
		rec->delta = delta;
		rec->payload_len = array0 - 4;
		break;
	case RB_TYPE_PADDING:
		/* A zero delta pads out the rest of the page */
		rec->kind = delta ? HYPTRACE_REC_SKIP : HYPTRACE_REC_END;
		rec->size = delta ? array0 + 4 : len - off;
		rec->delta = 0;
		break;
	case RB_TYPE_TIME_EXTEND:
		rec->kind = HYPTRACE_REC_DELTA;
		rec->size = RB_TS_EXTEND_SIZE;
		rec->delta = delta + ((u64)array0 << RB_TS_SHIFT);
		break;
	case RB_TYPE_TIME_STAMP:
		rec->kind = HYPTRACE_REC_ABSOLUTE;
		rec->size = RB_TS_EXTEND_SIZE;
		rec->delta = delta + ((u64)array0 << RB_TS_SHIFT);
		break;
	default:		/* data, type words of payload */
		rec->size = RB_EVENT_HDR_SIZE + 4 * type;
		rec->kind = HYPTRACE_REC_DATA;
		rec->delta = delta;
		rec->payload_len = 4 * type;
		break;
	}
	if (rec->size > len - off)
		return -EIO;
	if (rec->kind == HYPTRACE_REC_DATA)
		rec->payload = data + off + rec->size - rec->payload_len;
	return 0;
}

u64 hyptrace_rec_time(const struct hyptrace_rec *rec, u64 ts)
{
	/* An absolute stamp replaces the low RB_TS_EXT_BITS of the time */
	if (rec->kind == HYPTRACE_REC_ABSOLUTE)
		return (ts & ~((1ULL << RB_TS_EXT_BITS) - 1)) | rec->delta;
	return ts + rec->delta;
}

/*
 * The data events on @page, as far as its commit says and the page holds:
 * what a reader that consumes the whole page counts as read.
 */
u64 hyptrace_page_events(const struct rb_data_page *page)
{
	u32 len = min_t(u64, READ_ONCE(page->commit) & ~RB_COMMIT_FLAGS,
			RB_PAGE_CAPACITY);
	struct hyptrace_rec rec;
	u64 events = 0;
	u32 off = 0;

	while (!hyptrace_rec_decode(page->data, len, off, &rec) &&
	       rec.kind != HYPTRACE_REC_END && rec.size <= len - off) {
		off += rec.size;
		events += rec.kind == HYPTRACE_REC_DATA;
	}
	return events;
}
