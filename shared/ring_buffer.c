// SPDX-License-Identifier: GPL-2.0
/*
 * Ring-buffer writer for hyptrace: per-CPU pages the kernel reads in place.
 *
 * Memory and trust
 * ----------------
 * Per CPU there is one meta page (struct rb_meta == trace_buffer_meta) and
 * nr_pages data pages (struct rb_data_page == buffer_data_page); page id i is
 * page_va[i] of the descriptor the kernel is given, page 0 being the initial
 * reader. The host can write anything into those pages at any time, so the
 * writer only ever *stores* to them. Every decision (where the next event
 * goes, which page is head, reader or tail, how many events a page holds,
 * the counters) is taken from struct rb_cpu and struct rb_page_info, which
 * live in hypervisor-private memory. Counters are kept privately and copied
 * out; a scribbled meta page is simply overwritten at the next update.
 *
 * Ring model
 * ----------
 * The kernel mirrors the ring positionally: page_va[1] -> ... -> page_va[M-1]
 * and back, and after a swap the old reader takes the old head's exact place
 * (reference §3.5, §3.6, §7 item 8). So the ring is an array of nr_slots =
 * M - 1 slots, each holding a page id, and a swap just exchanges the page in
 * the head slot with the reader page. The data in the ring is described by
 * two numbers: @head, the slot of the oldest page with unread data, and
 * @used, how many consecutive slots from @head hold data written this lap.
 * The writer's page is slot head + used - 1, except when used == 0: then the
 * writer's page was handed to the reader while the writer was on it, and the
 * writer keeps appending there (legal: the kernel re-reads commit). The next
 * page the writer moves to is always slot head + used.
 *
 * Writer
 * ------
 * rb_reserve()/rb_commit() (inline, ring_buffer.h) are the fast path: an
 * acquire compare-and-swap of @status READY -> WRITING (a trylock that also
 * refuses nested writes and lets disable wait; READY is 0, so it is a zero
 * test), one header store, the payload, then release stores of page
 * commit, meta entries and @status. The status stays an atomic: another
 * CPU's rb_disable() writes it too (bench/README.md, "The traced call's hot
 * path", says what plain stores and barriers would cost instead).
 * Anything unusual (page full, fresh page, a delta that needs a TIME_EXTEND,
 * a timestamp going backwards, an oversized event) goes to rb_reserve_slow().
 * Timestamps that go backwards are clamped to the last one and counted, so a
 * clock re-anchor never becomes a 2^59 ns forward jump (§7 item 10).
 *
 * Swap protocol (and why §7 item 16 cannot happen)
 * ------------------------------------------------
 * Only two actors change the ring: the writer when it moves to a new page,
 * and swap/reset. Both do it under @lock, a spinlock in private memory held
 * for a handful of stores. The writer takes it only on a page crossing, never
 * per event. Because "which page is in slot head + used" is read under the
 * same lock that the swapper holds while it exchanges the head slot, the
 * writer can never move onto a page that a concurrent swap just gave to the
 * reader: either the swap happened first and the slot already holds the old
 * reader page (free), or the crossing happened first and the swap sees the
 * updated head/used. simple_ring_buffer instead computes the next page before
 * a cmpxchg on a link and does not look again when it loses the race.
 *
 * A swap with used == 0 (the reader page is the writer's page and the ring
 * holds no data), or with only the writer's page in the ring and no event on
 * it yet, has nothing to give: the kernel only asks in that state
 * when it saw a new @entries before the matching commit, so -EAGAIN is
 * returned and the kernel retries at its next poll. A swap never hands out a
 * page the writer has not written this lap, so the kernel never sees stale
 * pages again.
 *
 * The writer's fast path never waits for the lock and the swapper never
 * waits for the writer, so swap can run on any CPU while the writer is
 * mid-event, with at most a few stores of spinning on a crossing.
 *
 * Memory ordering (written for a weakly ordered CPU)
 * ---------------------------------------------------
 * - Event bytes, then page commit (release), then meta entries (release):
 *   a reader that sees an entry count sees the commit, and a reader that
 *   sees a commit sees the bytes below it and the page time_stamp.
 * - meta overrun / pages_lost are stored (release) before the lock is
 *   dropped; the swapper reads the private overrun under the lock, so
 *   reader.lost_events is exact. reader.lost_events is stored before
 *   reader.id (release).
 * - @status: acquire CAS at reserve, release store at commit; disable loops
 *   on an acquire CAS READY -> DISABLED, so it returns only after the last
 *   event is complete; enable is a release store, so reset's updates of the
 *   writer's fields are visible to the next reserve.
 *
 * Checked against the Linux 7.3 sources (simple_ring_buffer, the kernel
 * ring buffer and the trace_mmap uapi header): layouts and
 * the reader contract are as the reference describes for 7.2. One 7.3
 * difference: the remote reader re-reads the reader page's time_stamp when
 * it starts reading it (read offset 0), where 7.2 took it only at the swap.
 * Page time_stamps are stored under the lock before a page can be swapped
 * out, so both behave the same here.
 *
 * Differences from simple_ring_buffer a host module may notice: records are
 * multiples of 8 bytes (payload rounded up, padding zeroed); meta_struct_len
 * and subbuf_size are filled in; unwritten pages carry a time_stamp of ~0
 * or 0 (see RB_STAMP_AHEAD); timestamps going backwards are clamped;
 * no-overwrite mode; swap can answer -EAGAIN; hyptrace counters at
 * RB_META_EXT_OFFSET.
 *
 * Serialisation expected from the caller: rb_enable/rb_disable/rb_reset on
 * one CPU's buffer are serialised with each other (the hypervisor's trace
 * lock). rb_swap_reader may run concurrently with anything.
 */
