// SPDX-License-Identifier: GPL-2.0
/*
 * The trace buffers' life cycle, driven by the host's hypercalls: load
 * (carve the pages out, describe them), enable, swap, reset, unload, and
 * which events are on.
 *
 * Trust: the carve-out is shared with the host, which may write anything
 * there at any time. Every address the hypervisor writes through is computed
 * here from hyp_layout and kept in hypervisor memory (struct rb_cpu, the
 * page table below); the descriptor in the carve-out is only ever written,
 * never read back.
 */
#include "cpus.h"
#include "hyp_layout.h"
#include "hyp_mem.h"
#include "layout.h"
#include "spinlock.h"
#include "trace.h"
#include "trace_persist.h"
#include "shared/hyptrace_abi.h"
#include "shared/trace_desc.h"

/*
 * The early buffer (hyptrace.early=, trace_early_start()): loaded and
 * written from the hypervisor's boot, before any host asked, until a
 * TRACE_LOAD adopts it. Its pages remember their stamps (rb_keep_stamps())
 * until the host's first clock update moves them onto that clock.
 */
struct trace_early {
	u32 state;			/* HYPTRACE_EARLY_* */
	u64 events;			/* bit n: event id n */
	u64 size;			/* bytes per CPU */
	u64 desc, desc_size;
	bool unaligned;			/* stamps still on the boot clock */
};

/*
 * All the tracing state, beside the lock that serialises every call below
 * (none of them is on a hot path), as arch/arm64/kvm/hyp/nvhe/trace.c
 * keeps its hyp_trace_buffer. The writers themselves are each CPU's
 * hyp_cpu.trace_rb, and what a trace site tests is hyp_cpu.trace_events,
 * which trace_publish_events() derives from @on and @event_wanted.
 */
static struct spinlock trace_lock;
static struct trace_buffer {
	/* The live buffer */
	bool loaded;
	bool on;
	/*
	 * Writer-private page bookkeeping for every CPU together, 24 bytes
	 * a page, in private memory (hyp_mem.c) sized to the loaded buffer;
	 * given back at unload. @mem_mark is where it starts. A buffer whose
	 * bookkeeping does not fit gets NO_MEMORY: with 16 CPUs' stacks and
	 * the page tables taken, some 1.6 MiB remain, about 70,000 pages
	 * (270 MiB) of trace.
	 */
	struct rb_page_info *pages;
	u64 mem_mark;
	/* The event mask: kept while unloaded too */
	bool event_wanted[HYP_NR_EVENTS + 1];
	struct trace_early early;
} trace_buffer;

/* Event names by id, from the shared table (hyptrace.early=, dt.c) */
#define TRACE_EVENT_NAME(name, id, fields, print)			\
	[id] = #name,
static const char *const trace_event_names[HYP_NR_EVENTS + 1] = {
	HYPTRACE_EVENTS(TRACE_EVENT_NAME)
};
#undef TRACE_EVENT_NAME

const char *trace_event_name(unsigned int id)
{
	return id && id <= HYP_NR_EVENTS ? trace_event_names[id] : "?";
}

/*
 * Under the lock: what a trace site tests (hyp_cpu.trace_events), the
 * event is wanted and tracing is on. Folding both into one word on the
 * CPU's own struct keeps a site with tracing off at one load and one
 * branch, as cheap as a disabled event, and a traced trap tests both of
 * its events with the load it made to decide it was traced.
 */
static void trace_publish_events(const struct trace_buffer *tb)
{
	u64 events = 0;
	unsigned int id, i;

	for (id = 1; id <= HYP_NR_EVENTS; id++)
		if (tb->on && tb->event_wanted[id])
			events |= 1ULL << id;
	if (events & (HYP_EVENT_BIT(hyp_enter) | HYP_EVENT_BIT(hyp_exit)))
		events |= HYP_TRACE_CALLS_BIT;
	/* Fixed since dt.c read the tree: a traced call's reason (traps.c) */
	if ((events & HYP_TRACE_CALLS_BIT) && hyp_layout.psci_local)
		events |= HYP_TRACE_PSCI_LOCAL_BIT;
	for (i = 0; i < hyp_layout.nr_cpus; i++)
		WRITE_ONCE(hyp_cpus[i].trace_events, events);
}

static bool trace_cpu_valid(u64 cpu)
{
	return cpu < hyp_layout.nr_cpus;
}

void trace_query(u64 *res)
{
	res[0] = hyp_layout.carveout_base;
	res[1] = hyp_layout.carveout_size;
	res[2] = HYPTRACE_QUERY_PACK(__builtin_ctzl(RB_PAGE_SIZE),
				     hyp_layout.nr_cpus, HYP_NR_EVENTS);
}

