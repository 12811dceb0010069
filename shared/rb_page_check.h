/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Checking a data page that nobody is writing any more, before it is shown
 * again: the previous boot's pages (hyp/core/last_boot.c), which may hold
 * anything, half a write, or what the host scribbled there. The rules are
 * those the kernel applies to a persistent ring buffer at boot
 * (rb_meta_validate_events() in kernel/trace/ring_buffer.c): the commit
 * inside the page, every record's length positive and inside the commit,
 * known types only, time never going backwards.
 */
#ifndef HYPTRACE_SHARED_RB_PAGE_CHECK_H
#define HYPTRACE_SHARED_RB_PAGE_CHECK_H

#include "ring_buffer.h"

struct rb_page_summary {
	u64 first;		/* the page's time_stamp */
	u64 last;		/* time of its last record */
	u32 events;		/* data records */
	u32 commit;		/* bytes of data[] they take */
};

/*
 * Why a page failed: RB_PAGE_OK for none. The order is the walk's: the
 * first rule broken is the one reported.
 */
enum rb_page_fault {
	RB_PAGE_OK = 0,
	RB_PAGE_BAD_COMMIT,	/* commit beyond the page */
	RB_PAGE_BAD_LENGTH,	/* a record cut by the commit, or empty */
	RB_PAGE_BAD_TIME,	/* a stamp behind the one before, or wrapping */
};

enum rb_page_fault rb_page_check(const struct rb_data_page *page,
				 struct rb_page_summary *sum);

#endif /* HYPTRACE_SHARED_RB_PAGE_CHECK_H */