#include "ring_buffer.h"

static void rb_lock(struct rb_cpu *cpu)
{
	while (!arch_cmpxchg_acquire_u32(&cpu->lock, 0, 1))
		arch_cpu_relax();
}

static void rb_unlock(struct rb_cpu *cpu)
{
	arch_store_release_u32(&cpu->lock, 0);
}

static u32 rb_slot(const struct rb_cpu *cpu, u32 slot)
{
	return slot >= cpu->nr_slots ? slot - cpu->nr_slots : slot;
}

static struct rb_counters *rb_meta_counters(struct rb_meta *meta)
{
	return (struct rb_counters *)&meta->entries;
}

static void rb_publish_ext(struct rb_cpu *cpu)
{
	struct rb_meta_ext *ext = cpu->ext;

	ext->magic = RB_META_EXT_MAGIC;
	ext->version = RB_META_EXT_VERSION;
	ext->mode = cpu->mode;
	ext->hidden = cpu->pub == &ext->counters;
	arch_store_once_u64(&ext->dropped, cpu->dropped);
	arch_store_once_u64(&ext->clamped, cpu->clamped);
	arch_store_once_u64(&ext->nested, cpu->nested);
	arch_store_once_u64(&ext->too_big, cpu->too_big);
}

/*
 * The time_stamp of a page not written since init or reset. The kernel's
 * non-consuming iterator (trace) finds the ring's ends by time_stamp alone
 * (ring_buffer.c, rb_update_remote_head()): from its idea of the head it
 * moves on while a page's stamp is above the next one's, and from there
 * takes the commit page as the last of a rising run. It then starts at
 * the first page whose list link carries its HEAD flag, and gives up after
 * three empty steps (rb_iter_peek()). So:
 *
 * - An empty ring page is stamped after every event (RB_STAMP_AHEAD): the
 *   head search never leaves a written page for it, and the rising run
 *   ends at most one empty page after the writer's (§7 item 9: with stamps
 *   below the writer's, a fresh buffer of three ring pages or more would
 *   show nothing).
 *
 * - The reader page, and the page the last swap gave back while the head
 *   has not moved since, are stamped before every event (RB_STAMP_BEHIND).
 *   After a swap the kernel marks the page given back as the head (its
 *   list surgery sets the flag on the link before that page) while taking
 *   the next one for its head pointer, and nothing clears that flag until
 *   its head search walks across the page. An iterator that starts there
 *   must not find the commit page there too: with the page stamped
 *   behind, the head search moves from a writer's page just before it onto
 *   it, and with the flag, and the rising run goes on to the writer's
 *   page. Without it, the kernel's own trace.tc shape (events on a CPU,
 *   read by trace_pipe, a reset, events on that CPU again) showed an empty
 *   trace on a buffer of two ring pages. Once the head has moved (the
 *   writer overwrote its way round), the page is no longer just before the
 *   head, and stamped behind amid empty pages it would stop the head
 *   search short of the writer's page: it is stamped ahead again. The
 *   reader page is stamped behind because a swap gives it back.
 */
