/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Checking a data page that nobody is writing any more, before it is shown
 * again: the previous boot's pages (hyp/core/last_boot.c), which may hold
 * anything, half a write, or what the host scribbled there. The rules are
 * those the kernel applies to a persistent ring buffer at boot
 * (rb_meta_validate_events() in kernel/trace/ring_buffer.c), as the
 * shared decoder applies them (rb_rec.h); the first one broken is returned.
 */
#ifndef HYPTRACE_SHARED_RB_PAGE_CHECK_H
#define HYPTRACE_SHARED_RB_PAGE_CHECK_H

#include "rb_rec.h"

struct rb_page_summary {
	u64 first;		/* the page's time_stamp */
	u64 last;		/* time of its last record */
	u32 events;		/* data records */
	u32 commit;		/* bytes of data[] they take */
};

enum rb_page_fault rb_page_check(const struct rb_data_page *page,
				 struct rb_page_summary *sum);

#endif /* HYPTRACE_SHARED_RB_PAGE_CHECK_H */
