// SPDX-License-Identifier: GPL-2.0
/*
 * The meta pages trace_remote reads: our own copies, never the shared ones
 * (shadow_set.c makes them); here, the live buffer's values in them.
 *
 * The kernel's remote reader believes a meta page completely. It indexes
 * its page table with reader.id before it checks it, and a trace_pipe
 * reader whose meta page promises events that no swap brings retries for
 * ever without sleeping or seeing signals. The hypervisor's meta pages are
 * shared with all of EL1, so anything in the host that scribbles on them,
 * or unloads the buffer behind our back, would take trace_remote down
 * with it. So trace_remote gets a descriptor whose meta pages are shadows
 * in module memory, and only values checked here reach them:
 *
 * - after each swap, the new reader page's id, if it names a page of the
 *   buffer other than the one being given back, and its lost count;
 * - the counters (entries, overrun, pages touched and lost), copied every
 *   SHADOW_POLL_MS, at each swap and reset, when tracing goes on or off,
 *   and when a reader opens trace or trace_pipe (remote_readers.c: the
 *   one moment a reader asks, for which the kernel has no callback). Not
 *   on the write path: write_event costs the hypervisor's event alone
 *   (bench row 1d). Any value is safe there
 *   but one: the reader keeps its own count of events read and takes
 *   entries - overrun - read != 0 to mean there is more; if no swap can
 *   bring it (the buffer was reset or unloaded behind our back, or
 *   scribbled on), it asks again at once, for ever, deaf to signals. So
 *   a swap that cannot answer moves an offset on entries, from a guess
 *   outward, until the reader's count and the shadow agree and it sleeps.
 *
 * The data pages it reads in place, trusting the commit and every record
 * length: a wrapping length makes its consumer read the same record for
 * ever, a commit beyond the page makes it read past it. So each page a
 * swap hands it is walked here first and cut at the first damaged record
 * (hyptrace_page_guard()). That is all the module can do: trace_remote
 * reads the page after this callback returns, under no lock of ours, so
 * what EL1 writes into the page later (and into the ring pages that the
 * non-consuming reader behind trace walks, which pass through no callback
 * at all while the hypervisor writes them) reaches it unchecked: those are
 * checked when tracing goes off (hyptrace_shadow_guard_all()), when no
 * writer can race the cut, and not before. Pages
 * of the module's own to read from instead would not do either: the
 * kernel re-reads the reader page's commit to see events the hypervisor
 * appends to it (ring_buffer.c, "used == 0"), with no callback between.
 *
 * Called under trace_remote's per-CPU reader lock (swap, reset) or its
 * mutex (load, unload); the copies from a reader's open and the poll run
 * beside them, under no lock of trace_remote's. Each copy publishes what
 * it loaded, so two copies of one CPU that overlapped could publish in the
 * other order: a poll that loaded 0 before a write_event and stored after
 * the reader's own copy would leave the reader a count of 0 and a trace
 * that looks empty. So every copy, and every change of the offset it adds,
 * is made under the CPU's @lock: the last to publish is the last to load.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/rcupdate.h>
#include <linux/workqueue.h>

#include "hyptrace.h"
#include "shadow.h"

/*
 * How stale the counters may be for a reader that is already open (a
 * trace_pipe waiting for events): trace_remote itself looks only every
 * 100 ms. A reader that opens, tracing_on, a reset and each swap copy
 * them there and then.
 */
#define SHADOW_POLL_MS	10

/*
 * RCU, for the copies made outside trace_remote's callbacks (a reader's
 * open, the poll); the callbacks run only while the set exists.
 */
static struct hyptrace_shadow_set __rcu *shadows;
static bool shared_gone;		/* the hypervisor let the buffer go */

static void shadow_poll(struct work_struct *work);
static DECLARE_DELAYED_WORK(shadow_work, shadow_poll);