#define RB_STAMP_AHEAD	(~0ULL)
#define RB_STAMP_BEHIND	0ULL

/* The one way the tail page changes: rb_commit() uses the cached pointer. */
static void rb_set_tail_page(struct rb_cpu *cpu, struct rb_data_page *page)
{
	cpu->tail_page = page;
	cpu->tail_data = page->data;
	cpu->at.commit = &page->commit;
}

static void rb_page_clear(const struct rb_cpu *cpu, u32 id)
{
	struct rb_data_page *page = cpu->pages[id].page;
	bool behind = id == cpu->reader_id || id == cpu->given_back;

	arch_store_once_u64(&page->commit, 0);
	arch_store_once_u64(&page->time_stamp,
			    behind ? RB_STAMP_BEHIND : RB_STAMP_AHEAD);
}

/*
 * Out of line even where LTO could inline it: every writer's refusal, once
 * in the image, not in each of them (the hypervisor's size budget)
 */
__attribute__((__noinline__)) void *rb_reserve_refused(struct rb_cpu *cpu)
{
	if (arch_load_acquire_u32(&cpu->status) == RB_STATUS_WRITING) {
		cpu->nested++;
		rb_publish_ext(cpu);
	}
	return (void *)0;
}

/*
 * A page's time_stamp is stored, and the page marked started, under the lock:
 * a swap that hands the page to the kernel then also publishes its time_stamp,
 * which the kernel reads right after the swap (7.2 never re-reads it).
 */
static void rb_start_page(struct rb_cpu *cpu, u64 ts)
{
	arch_store_once_u64(&cpu->tail_page->time_stamp, ts);
	cpu->tail_started = true;
	if (cpu->stamps)
		cpu->stamps[cpu->tail_id].first = ts;
}

/*
 * Move the writer to slot head + used and start that page at @ts. False if
 * the ring is full and no-overwrite mode keeps it.
 */
static bool rb_move_tail(struct rb_cpu *cpu, u64 ts)
{
	struct rb_counters *pub = cpu->pub;
	bool moved = false;
	u32 lost, id;

	rb_lock(cpu);
	cpu->pages[cpu->tail_id].entries = cpu->entries -
					   cpu->tail_start_entries;
	cpu->pages[cpu->tail_id].commit = (u32)cpu->write;
	if (cpu->stamps)
		cpu->stamps[cpu->tail_id].last = cpu->last_ts;
	if (cpu->used == cpu->nr_slots) {
		if (cpu->mode == RB_MODE_NO_OVERWRITE)
			goto out;
		lost = cpu->pages[cpu->head].slot_page;
		cpu->overrun += cpu->pages[lost].entries;
		cpu->pages_lost++;
		arch_store_release_u64(&pub->overrun, cpu->overrun);
		arch_store_release_u64(&pub->pages_lost, cpu->pages_lost);
		cpu->head = rb_slot(cpu, cpu->head + 1);
		cpu->used--;
		/* No longer just before the head: stamped ahead at a reset */
		cpu->given_back = RB_NO_PAGE;
	}
	id = cpu->pages[rb_slot(cpu, cpu->head + cpu->used)].slot_page;
	cpu->used++;
	cpu->tail_id = id;
	rb_set_tail_page(cpu, cpu->pages[id].page);
	cpu->pages[id].entries = 0;
	cpu->pages[id].commit = 0;
	cpu->tail_start_entries = cpu->entries;
	arch_store_once_u64(&cpu->tail_page->commit, 0);
	rb_start_page(cpu, ts);
	cpu->pages_touched++;
	arch_store_release_u64(&pub->pages_touched, cpu->pages_touched);
	moved = true;
out:
	rb_unlock(cpu);
	return moved;
}