/*
 * Give CPU @idx its meta page at @meta and the @nr_pages data pages after
 * it. The writer stays disabled.
 */
static int trace_init_cpu(unsigned int idx, u8 *meta, u32 nr_pages,
			  enum rb_mode mode, void **page_addr)
{
	struct rb_page_info *info = &trace_buffer.pages[idx * nr_pages];
	u32 i;

	for (i = 0; i < nr_pages; i++)
		page_addr[i] = meta + (u64)(i + 1) * RB_PAGE_SIZE;
	return rb_init(&hyp_cpus[idx].trace_rb, idx, meta, page_addr,
		       nr_pages, info, mode);
}

/*
 * Under the lock: the bookkeeping for @nr_pages pages per CPU, and room
 * for rb_init()'s page address array, which is given back right after.
 */
static void **trace_alloc_pages(struct trace_buffer *tb, u64 nr_pages)
{
	u64 nr_cpus = hyp_layout.nr_cpus;

	tb->mem_mark = hyp_mem_mark();
	tb->pages = hyp_mem_alloc(nr_cpus * nr_pages * sizeof(*tb->pages),
				  SZ_4K);
	if (tb->pages)
		return hyp_mem_alloc(nr_pages * sizeof(void *), SZ_4K);
	return NULL;
}

static void trace_free_pages(struct trace_buffer *tb)
{
	hyp_mem_free_to(tb->mem_mark);
	tb->pages = NULL;
}

/*
 * Where in the carve-out a buffer of @bytes goes: at its start, unless the
 * last boot's pages (last_boot.c) are kept there, then in the room before or
 * after them. 0 if it does not fit.
 */
static u64 trace_place(u64 bytes)
{
	const struct hyp_layout *l = &hyp_layout;
	u64 base = l->carveout_base, end = base + l->carveout_size;
	u64 kept_base, kept_end;

	if (!last_boot_span(&kept_base, &kept_end))
		return bytes <= end - base ? base : 0;
	if (bytes <= kept_base - base)
		return base;
	if (bytes <= end - kept_end)
		return kept_end;
	return 0;
}

/* Under the lock: HYPTRACE_LOAD_ADOPT finds the early buffer waiting */
static bool trace_adopt(struct trace_early *early, u64 *res)
{
	if (early->state != HYPTRACE_EARLY_PENDING)
		return false;
	early->state = HYPTRACE_EARLY_ADOPTED;
	res[0] = early->desc;
	res[1] = early->desc_size;
	res[2] = 1;
	return true;
}

/*
 * Under the lock: carve out and start describing a buffer of @size bytes
 * per CPU, its writers disabled. Carve-out layout while loaded: the
 * descriptor, then per CPU one meta page followed by its data pages.
 */
static s64 trace_buffer_load(struct trace_buffer *tb, u64 size, u64 flags,
			     u64 *res)
{
	const struct hyp_layout *l = &hyp_layout;
	enum rb_mode mode = flags & HYPTRACE_LOAD_NO_OVERWRITE ?
			    RB_MODE_NO_OVERWRITE : RB_MODE_OVERWRITE;
	struct rb_cpu *cpus[HYP_MAX_CPUS];
	struct rb_trace_desc *desc;
	u64 nr_pages, desc_size, desc_room, base;
	void **page_addr;
	unsigned int i;
	u8 *meta;

	/* One buffer at a time, whatever size the second one asks for */
	if (tb->loaded)
		return HYPTRACE_RET_BUSY;
	/* Bounded first, so that nothing below can overflow. */
	if (size > l->carveout_size)
		return HYPTRACE_RET_NO_MEMORY;
	nr_pages = rb_nr_data_pages(size, RB_PAGE_CAPACITY);
	base = trace_place(rb_load_pages(l->nr_cpus, nr_pages, RB_PAGE_SIZE) *
			   RB_PAGE_SIZE);
	if (!base)
		return HYPTRACE_RET_NO_MEMORY;
	desc_size = rb_desc_size(l->nr_cpus, nr_pages);
	desc_room = ALIGN_UP(desc_size, RB_PAGE_SIZE);
	page_addr = trace_alloc_pages(tb, nr_pages);
	if (!page_addr)
		goto out_free;
	desc = (struct rb_trace_desc *)base;
	meta = (u8 *)base + desc_room;
	for (i = 0; i < l->nr_cpus; i++) {
		if (trace_init_cpu(i, meta, nr_pages, mode, page_addr))
			goto out_invalid;
		cpus[i] = &hyp_cpus[i].trace_rb;
		meta += (nr_pages + 1) * RB_PAGE_SIZE;
	}
	if (rb_desc_fill(desc, desc_size, cpus, l->nr_cpus))
		goto out_invalid;
	/* The address array was only for rb_init(): keep the bookkeeping */
	hyp_mem_free_to((u64)page_addr);
	tb->loaded = true;
	trace_persist_set(base, base + desc_room, nr_pages);
	trace_clock_unbind();
	res[0] = (u64)desc;
	res[1] = desc_size;
	res[2] = 0;
	return HYPTRACE_RET_SUCCESS;
out_invalid:
	trace_free_pages(tb);
	return HYPTRACE_RET_INVALID;
out_free:
	trace_free_pages(tb);
	return HYPTRACE_RET_NO_MEMORY;
}