static struct rb_data_page *reader_page(const struct hyptrace_shadow *s)
{
	return hyptrace_shadow_page(s, s->meta->reader.id);
}

/* Under @s->lock, or before trace_remote has the set */
static void publish(struct hyptrace_shadow *s)
{
	struct rb_counters c = s->live.hyp;

	c.entries += s->live.offset;
	hyptrace_shadow_publish(s, &c);
}

/*
 * Counters from the shared page into @s->live.hyp, while it is still the
 * hypervisor's (after, the last ones copied stand)
 */
static void load_counters(struct hyptrace_shadow *s)
{
	if (READ_ONCE(shared_gone))
		return;
	s->live.hyp.entries = READ_ONCE(s->shared->entries);
	s->live.hyp.overrun = READ_ONCE(s->shared->overrun);
	s->live.hyp.pages_touched = READ_ONCE(s->shared->pages_touched);
	s->live.hyp.pages_lost = READ_ONCE(s->shared->pages_lost);
}

static void copy_counters_locked(struct hyptrace_shadow *s)
{
	lockdep_assert_held(&s->lock);
	load_counters(s);
	publish(s);
}

static void copy_counters(struct hyptrace_shadow *s)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&s->lock, flags);
	copy_counters_locked(s);
	raw_spin_unlock_irqrestore(&s->lock, flags);
}

/*
 * The reader asked for a page and none came: its count of events read is
 * not entries + offset - overrun. The best guess is what it was handed
 * (the pages it gave back, and the one it holds, which it has finished);
 * from there each miss tries the next value outward, 0, +1, -1, +2, ...:
 * every miss is the reader saying the last one was wrong, and once one is
 * right it stops asking. A guess is off only by events a hostile call took
 * from under the reader, so the search is short.
 */
static void search_offset(struct hyptrace_shadow *s)
{
	unsigned long flags;
	u32 step;

	raw_spin_lock_irqsave(&s->lock, flags);
	if (!s->live.misses++)
		s->live.guess = (s64)(s->handed_back +
				      hyptrace_page_events(reader_page(s))) -
				(s64)(s->live.hyp.entries - s->live.hyp.overrun);
	step = s->live.misses >> 1;
	s->live.offset = s->live.misses & 1 ? s->live.guess - step :
			 s->live.guess + step;
	publish(s);
	raw_spin_unlock_irqrestore(&s->lock, flags);
}

/* The set trace_remote's callbacks work on: it exists while they run */
static struct hyptrace_shadow *loaded_cpu(unsigned int cpu)
{
	return &rcu_dereference_raw(shadows)->cpu[cpu];
}

/* Every CPU's counters now, if loaded */
void hyptrace_shadow_refresh(void)
{
	struct hyptrace_shadow_set *set;
	unsigned int cpu;

	rcu_read_lock();
	set = rcu_dereference(shadows);
	for (cpu = 0; set && cpu < set->nr; cpu++)
		copy_counters(&set->cpu[cpu]);
	rcu_read_unlock();
}

static void shadow_poll(struct work_struct *work)
{
	if (READ_ONCE(shared_gone))
		return;
	hyptrace_shadow_refresh();
	schedule_delayed_work(&shadow_work, msecs_to_jiffies(SHADOW_POLL_MS));
}

void hyptrace_shadow_free(void)
{
	struct hyptrace_shadow_set *old;

	cancel_delayed_work_sync(&shadow_work);
	old = rcu_replace_pointer(shadows, NULL, true);
	synchronize_rcu();
	hyptrace_shadow_set_free(old);
}

/*
 * The descriptor for trace_remote: @desc (checked by buffer.c, @len bytes)
 * with its meta pages replaced by shadows, each a copy of the hypervisor's
 * as it is now; NULL if there is no memory for them.
 */