/* Called with @status WRITING; returns NULL after setting it back READY. */
void *rb_reserve_slow(struct rb_cpu *cpu, u32 len, u64 ts)
{
	u64 size, delta, ext = 0;
	u64 write = cpu->write;
	rb_word_t *ev;

	if (len > RB_MAX_PAYLOAD) {
		cpu->too_big++;
		goto refuse;
	}
	size = rb_event_size(len);

	if ((s64)(ts - cpu->last_ts) < 0) {
		cpu->clamped++;
		rb_publish_ext(cpu);
		ts = cpu->last_ts;
	}
	delta = ts - cpu->last_ts;
	if (delta >> RB_TS_SHIFT)
		ext = RB_TS_EXTEND_SIZE;

	if (write == RB_WRITE_FRESH) {
		rb_lock(cpu);
		rb_start_page(cpu, ts);
		rb_unlock(cpu);
		goto started;
	}
	/*
	 * A delta beyond 59 bits cannot be encoded: start a page instead. So
	 * does one that needs a time extend (2^27 ns, 134 ms) while stamps
	 * are kept (rb_keep_stamps()): pages move onto another clock whole,
	 * and one after such a pause can often move exactly where the pages
	 * before it cannot.
	 */
	if (!(delta >> RB_TS_EXT_BITS) && !(ext && cpu->stamps) &&
	    write + ext + size <= RB_PAGE_CAPACITY)
		goto place;
	if (!rb_move_tail(cpu, ts)) {
		cpu->dropped++;
		goto refuse;
	}
started:
	write = 0;
	ext = 0;
	delta = 0;
place:
	ev = (rb_word_t *)(cpu->tail_page->data + write);
	if (ext) {
		ev[0] = ((delta >> RB_TS_SHIFT) << 32) |
			((delta & RB_TS_MASK) << RB_TYPE_LEN_BITS) |
			RB_TYPE_TIME_EXTEND;
		ev++;
		delta = 0;
	}
	ev[0] = rb_data_header(delta, size);
	if (len & 7)
		ev[size / 8 - 1] = 0;
	cpu->write = write + ext + size;
	cpu->last_ts = ts;
	return (void *)(ev + 1);

refuse:
	rb_publish_ext(cpu);
	arch_store_release_u32(&cpu->status, RB_STATUS_READY);
	return (void *)0;
}

void rb_enable(struct rb_cpu *cpu)
{
	if (arch_load_acquire_u32(&cpu->status) == RB_STATUS_DISABLED)
		arch_store_release_u32(&cpu->status, RB_STATUS_READY);
}

/* Stop writes; wait for one in flight. Returns whether it was enabled. */
bool rb_disable(struct rb_cpu *cpu)
{
	for (;;) {
		if (arch_cmpxchg_acquire_u32(&cpu->status, RB_STATUS_READY,
					     RB_STATUS_DISABLED))
			return true;
		if (arch_load_acquire_u32(&cpu->status) == RB_STATUS_DISABLED)
			return false;
		arch_cpu_relax();
	}
}

