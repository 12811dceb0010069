// SPDX-License-Identifier: GPL-2.0
/*
 * One page's records walked once with the shared decoder (rb_rec.h), which
 * checks each length against the commit before anything behind it is read.
 * Freestanding: the hypervisor runs it at boot, the host unit tests on
 * crafted pages.
 */
#include "rb_page_check.h"

enum rb_page_fault rb_page_check(const struct rb_data_page *page,
				 struct rb_page_summary *sum)
{
	/*
	 * Nothing writes the page while it is checked. The kernel's reader
	 * marks lost events in the commit's top bits: not the writer's.
	 */
	u64 commit = page->commit & ~RB_COMMIT_FLAGS;
	struct rb_walk w;
	struct rb_rec rec;

	sum->first = page->time_stamp;
	sum->last = sum->first;
	sum->events = 0;
	sum->commit = 0;
	if (rb_walk_start(&w, page->data, commit, RB_PAGE_CAPACITY,
			  sum->first))
		return w.fault;
	sum->commit = w.commit;
	while (rb_event_next(&w, &rec)) {
		sum->events++;
		sum->last = rec.ts;
	}
	return w.fault;
}