/* HYPTRACE_LOAD_ADOPT: the early buffer's descriptor in @res, if it waits */
static bool trace_adopt_early(struct trace_buffer *tb, u64 *res)
{
	bool adopted;

	spin_lock(&trace_lock);
	adopted = trace_adopt(&tb->early, res);
	spin_unlock(&trace_lock);
	return adopted;
}

s64 trace_load(u64 size, u64 flags, u64 *res)
{
	struct trace_buffer *tb = &trace_buffer;
	s64 ret;

	if (flags & ~(u64)HYPTRACE_LOAD_FLAGS)
		return HYPTRACE_RET_INVALID;
	if ((flags & HYPTRACE_LOAD_ADOPT) && trace_adopt_early(tb, res))
		return HYPTRACE_RET_SUCCESS;
	if (!size)
		return HYPTRACE_RET_INVALID;
	trace_clock_bind_cpus();
	spin_lock(&trace_lock);
	ret = trace_buffer_load(tb, size, flags, res);
	spin_unlock(&trace_lock);
	return ret;
}

/* Under the lock: every writer disabled, waiting for a write in flight */
static void trace_buffer_unload(struct trace_buffer *tb)
{
	unsigned int i;

	for (i = 0; i < hyp_layout.nr_cpus; i++)
		rb_disable(&hyp_cpus[i].trace_rb);
	tb->loaded = false;
	tb->on = false;
	trace_publish_events(tb);
	trace_free_pages(tb);
	trace_persist_clear();
	tb->early.state = HYPTRACE_EARLY_NONE;
	tb->early.unaligned = false;
}

s64 trace_unload(void)
{
	struct trace_buffer *tb = &trace_buffer;
	s64 ret = HYPTRACE_RET_NOT_LOADED;

	spin_lock(&trace_lock);
	if (tb->loaded) {
		trace_buffer_unload(tb);
		ret = HYPTRACE_RET_SUCCESS;
	}
	spin_unlock(&trace_lock);
	return ret;
}

/* Under the lock, loaded: every writer on or off, and the sites told */
static void trace_buffer_enable(struct trace_buffer *tb, bool enable)
{
	unsigned int i;

	for (i = 0; i < hyp_layout.nr_cpus; i++) {
		if (enable)
			rb_enable(&hyp_cpus[i].trace_rb);
		else
			rb_disable(&hyp_cpus[i].trace_rb);
	}
	tb->on = enable;
	trace_publish_events(tb);
}

s64 trace_enable(u64 enable)
{
	struct trace_buffer *tb = &trace_buffer;
	s64 ret = HYPTRACE_RET_SUCCESS;

	if (enable > 1)
		return HYPTRACE_RET_INVALID;
	spin_lock(&trace_lock);
	if (tb->loaded)
		trace_buffer_enable(tb, enable);
	else if (enable)
		ret = HYPTRACE_RET_NOT_LOADED;
	spin_unlock(&trace_lock);
	return ret;
}

/*
 * The last boot's pages were released: if nothing has been loaded since,
 * the persistent record still names them.
 */
void trace_persist_release(void)
{
	struct trace_buffer *tb = &trace_buffer;

	spin_lock(&trace_lock);
	if (!tb->loaded)
		trace_persist_clear();
	spin_unlock(&trace_lock);
}

/*
 * Run @op with @arg on CPU @cpu's writer, if there is a loaded one: its
 * HYPTRACE_RET_*, or NOT_LOADED. @cpu is checked by the caller.
 */
static s64 trace_cpu_call(u64 cpu, s64 (*op)(struct rb_cpu *rb, u64 arg),
			  u64 arg)
{
	struct trace_buffer *tb = &trace_buffer;
	s64 ret = HYPTRACE_RET_NOT_LOADED;

	spin_lock(&trace_lock);
	if (tb->loaded)
		ret = op(&hyp_cpus[cpu].trace_rb, arg);
	spin_unlock(&trace_lock);
	return ret;
}