/*
 * Hand the head page to the reader and take its page back into the ring.
 *
 * The reader page may be one the writer was still on when it was handed
 * out, and the writer may have filled it since and moved on. A reader that
 * looked at its commit before that, found it all read and then asked for a
 * swap would give back a page with events it never saw, and nobody would
 * count them (they were neither overwritten nor dropped). A reader that
 * says how many bytes of its page it has consumed (@read) is told
 * -RB_ENOTEMPTY instead, and reads the rest first. The kernel's reader does
 * not say (RB_READ_UNKNOWN), as simple_ring_buffer's does not.
 */
int rb_swap_reader_after(struct rb_cpu *cpu, u64 read)
{
	struct rb_meta *meta = cpu->meta;
	u32 head, new_reader;
	u64 lost;

	rb_lock(cpu);
	if (!cpu->used || (cpu->used == 1 && !cpu->tail_started)) {
		cpu->swap_busy++;
		rb_unlock(cpu);
		return -RB_EAGAIN;
	}
	/* used != 0: the writer has left the reader page, its commit is final */
	if (read != RB_READ_UNKNOWN &&
	    read < cpu->pages[cpu->reader_id].commit) {
		rb_unlock(cpu);
		return -RB_ENOTEMPTY;
	}
	head = cpu->head;
	new_reader = cpu->pages[head].slot_page;
	cpu->pages[head].slot_page = cpu->reader_id;
	cpu->pages[cpu->reader_id].entries = 0;
	cpu->pages[cpu->reader_id].commit = 0;
	cpu->given_back = cpu->reader_id;
	cpu->reader_id = new_reader;
	cpu->head = rb_slot(cpu, head + 1);
	cpu->used--;

	lost = cpu->overrun - cpu->last_overrun;
	cpu->last_overrun = cpu->overrun;
	arch_store_once_u64(&meta->reader.lost_events, lost);
	arch_store_release_u32(&meta->reader.id, new_reader);
	rb_unlock(cpu);
	return 0;
}

int rb_swap_reader(struct rb_cpu *cpu)
{
	return rb_swap_reader_after(cpu, RB_READ_UNKNOWN);
}

/*
 * Zero the counters and rewrite the whole meta struct from private state:
 * reader.id keeps its value (the kernel requires it across reset), and
 * whatever the host scribbled there is repaired.
 */
static void rb_zero_counters(struct rb_cpu *cpu)
{
	struct rb_meta *meta = cpu->meta;
	u64 *word;

	cpu->entries = 0;
	cpu->tail_start_entries = 0;
	cpu->overrun = 0;
	cpu->last_overrun = 0;
	cpu->pages_lost = 0;
	cpu->pages_touched = 0;
	cpu->dropped = 0;
	cpu->clamped = 0;
	cpu->nested = 0;
	cpu->too_big = 0;
	cpu->swap_busy = 0;
	cpu->last_ts = 0;

	arch_store_once_u64(&meta->reader.lost_events, 0);
	arch_store_release_u32(&meta->reader.read, 0);
	arch_store_once_u64(&meta->flags, 0);
	arch_store_once_u64(&meta->entries, 0);
	arch_store_once_u64(&meta->overrun, 0);
	arch_store_once_u64(&meta->read, 0);
	arch_store_once_u64(&meta->pages_lost, 0);
	arch_store_once_u64(&meta->pages_touched, 0);
	for (word = (u64 *)&cpu->ext->counters;
	     word < (u64 *)(&cpu->ext->counters + 1); word++) {
		RB_OPAQUE(word);
		arch_store_once_u64(word, 0);
	}
	meta->meta_page_size = RB_PAGE_SIZE;
	meta->meta_struct_len = sizeof(*meta);
	meta->subbuf_size = RB_PAGE_SIZE;
	meta->nr_subbufs = cpu->nr_slots + 1;
	arch_store_release_u32(&meta->reader.id, cpu->reader_id);
	rb_publish_ext(cpu);
}

