/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one decoder of a ring-buffer data page's records (struct
 * buffer_data_page, then the kernel's compressed event headers, see
 * ring_buffer.h), for every reader of such a page: the hypervisor checking
 * the last boot's pages (rb_page_check.c), the host module handing pages
 * out and printing them, the hyptrace tool reading trace.dat files.
 *
 * Nothing in a page is trusted: it is shared with all of EL1, or was read
 * from a file. The walk takes the commit once, refuses one beyond the page,
 * reads every word of a record once, computes sizes in 64 bits, and checks
 * a record whole inside the commit before it returns it. Every record it
 * returns moves the walk on by at least 4 bytes (8 for all but a null
 * padding, which ends the walk), so a walk of any page ends, inside it.
 *
 * The rules are those the kernel applies to a persistent ring buffer at
 * boot (rb_meta_validate_events() in kernel/trace/ring_buffer.c): the
 * commit inside the page, every data and padding record at least 8 bytes
 * long with a length that is a multiple of 4 and inside the commit, known
 * types only, time never going backwards nor wrapping.
 */
#ifndef HYPTRACE_SHARED_RB_REC_H
#define HYPTRACE_SHARED_RB_REC_H

#include "ring_buffer.h"

/*
 * Why a walk stopped early: RB_PAGE_OK for none. The first rule broken is
 * the one reported, and the walk does not go past it.
 */
enum rb_page_fault {
	RB_PAGE_OK = 0,
	RB_PAGE_BAD_COMMIT,	/* commit beyond the page */
	RB_PAGE_BAD_LENGTH,	/* a record cut by the commit, empty, odd */
	RB_PAGE_BAD_TIME,	/* a stamp behind the one before, or wrapping */
	/*
	 * The commit is behind what the writer committed there: only a
	 * reader the hypervisor told so (TRACE_SWAP_READER's UNREAD) knows.
	 */
	RB_PAGE_SHORT_COMMIT,
};

#define RB_PAGE_NR_FAULTS	5

enum rb_rec_kind {
	RB_REC_DATA,		/* an event: @payload, @payload_len */
	RB_REC_SKIP,		/* padding (a discarded event) */
	RB_REC_EXTEND,		/* TIME_EXTEND: time moved on */
	RB_REC_STAMP,		/* TIME_STAMP: time set, low 59 bits */
};

/* One record, as rb_rec_next() found it */
struct rb_rec {
	enum rb_rec_kind kind;
	u32 off;		/* of its header, in the page's data[] */
	u32 size;		/* bytes it takes, 8 or more */
	u32 payload_len;	/* RB_REC_DATA: bytes at @payload */
	const u8 *payload;	/* RB_REC_DATA: inside the commit */
	u64 ts;			/* the time after it: an event's own */
};

/*
 * A walk over one page's data[]. Set by rb_walk_start(); a caller may move
 * @off to a place an earlier walk of the same page returned (a record's
 * off + size) with @ts the time there, to go on from it.
 */
struct rb_walk {
	const u8 *data;		/* the page's data[], @commit bytes of it */
	u32 commit;		/* bytes holding records, checked */
	u32 off;		/* of the next record */
	u64 ts;			/* time of the last record walked */
	enum rb_page_fault fault;	/* why the walk stopped, if early */
};

enum rb_page_fault rb_walk_start(struct rb_walk *w, const void *data,
				 u64 commit, u64 capacity, u64 ts);
bool rb_rec_next(struct rb_walk *w, struct rb_rec *rec);
bool rb_event_next(struct rb_walk *w, struct rb_rec *rec);
const char *rb_page_fault_name(enum rb_page_fault fault);

#endif /* HYPTRACE_SHARED_RB_REC_H */