static s64 trace_swap_rb(struct rb_cpu *rb, u64 read)
{
	int err = rb_swap_reader_after(rb, read);

	return err == -RB_ENOTEMPTY ? HYPTRACE_RET_UNREAD :
	       err ? HYPTRACE_RET_AGAIN : HYPTRACE_RET_SUCCESS;
}

static bool trace_swap_valid(u64 cpu, u64 flags)
{
	return trace_cpu_valid(cpu) && !(flags & ~(u64)HYPTRACE_SWAP_READ);
}

/* HYPTRACE_CALL_TRACE_SWAP_READER: @read counts with HYPTRACE_SWAP_READ */
s64 trace_swap_reader(u64 cpu, u64 flags, u64 read)
{
	if (!trace_swap_valid(cpu, flags))
		return HYPTRACE_RET_INVALID;
	return trace_cpu_call(cpu, trace_swap_rb,
			      flags & HYPTRACE_SWAP_READ ? read :
							   RB_READ_UNKNOWN);
}

static s64 trace_reset_rb(struct rb_cpu *rb, u64 unused)
{
	return rb_reset(rb, (struct rb_stats *)0) ? HYPTRACE_RET_AGAIN :
						    HYPTRACE_RET_SUCCESS;
}

s64 trace_reset(u64 cpu)
{
	if (!trace_cpu_valid(cpu))
		return HYPTRACE_RET_INVALID;
	return trace_cpu_call(cpu, trace_reset_rb, 0);
}

static s64 trace_hide_rb(struct rb_cpu *rb, u64 hide)
{
	rb_set_hidden(rb, hide);
	return HYPTRACE_RET_SUCCESS;
}

/* Where CPU @cpu's counters are published (rb_set_hidden()). */
s64 trace_hide_counters(u64 cpu, u64 hide)
{
	if (!trace_cpu_valid(cpu) || hide > 1)
		return HYPTRACE_RET_INVALID;
	return trace_cpu_call(cpu, trace_hide_rb, hide);
}

static bool trace_event_valid(u64 id, u64 enable)
{
	return id && id <= HYP_NR_EVENTS && enable <= 1;
}

s64 trace_enable_event(u64 id, u64 enable)
{
	struct trace_buffer *tb = &trace_buffer;

	if (!trace_event_valid(id, enable))
		return HYPTRACE_RET_INVALID;
	spin_lock(&trace_lock);
	tb->event_wanted[id] = enable;
	trace_publish_events(tb);
	spin_unlock(&trace_lock);
	return HYPTRACE_RET_SUCCESS;
}

/*
 * Early capture (hyptrace.early=, dt.c), on the boot CPU before Linux
 * runs: the buffer a TRACE_LOAD of @size bytes per CPU would make, from
 * the same carve-out, with the events in @events on and writing started,
 * so that the host finds an ordinary loaded buffer (TRACE_EARLY, and
 * TRACE_LOAD with HYPTRACE_LOAD_ADOPT). Stamps are the counter at
 * CNTFRQ_EL0 (trace_clock_early()) until the host's first clock update.
 * 0, or the HYPTRACE_RET_* of the load that failed.
 */
s64 trace_early_start(u64 events, u64 size)
{
	struct trace_buffer *tb = &trace_buffer;
	struct trace_early *early = &tb->early;
	struct rb_page_stamps *stamps;
	u64 res[3], nr_pages;
	unsigned int i, id;
	s64 ret;

	ret = trace_load(size, 0, res);
	if (ret)
		return ret;
	nr_pages = hyp_cpus[0].trace_rb.nr_slots + 1;
	spin_lock(&trace_lock);
	/* Freed with the bookkeeping at unload: allocated after its mark */
	stamps = hyp_mem_alloc(hyp_layout.nr_cpus * nr_pages * sizeof(*stamps),
			       SZ_4K);
	spin_unlock(&trace_lock);
	if (!stamps) {
		trace_unload();
		return HYPTRACE_RET_NO_MEMORY;
	}
	for (i = 0; i < hyp_layout.nr_cpus; i++)
		rb_keep_stamps(&hyp_cpus[i].trace_rb, &stamps[i * nr_pages]);

	trace_clock_early();
	early->events = events;
	early->size = size;
	early->desc = res[0];
	early->desc_size = res[1];
	early->unaligned = true;
	early->state = HYPTRACE_EARLY_PENDING;
	for (id = 1; id <= HYP_NR_EVENTS; id++)
		tb->event_wanted[id] = !!(events & (1ULL << id));
	return trace_enable(1);
}