static void rb_fill_stats(const struct rb_cpu *cpu, struct rb_stats *st)
{
	st->entries = cpu->entries;
	st->overrun = cpu->overrun;
	st->pages_lost = cpu->pages_lost;
	st->pages_touched = cpu->pages_touched;
	st->dropped = cpu->dropped;
	st->clamped = cpu->clamped;
	st->nested = cpu->nested;
	st->too_big = cpu->too_big;
	st->swap_busy = cpu->swap_busy;
	st->reader_id = cpu->reader_id;
	st->used = cpu->used;
}

/*
 * Only meaningful while the writer is quiet (disabled, or on its own CPU
 * between events): the fast path updates @entries without the lock.
 */
void rb_get_stats(struct rb_cpu *cpu, struct rb_stats *stats)
{
	rb_lock(cpu);
	rb_fill_stats(cpu, stats);
	rb_unlock(cpu);
}

/*
 * Empty every page and zero the counters, keeping reader.id and the ring
 * order; the writer restarts at the head page (§3.7). @before, if not NULL,
 * receives the counters as they were at the instant of the reset.
 */
int rb_reset(struct rb_cpu *cpu, struct rb_stats *before)
{
	bool was_enabled = rb_disable(cpu);
	u32 i;

	rb_lock(cpu);
	if (before)
		rb_fill_stats(cpu, before);
	for (i = 0; i < cpu->nr_slots + 1; i++) {
		RB_OPAQUE(i);
		cpu->pages[i].entries = 0;
		cpu->pages[i].commit = 0;
		rb_page_clear(cpu, i);
		if (cpu->stamps)
			cpu->stamps[i].first = RB_NO_STAMP;
	}
	cpu->tail_id = cpu->pages[cpu->head].slot_page;
	rb_set_tail_page(cpu, cpu->pages[cpu->tail_id].page);
	cpu->used = 1;
	cpu->tail_started = false;
	cpu->write = RB_WRITE_FRESH;
	rb_zero_counters(cpu);
	rb_unlock(cpu);

	if (was_enabled)
		rb_enable(cpu);
	return 0;
}

/*
 * Publish the counters where the kernel's reader does not look (@hidden) or
 * where it does. While the pages go to another reader (the host module's
 * raw files), the kernel's reader must see nothing to read, or it would ask
 * for pages it cannot have; the other reader finds the counters in the
 * extension. Waits for a write in flight, as reset does, so that no commit
 * publishes to the old place afterwards.
 */
void rb_set_hidden(struct rb_cpu *cpu, bool hidden)
{
	struct rb_counters *shown = rb_meta_counters(cpu->meta);
	struct rb_counters *pub = hidden ? &cpu->ext->counters : shown;
	bool was_enabled = rb_disable(cpu);

	rb_lock(cpu);
	cpu->pub = pub;
	cpu->at.entries = &pub->entries;
	arch_store_once_u64(&pub->overrun, cpu->overrun);
	arch_store_once_u64(&pub->pages_lost, cpu->pages_lost);
	arch_store_once_u64(&pub->pages_touched, cpu->pages_touched);
	arch_store_release_u64(&pub->entries, cpu->entries);
	if (hidden) {
		/* entries first: never fewer entries than overrun */
		arch_store_release_u64(&shown->entries, 0);
		arch_store_once_u64(&shown->overrun, 0);
		arch_store_once_u64(&shown->pages_lost, 0);
		arch_store_once_u64(&shown->pages_touched, 0);
	}
	rb_publish_ext(cpu);
	rb_unlock(cpu);
	if (was_enabled)
		rb_enable(cpu);
}

/*
 * From now on, remember when each page's first and last events happened,
 * in @stamps (nr_pages entries, private memory), so that rb_shift_stamps()
 * can move the pages onto another clock without reading anything back
 * from them. The writer must be disabled, before its first event.
 */
void rb_keep_stamps(struct rb_cpu *cpu, struct rb_page_stamps *stamps)
{
	u32 i;

	for (i = 0; i < cpu->nr_slots + 1; i++) {
		RB_OPAQUE(i);
		stamps[i].first = RB_NO_STAMP;
		stamps[i].last = 0;
	}
	cpu->stamps = stamps;
}