struct rb_trace_desc *hyptrace_shadow_alloc(struct rb_trace_desc *desc,
					    size_t len)
{
	struct hyptrace_shadow_set *set;
	unsigned int cpu;

	set = hyptrace_shadow_set_alloc(desc, len);
	if (!set)
		return NULL;
	shared_gone = false;
	for (cpu = 0; cpu < set->nr; cpu++) {
		struct hyptrace_shadow *s = &set->cpu[cpu];

		/* buffer.c checked that the reader starts at page 0 */
		load_counters(s);
		hyptrace_shadow_init(s, rb_desc_checked_entry(desc, cpu)->page_va,
				     0, &s->live.hyp);
	}
	rcu_assign_pointer(shadows, set);
	schedule_delayed_work(&shadow_work, msecs_to_jiffies(SHADOW_POLL_MS));
	return set->desc;
}

/*
 * trace_remote has read @cpu's reader page and wants the next: @hyp_swap
 * asks the hypervisor. The new page is taken only if it is one of the
 * buffer's and not the one being given back (the kernel would link a page
 * into its list twice).
 */
int hyptrace_shadow_swap(unsigned int cpu, int (*hyp_swap)(unsigned int cpu))
{
	struct hyptrace_shadow *s = loaded_cpu(cpu);
	u32 id, old = s->meta->reader.id;
	u64 done;
	int ret;

	done = hyptrace_page_events(reader_page(s));
	ret = READ_ONCE(shared_gone) ? -ENODEV : hyp_swap(cpu);
	if (!ret) {
		id = READ_ONCE(s->shared->reader.id);
		if (id < s->nr_pages && id != old) {
			s->live.misses = 0;
			copy_counters(s);
			s->meta->reader.lost_events =
				READ_ONCE(s->shared->reader.lost_events);
			hyptrace_shadow_hand(s, cpu, id, done, "trace_pipe");
			return 0;
		}
		pr_warn_ratelimited("CPU %u's meta page names reader page %u (of %u, %u given back): not taken\n",
				    cpu, id, s->nr_pages, old);
		ret = -EIO;
	}
	search_offset(s);
	return ret;
}

/*
 * Tracing went off: the hypervisor writes no page until it is on again,
 * so every page of every CPU is walked and cut at damage now, before the
 * non-consuming reader behind trace walks them in place (it is only
 * called on them by a user, and they pass through no callback of ours).
 * Under trace_remote's mutex; a consuming reader may be reading its page
 * meanwhile, which a cut (a padding record, or a commit moved back) leaves
 * reading either what was there or the cut.
 */
void hyptrace_shadow_guard_all(void)
{
	struct hyptrace_shadow_set *set;
	unsigned int cpu;
	u32 id;

	rcu_read_lock();
	set = rcu_dereference(shadows);
	for (cpu = 0; set && !READ_ONCE(shared_gone) && cpu < set->nr; cpu++) {
		for (id = 0; id < set->cpu[cpu].nr_pages; id++)
			hyptrace_page_guard(cpu, "trace",
					    hyptrace_shadow_page(&set->cpu[cpu], id));
	}
	rcu_read_unlock();
}

/* @cpu was emptied: the kernel's reader starts its count over */
void hyptrace_shadow_reset(unsigned int cpu)
{
	struct hyptrace_shadow *s = loaded_cpu(cpu);
	unsigned long flags;

	raw_spin_lock_irqsave(&s->lock, flags);
	s->handed_back = 0;
	s->live.offset = 0;
	s->live.misses = 0;
	if (READ_ONCE(shared_gone)) {
		/* The pages are ours: empty the one the reader holds */
		WRITE_ONCE(reader_page(s)->commit, 0);
		s->live.hyp.entries = 0;
		s->live.hyp.overrun = 0;
	}
	copy_counters_locked(s);
	raw_spin_unlock_irqrestore(&s->lock, flags);
}

/*
 * The hypervisor no longer has the buffer (unloaded by another caller):
 * nothing in the shared pages is ours to believe now.
 */
void hyptrace_shadow_lost(void)
{
	WRITE_ONCE(shared_gone, true);
}
