// SPDX-License-Identifier: GPL-2.0
/*
 * The module's side of the shared record decoder (shared/rb_rec.h): how a
 * walker here starts on a page, and what it does when the page is damaged.
 *
 * The data pages are shared with all of EL1: a stray kernel write or a DMA
 * master can plant anything there. So every walker works on a copy of the
 * page, or on the page with its commit read once and clamped to it; the
 * decoder checks every record whole inside that commit before it is used,
 * and a damaged record stops the walk of that page. The damage is counted
 * per CPU (the stats files show it), said in one rate-limited line, and
 * turned into an errno for the callers that answer with one.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/slab.h>

#include "hyptrace.h"

/* Damaged pages each CPU's walkers met since the module was loaded */
static atomic64_t *page_damage;
static unsigned int page_nr_cpus;

int hyptrace_page_init(unsigned int nr_cpus)
{
	page_damage = kcalloc(nr_cpus, sizeof(*page_damage), GFP_KERNEL);
	if (!page_damage)
		return -ENOMEM;
	page_nr_cpus = nr_cpus;
	return 0;
}

/*
 * Start @w over @data, the data[] of a page whose commit the caller read
 * once: a commit beyond the page is clamped to the page, and said by the
 * return (RB_PAGE_BAD_COMMIT), so that the walk still gives what is sound.
 */
enum rb_page_fault hyptrace_walk_start(struct rb_walk *w, const void *data,
				       u64 commit, u64 ts)
{
	commit &= ~RB_COMMIT_FLAGS;
	if (commit <= RB_PAGE_CAPACITY) {
		rb_walk_start(w, data, commit, RB_PAGE_CAPACITY, ts);
		return RB_PAGE_OK;
	}
	rb_walk_start(w, data, RB_PAGE_CAPACITY, RB_PAGE_CAPACITY, ts);
	return RB_PAGE_BAD_COMMIT;
}

/* Damaged pages met on @cpu's pages */
u64 hyptrace_page_damage(unsigned int cpu)
{
	return cpu < page_nr_cpus ? atomic64_read(&page_damage[cpu]) : 0;
}

/*
 * A walk of one of @cpu's pages by @reader stopped at damage: @fault, at
 * data offset @off, the page's commit @commit as read. Counted, and said
 * in the one line every walker shares. Returns the errno for it.
 */
int hyptrace_page_damaged(unsigned int cpu, const char *reader,
			  enum rb_page_fault fault, u32 off, u64 commit)
{
	u64 n = 0;

	if (cpu < page_nr_cpus)
		n = atomic64_inc_return(&page_damage[cpu]);
	pr_warn_ratelimited("CPU %u: %s: damaged page, %s at data offset %u (commit %#llx): the rest of the page is skipped (%llu damaged pages on this CPU)\n",
			    cpu, reader, rb_page_fault_name(fault), off,
			    commit, n);
	switch (fault) {
	case RB_PAGE_BAD_COMMIT:
		return -EOVERFLOW;
	case RB_PAGE_BAD_TIME:
		return -ERANGE;
	default:
		return -EBADMSG;
	}
}

/*
 * The data events on @page, as far as its commit (read once, clamped)
 * says and its records are sound: what a reader that consumes the whole
 * page counts as read. The page is walked in place; damage is not
 * reported here, the walkers that hand the page out do that.
 */
u64 hyptrace_page_events(const struct rb_data_page *page)
{
	struct rb_walk w;
	struct rb_rec rec;
	u64 events = 0;

	hyptrace_walk_start(&w, page->data, READ_ONCE(page->commit), 0);
	while (rb_event_next(&w, &rec))
		events++;
	return events;
}

/*
 * Before the kernel's own reader (trace_remote's ring buffer) walks @page
 * in place, which trusts every length and the commit: walk it here, and
 * where the walk stops at damage, cut the page so that the kernel's walk
 * stops there too. The rest of the commit becomes one padding record (a
 * discarded event, which the kernel steps over), or, when it is too short
 * for one or the commit itself is beyond the page, the commit is moved
 * back to the damage. A writer still appending to the page writes after
 * the old commit and leaves the padding alone. What anyone writes into
 * the page after this, the kernel reads unchecked: see shadow.c.
 * Returns 0, or the errno of the damage.
 */
int hyptrace_page_guard(unsigned int cpu, const char *reader,
			struct rb_data_page *page)
{
	u64 raw = READ_ONCE(page->commit);
	enum rb_page_fault fault;
	struct rb_walk w;
	struct rb_rec rec;
	u32 pad;

	fault = hyptrace_walk_start(&w, page->data, raw,
				    READ_ONCE(page->time_stamp));
	while (rb_rec_next(&w, &rec))
		;
	if (!fault && !w.fault)
		return 0;
	if (!fault)
		fault = w.fault;
	pad = (w.commit - w.off) & ~3U;
	if (fault != RB_PAGE_BAD_COMMIT && pad >= 8) {
		WRITE_ONCE(*(u32 *)(page->data + w.off + 4), pad - 4);
		/* Length before header: the header makes it a record */
		smp_wmb();
		WRITE_ONCE(*(u32 *)(page->data + w.off),
			   RB_TYPE_PADDING | 1U << RB_TYPE_LEN_BITS);
		if (w.off + pad != (raw & ~RB_COMMIT_FLAGS))
			WRITE_ONCE(page->commit, w.off + pad);
	} else {
		WRITE_ONCE(page->commit, w.off);
	}
	return hyptrace_page_damaged(cpu, reader, fault, w.off, raw);
}