/* @a as signed nanoseconds, no lower than @floor */
static s64 rb_stamp_floor(s64 a, s64 floor)
{
	return a < floor ? floor : a;
}

/*
 * The owned, started pages' first stamps: the lowest in *@min_first, and
 * the lowest that is at least @zero in *@min_from (both RB_NO_STAMP if
 * none). The writer must be disabled.
 */
void rb_stamp_bounds(struct rb_cpu *cpu, u64 zero, u64 *min_first,
		     u64 *min_from)
{
	u64 first;
	u32 i;

	*min_first = RB_NO_STAMP;
	*min_from = RB_NO_STAMP;
	if (!cpu->stamps)
		return;
	rb_lock(cpu);
	for (i = 0; i < cpu->used; i++) {
		first = cpu->stamps[cpu->pages[rb_slot(cpu, cpu->head + i)].slot_page].first;
		if (first == RB_NO_STAMP)
			continue;
		if (first < *min_first)
			*min_first = first;
		if (first >= zero && first < *min_from)
			*min_from = first;
	}
	rb_unlock(cpu);
}

/*
 * Move every page the writer owns (the ring's pages from the head to the
 * writer's, not the reader's) onto another clock, and stop remembering
 * stamps: @map gives the new first stamp of a page from its old one (@ctx
 * is its own). Events keep their deltas, so a whole page moves at once;
 * one that would start before the last event of the page before it
 * starts there instead, and its events come out that much late. Returns
 * the most any page was moved late; *@moved counts the pages moved. The
 * writer must be disabled.
 */
u64 rb_shift_stamps(struct rb_cpu *cpu, s64 (*map)(void *ctx, u64 stamp),
		    void *ctx, u32 *moved)
{
	struct rb_page_stamps *st;
	s64 floor = 0, first, want, late, most_late = 0, last_shift = 0;
	u32 i, id;

	*moved = 0;
	if (!cpu->stamps)
		return 0;
	rb_lock(cpu);
	for (i = 0; i < cpu->used; i++) {
		id = cpu->pages[rb_slot(cpu, cpu->head + i)].slot_page;
		st = &cpu->stamps[id];
		if (st->first == RB_NO_STAMP)
			continue;
		if (id == cpu->tail_id)
			st->last = cpu->last_ts;
		want = map(ctx, st->first);
		first = rb_stamp_floor(want, floor);
		late = first - want;
		if (late > most_late)
			most_late = late;
		last_shift = first - (s64)st->first;
		st->last = (u64)rb_stamp_floor((s64)st->last + last_shift, first);
		st->first = (u64)first;
		arch_store_once_u64(&cpu->pages[id].page->time_stamp,
				    st->first);
		floor = (s64)st->last;
		(*moved)++;
	}
	/*
	 * The writer's next delta counts from the last event, moved as its
	 * page was. A writer on a page the reader took (used == 0) keeps
	 * that page's old stamp, which the hypervisor may no longer write.
	 */
	if (*moved)
		cpu->last_ts = (u64)floor;
	cpu->stamps = (struct rb_page_stamps *)0;
	rb_unlock(cpu);
	return (u64)most_late;
}

static bool rb_page_ok(const void *page)
{
	return page && !((unsigned long)page & (RB_PAGE_SIZE - 1));
}

int rb_init(struct rb_cpu *cpu, u32 cpu_id, void *meta_page,
	    void *const *data_pages, u32 nr_pages, struct rb_page_info *info,
	    enum rb_mode mode)
{
	struct rb_meta *meta = meta_page;
	u32 *word;
	u32 i;

	if (!cpu || !info || !data_pages || !rb_page_ok(meta_page) ||
	    nr_pages < RB_MIN_PAGES || nr_pages > RB_MAX_PAGES ||
	    (mode != RB_MODE_OVERWRITE && mode != RB_MODE_NO_OVERWRITE))
		return -RB_EINVAL;
	for (i = 0; i < nr_pages; i++) {
		if (!rb_page_ok(data_pages[i]) || data_pages[i] == meta_page)
			return -RB_EINVAL;
	}