/*
 * HYPTRACE_CALL_TRACE_EARLY. No lock: the events and size never change
 * after boot, and a state read during an adoption is one of the two.
 */
void trace_early_query(u64 *res)
{
	const struct trace_early *early = &trace_buffer.early;
	u32 state = READ_ONCE(early->state);

	res[0] = state;
	res[1] = state ? early->events : 0;
	res[2] = state ? early->size : 0;
}

/*
 * Where an early page goes on the host's clock. Pages that started at or
 * after the host clock's zero (@zero on the boot clock) move by @offset,
 * exactly. Those from before it cannot be stamped on it (stamps are
 * unsigned; on a NO_HZ kernel CLOCK_BOOTTIME stalls while idle until the
 * arch counter becomes its clocksource, so its zero, taken back along the
 * counter, can come after the secondaries started): they start at 0 from
 * the first early page (@min_first) on, keeping their spacing, all
 * @zero - @min_first late, so that every CPU's early pages keep their
 * order; squeezed, spacing scaled, if they would reach the first page
 * placed exactly (@room on the host's clock).
 */
struct early_map {
	s64 offset;
	u64 zero;
	u64 min_first;
	u64 room;
	u32 squeezed;
};

static s64 early_map_stamp(void *ctx, u64 stamp)
{
	struct early_map *m = ctx;
	u64 span = m->zero - m->min_first, at = stamp - m->min_first;
	u64 room = m->room;
	unsigned int scale = 0;

	if (stamp >= m->zero)
		return (s64)(stamp - m->zero);
	m->squeezed++;
	if (span <= room)
		return (s64)at;
	/*
	 * at * room / span in 64 bits (a 128-bit division would pull in
	 * libgcc's): the low bits of nanoseconds already made up go first.
	 */
	while (span > U32_MAX / 2) {
		span >>= 1;
		at >>= 1;
	}
	while (room > U32_MAX / 2) {
		room >>= 1;
		scale++;
	}
	return (s64)((at * room / span) << scale);
}

/*
 * The host's first clock update, @next, @offset ns from the boot clock,
 * which read @now_ns at the update: publish it and move the early buffer's
 * pages onto it (early_map_stamp()), every writer stopped meanwhile, so
 * that no event is placed after the move with a stamp taken on the boot
 * clock; except one whose stamp was read just before the writers stopped
 * and reserved just after they restart, which the writer clamps to the
 * one before it. res[0..2] as HYPTRACE_CALL_TRACE_UPDATE_CLOCK says. False,
 * and @next not published, if there is nothing to move.
 */
bool trace_early_align(s64 offset, u64 now_ns, const struct hyp_clock *next,
		       u64 *res)
{
	struct trace_buffer *tb = &trace_buffer;
	struct early_map map = { .offset = offset, .min_first = RB_NO_STAMP };
	bool was_on[HYP_MAX_CPUS];
	u64 late, most_late = 0, first, from, room = RB_NO_STAMP;
	unsigned int i;
	u32 moved;

	spin_lock(&trace_lock);
	if (!tb->early.unaligned) {
		spin_unlock(&trace_lock);
		return false;
	}
	map.zero = offset < 0 ? (u64)-offset : 0;
	for (i = 0; i < hyp_layout.nr_cpus; i++)
		was_on[i] = rb_disable(&hyp_cpus[i].trace_rb);
	trace_clock_publish(next);
	for (i = 0; i < hyp_layout.nr_cpus; i++) {
		rb_stamp_bounds(&hyp_cpus[i].trace_rb, map.zero, &first, &from);
		map.min_first = min(map.min_first, first);
		room = min(room, from);
	}
	/* No page to place exactly: the squeezed ones end at the update */
	map.room = room == RB_NO_STAMP ? now_ns : room - map.zero;
	for (i = 0; i < hyp_layout.nr_cpus; i++) {
		late = rb_shift_stamps(&hyp_cpus[i].trace_rb, early_map_stamp,
				       &map, &moved);
		most_late = max(most_late, late);
	}
	for (i = 0; i < hyp_layout.nr_cpus; i++)
		if (was_on[i])
			rb_enable(&hyp_cpus[i].trace_rb);
	tb->early.unaligned = false;
	spin_unlock(&trace_lock);
	res[0] = (u64)offset;
	res[1] = map.squeezed ? map.zero - map.min_first : 0;
	res[2] = most_late;
	return true;
}