	cpu->status = RB_STATUS_DISABLED;
	cpu->lock = 0;
	cpu->meta = meta;
	cpu->pub = rb_meta_counters(meta);
	cpu->at.entries = &cpu->pub->entries;
	cpu->ext = (struct rb_meta_ext *)((u8 *)meta_page + RB_META_EXT_OFFSET);
	cpu->pages = info;
	cpu->nr_slots = nr_pages - 1;
	cpu->mode = mode;
	cpu->cpu = cpu_id;
	cpu->stamps = (struct rb_page_stamps *)0;
	cpu->reader_id = 0;	/* page_va[0], as the kernel requires */
	cpu->given_back = RB_NO_PAGE;

	/* Page 0 is the reader; ring slot i holds page i + 1; head = slot 0. */
	for (i = 0; i < nr_pages; i++) {
		RB_OPAQUE(i);
		info[i].page = data_pages[i];
		info[i].entries = 0;
		info[i].slot_page = i + 1 < nr_pages ? i + 1 : 0;
		info[i].commit = 0;
		rb_page_clear(cpu, i);
	}
	cpu->head = 0;
	cpu->used = 1;
	cpu->tail_started = false;
	cpu->tail_id = info[0].slot_page;
	rb_set_tail_page(cpu, info[cpu->tail_id].page);
	cpu->write = RB_WRITE_FRESH;

	for (word = meta_page; word < (u32 *)(meta + 1); word++) {
		RB_OPAQUE(word);
		*word = 0;
	}
	rb_zero_counters(cpu);
	return 0;
}

/*
 * The private invariants, for tests and debug builds. Returns 0 or a number
 * naming the first broken one.
 */
int rb_check(const struct rb_cpu *cpu)
{
	u32 nr_pages = cpu->nr_slots + 1;
	u64 seen = 0;
	u32 i, id;

	if (nr_pages < RB_MIN_PAGES || nr_pages > RB_MAX_PAGES)
		return 1;
	if (cpu->head >= cpu->nr_slots || cpu->used > cpu->nr_slots)
		return 2;
	if (cpu->reader_id >= nr_pages)
		return 3;
	/* slots hold every page id but the reader's, each exactly once */
	for (i = 0; i < cpu->nr_slots; i++) {
		id = cpu->pages[i].slot_page;
		if (id >= nr_pages || id == cpu->reader_id)
			return 4;
		if (nr_pages <= 64) {
			if (seen & (1ULL << id))
				return 5;
			seen |= 1ULL << id;
		}
	}
	if (cpu->used) {
		id = cpu->pages[rb_slot(cpu, cpu->head + cpu->used - 1)].slot_page;
		if (cpu->tail_id != id)
			return 6;
	} else if (cpu->tail_id != cpu->reader_id) {
		return 7;
	}
	if (cpu->tail_page != cpu->pages[cpu->tail_id].page ||
	    cpu->at.commit != &cpu->tail_page->commit ||
	    cpu->tail_data != cpu->tail_page->data ||
	    cpu->at.entries != &cpu->pub->entries ||
	    (cpu->pub != rb_meta_counters(cpu->meta) &&
	     cpu->pub != &cpu->ext->counters))
		return 8;
	if (cpu->write != RB_WRITE_FRESH &&
	    (cpu->write > RB_PAGE_CAPACITY || (cpu->write & 7)))
		return 9;
	if (cpu->overrun > cpu->entries || cpu->last_overrun > cpu->overrun)
		return 10;
	if (cpu->tail_start_entries > cpu->entries)
		return 11;
	if (cpu->status > RB_STATUS_DISABLED || cpu->lock > 1)
		return 12;
	if ((cpu->write == RB_WRITE_FRESH) == cpu->tail_started)
		return 13;
	return 0;
}
