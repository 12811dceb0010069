/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU ring-buffer writer whose pages the Linux kernel's trace_remote
 * reader consumes in place. The binary layouts below are the kernel's
 * (include/uapi/linux/trace_mmap.h, include/linux/ring_buffer_types.h,
 * include/linux/ring_buffer.h), declared here under our own names so that a
 * host module can include this file next to the kernel headers.
 *
 * The design (who may touch what, the swap protocol, memory ordering) is
 * described at the top of ring_buffer.c.
 */
#ifndef HYPTRACE_SHARED_RING_BUFFER_H
#define HYPTRACE_SHARED_RING_BUFFER_H

#include "atomic.h"
#include "rb_types.h"

/* Must equal the host kernel's PAGE_SIZE: one data page is one kernel page. */
#ifndef RB_PAGE_SIZE
#define RB_PAGE_SIZE		4096U
#endif

/* struct buffer_data_page: u64 time_stamp, local_t commit, then data[] */
#define RB_PAGE_HDR_SIZE	16U
#define RB_PAGE_CAPACITY	(RB_PAGE_SIZE - RB_PAGE_HDR_SIZE)

/* struct ring_buffer_event: type_len:5, time_delta:27, then u32 array[] */
#define RB_EVENT_HDR_SIZE	4U
#define RB_TYPE_DATA_MAX	28U
#define RB_TYPE_PADDING		29U
#define RB_TYPE_TIME_EXTEND	30U
#define RB_TYPE_TIME_STAMP	31U
#define RB_TYPE_LEN_BITS	5U
#define RB_TS_SHIFT		27U	/* bits of time_delta */
#define RB_TS_MASK		((1ULL << RB_TS_SHIFT) - 1)
#define RB_TS_EXT_BITS		59U	/* time_delta + TIME_EXTEND array[0] */
#define RB_TS_EXTEND_SIZE	8U

/*
 * commit bits 30 and 31 are reader-side flags; a writer leaves them clear.
 * A reader that hands pages on (trace_pipe_raw) marks lost events with them.
 */
#define RB_MISSED_EVENTS	(1ULL << 31)	/* events lost before this page */
#define RB_MISSED_STORED	(1ULL << 30)	/* their count follows the data */
#define RB_COMMIT_FLAGS		(RB_MISSED_EVENTS | RB_MISSED_STORED)

/*
 * Every record is a multiple of 8 bytes (header word, length word, payload
 * rounded up to 8) so that payloads stay 8-byte aligned for -mstrict-align
 * callers. The kernel reader accepts any multiple of 4.
 */
#define RB_MAX_PAYLOAD		(RB_PAGE_CAPACITY - 8U)
#define RB_MIN_PAGES		3U		/* reader + 2 ring pages */
#define RB_MAX_PAGES		(1U << 20)

struct rb_data_page {
	u64 time_stamp;		/* time of the page's first event */
	u64 commit;		/* bytes of data[] holding committed events */
	u8 data[];
};

/* struct trace_buffer_meta, the first 80 bytes of the meta page */
struct rb_meta {
	u32 meta_page_size;
	u32 meta_struct_len;
	u32 subbuf_size;
	u32 nr_subbufs;
	struct {
		u64 lost_events;
		u32 id;
		u32 read;
	} reader;
	u64 flags;
	u64 entries;
	u64 overrun;
	u64 read;
	u64 pages_lost;
	u64 pages_touched;
};

_Static_assert(sizeof(struct rb_meta) == 80, "trace_buffer_meta size");
_Static_assert(__builtin_offsetof(struct rb_meta, reader.lost_events) == 16,
	       "trace_buffer_meta.reader.lost_events");
_Static_assert(__builtin_offsetof(struct rb_meta, reader.id) == 24,
	       "trace_buffer_meta.reader.id");
_Static_assert(__builtin_offsetof(struct rb_meta, entries) == 40,
	       "trace_buffer_meta.entries");
_Static_assert(__builtin_offsetof(struct rb_meta, pages_touched) == 72,
	       "trace_buffer_meta.pages_touched");
_Static_assert(__builtin_offsetof(struct rb_data_page, data) ==
	       RB_PAGE_HDR_SIZE, "buffer_data_page header");

/*
 * The counters the kernel's reader decides from, laid out as in the meta
 * page from @entries on (trace_buffer_meta). The writer publishes them
 * there, or, while the pages are consumed by another reader than the
 * kernel's (rb_set_hidden()), in the meta extension below, leaving zeros
 * where the kernel looks: it then sees nothing to read and never asks.
 */
struct rb_counters {
	u64 entries;
	u64 overrun;
	u64 read;		/* the reader's own; the writer leaves it 0 */
	u64 pages_lost;
	u64 pages_touched;
};

_Static_assert(__builtin_offsetof(struct rb_meta, pages_touched) -
	       __builtin_offsetof(struct rb_meta, entries) ==
	       __builtin_offsetof(struct rb_counters, pages_touched),
	       "rb_counters is the tail of trace_buffer_meta");

/*
 * hyptrace's own counters, further down the meta page where the kernel never
 * looks. Written from the writer's private copies, for the host module to
 * read; never read back by the writer.
 */
#define RB_META_EXT_OFFSET	128U
#define RB_META_EXT_MAGIC	0x42525448U	/* "HTRB" */
#define RB_META_EXT_VERSION	2U

struct rb_meta_ext {
	u32 magic;
	u32 version;
	u64 dropped;	/* no-overwrite mode: events refused, ring full */
	u64 clamped;	/* timestamps that went backwards, clamped */
	u64 nested;	/* writes refused: a write was already in flight */
	u64 too_big;	/* writes refused: payload > RB_MAX_PAYLOAD */
	u32 mode;	/* enum rb_mode */
	u32 hidden;	/* 1: the counters are in @counters, not the meta */
	struct rb_counters counters;
};

enum rb_mode {
	RB_MODE_OVERWRITE = 0,		/* flight recorder: lose oldest page */
	RB_MODE_NO_OVERWRITE = 1,	/* keep old data: drop newest event */
};

/*
 * READY is 0 so that the writer's claim is a zero test and its release a
 * store of the zero register (arch_try_claim_u32()). A zeroed struct
 * rb_cpu is therefore "ready": rb_init() sets DISABLED before anything
 * else, and nothing may write through one it has not initialised.
 */
enum rb_status {
	RB_STATUS_READY = 0,
	RB_STATUS_WRITING = 1,
	RB_STATUS_DISABLED = 2,
};
_Static_assert(RB_STATUS_READY == 0 && RB_STATUS_WRITING == 1,
	       "arch_try_claim_u32() moves 0 to 1");

#define RB_EINVAL		22
#define RB_EAGAIN		11
#define RB_ENOTEMPTY		39	/* the reader page holds more: read it */

/* rb_swap_reader_after()'s @read for a reader that does not say */
#define RB_READ_UNKNOWN		(~0ULL)

/* Writer-private, one per page id. Caller-provided storage, nr_pages long. */
struct rb_page_info {
	struct rb_data_page *page;
	u64 entries;		/* committed events when the writer left it */
	u32 slot_page;		/* ring slot i holds page id slot_page of [i] */
	u32 commit;		/* data bytes committed when the writer left it */
};

/*
 * Writer-private, one per page id, for a buffer whose stamps may be moved
 * onto another clock later (rb_shift_stamps()): when the page's first and
 * last events happened, on the writer's clock. @first is RB_NO_STAMP for a
 * page not started since init or reset.
 */
struct rb_page_stamps {
	u64 first;
	u64 last;
};

#define RB_NO_STAMP		(~0ULL)

/* @given_back before the first swap */
#define RB_NO_PAGE		(~0U)

/*
 * &tail_page->commit and &pub->entries, where rb_commit() publishes an
 * event: its release stores take no offset, so these save an add each, and
 * as a pair one load reaches both.
 */
struct rb_publish_at {
	u64 *commit;
	u64 *entries;
};

/* One ldp: the compiler loads the two apart between the payload's stores */
static inline struct rb_publish_at rb_publish_at_load(const struct rb_publish_at *p)
{
#if defined(__aarch64__) && !defined(HOST_TEST)
	struct rb_publish_at at;

	asm("ldp %0, %1, %2"
	    : "=r" (at.commit), "=r" (at.entries)
	    : "Ump" (p->commit), "m" (p->entries));
	return at;
#else
	return *p;
#endif
}

/*
 * Writer-private per-CPU state. Nothing in here is ever reloaded from the
 * shared pages. The first block is the writer's fast path; the rest is
 * guarded by @lock (or by the writer being disabled, for reset).
 */
struct rb_cpu {
	/*
	 * The fast path's fields, in the order it uses them, in pairs that
	 * one ldp/stp reaches. @status first: ldaxr/stlr take no offset.
	 */
	u32 status;			/* enum rb_status */
	u64 write;			/* bytes used on the tail page */
	u64 last_ts;
	u8 *tail_data;			/* tail_page->data: one add an event */
	u64 entries;
	struct rb_publish_at at;
	struct rb_data_page *tail_page;
	struct rb_meta *meta;
	struct rb_counters *pub;	/* where the counters are published */

	u32 lock;
	u32 tail_id;
	u32 head;			/* ring slot of the oldest data page */
	u32 used;			/* ring slots from head holding data */
	u32 nr_slots;			/* nr_pages - 1 */
	u32 reader_id;
	u32 given_back;			/* the last swap's, if before @head */
	u32 mode;
	u32 cpu;
	bool tail_started;		/* tail page has its time_stamp */
	u64 tail_start_entries;
	u64 overrun;
	u64 last_overrun;
	u64 pages_lost;
	u64 pages_touched;
	u64 dropped;
	u64 clamped;
	u64 nested;
	u64 too_big;
	u64 swap_busy;
	struct rb_page_info *pages;
	struct rb_meta_ext *ext;
	struct rb_page_stamps *stamps;	/* NULL unless rb_keep_stamps() */
};

/* @write of a page the writer has not started since init or reset */
#define RB_WRITE_FRESH		0x10000U

struct rb_stats {
	u64 entries;
	u64 overrun;
	u64 pages_lost;
	u64 pages_touched;
	u64 dropped;
	u64 clamped;
	u64 nested;
	u64 too_big;
	u64 swap_busy;
	u32 reader_id;
	u32 used;
};

int rb_init(struct rb_cpu *cpu, u32 cpu_id, void *meta_page,
	    void *const *data_pages, u32 nr_pages, struct rb_page_info *info,
	    enum rb_mode mode);
void rb_enable(struct rb_cpu *cpu);
bool rb_disable(struct rb_cpu *cpu);
int rb_swap_reader(struct rb_cpu *cpu);
int rb_swap_reader_after(struct rb_cpu *cpu, u64 read);
int rb_reset(struct rb_cpu *cpu, struct rb_stats *before);
void rb_set_hidden(struct rb_cpu *cpu, bool hidden);
void rb_keep_stamps(struct rb_cpu *cpu, struct rb_page_stamps *stamps);
void rb_stamp_bounds(struct rb_cpu *cpu, u64 zero, u64 *min_first,
		     u64 *min_from);
u64 rb_shift_stamps(struct rb_cpu *cpu, s64 (*map)(void *ctx, u64 stamp),
		    void *ctx, u32 *moved);
void rb_get_stats(struct rb_cpu *cpu, struct rb_stats *stats);
int rb_check(const struct rb_cpu *cpu);

void *rb_reserve_slow(struct rb_cpu *cpu, u32 len, u64 ts);
void *rb_reserve_refused(struct rb_cpu *cpu);

/*
 * Keep the compiler from rewriting how x is computed, or from using it to
 * turn a loop into a memset/memcpy call.
 */
#define RB_OPAQUE(x)	__asm__("" : "+r" (x))

typedef u64 __attribute__((__may_alias__)) rb_word_t;
typedef u8 __attribute__((__may_alias__)) rb_byte_t;

/*
 * One stp of @a and @b at @p + @i (@i a constant, below RB_PAIR_SPAN):
 * the compiler, storing them apart, moves the base past the first by
 * write-back when more stores follow, and given p + i as an operand, it
 * adds first. The operand is the span from @p, so that no other address
 * is formed: read and written, so that stores before it stay.
 */
#define RB_PAIR_SPAN	6
static inline __attribute__((__always_inline__)) void
rb_store_pair_at(rb_word_t *p, const unsigned int i, u64 a, u64 b)
{
#if defined(__aarch64__) && !defined(HOST_TEST)
	asm("stp %2, %3, [%1, %4]"
	    : "+m" (*(rb_word_t (*)[RB_PAIR_SPAN])p)
	    : "r" (p), "r" (a), "r" (b), "i" (i * 8));
#else
	p[i] = a;
	p[i + 1] = b;
#endif
}

static inline __attribute__((__always_inline__)) void
rb_store_pair(rb_word_t *p, u64 a, u64 b)
{
	rb_store_pair_at(p, 0, a, b);
}

/* Record size on the page for a payload of @len bytes (no time extend). */
static inline u64 rb_event_size(u64 len)
{
	return ((len + 7) & ~7ULL) + 8;
}

/* A type_len 0 data header and its array[0] (which counts itself). */
static inline u64 rb_data_header(u64 delta, u64 size)
{
	return ((size - RB_EVENT_HDR_SIZE) << 32) | (delta << RB_TYPE_LEN_BITS);
}

/*
 * @cpu's tail_data, and its entries into *@entries: one ldp. A caller
 * whose payload is in registers (rb_write_words()) loads the count here,
 * before the payload's stores, after which the compiler would load it
 * again (the stores are through may_alias pointers).
 */
static inline u8 *rb_tail_and_entries(const struct rb_cpu *cpu, u64 *entries)
{
	_Static_assert(__builtin_offsetof(struct rb_cpu, entries) ==
		       __builtin_offsetof(struct rb_cpu, tail_data) + 8,
		       "tail_data and entries: one ldp");
#if defined(__aarch64__) && !defined(HOST_TEST)
	u8 *tail;

	asm("ldp %0, %1, %2"
	    : "=r" (tail), "=r" (*entries)
	    : "Ump" (cpu->tail_data), "m" (cpu->entries));
	return tail;
#else
	*entries = cpu->entries;
	return cpu->tail_data;
#endif
}

/*
 * rb_reserve(), and with @words 1 or 2 the payload's first words as well:
 * @w0 stored with the header by one pair store, @w1 after it (@len >= 8
 * a word), before the fast and slow paths meet, so that no pointer need
 * be kept for them. With @entries (rb_write_words()), the writer's count
 * of events into it, loaded before those stores.
 */
static inline __attribute__((__always_inline__)) void *
rb_reserve_with(struct rb_cpu *cpu, u32 len, u64 ts, unsigned int words,
		u64 w0, u64 w1, u64 *entries)
{
	u64 size = rb_event_size(len);
	u64 write, delta, end;
	rb_word_t *ev;

	if (!arch_try_claim_u32(&cpu->status)) {	/* READY -> WRITING */
		rb_reserve_refused(cpu);
		return (void *)0;
	}

	write = cpu->write;
	delta = ts - cpu->last_ts;
	end = write + size;
	if (__builtin_expect((delta >> RB_TS_SHIFT) != 0 ||
			     end > RB_PAGE_CAPACITY, 0)) {
		ev = rb_reserve_slow(cpu, len, ts);
		if (words > 0 && ev)
			ev[0] = w0;
		if (words > 1 && ev)
			ev[1] = w1;
		if (entries)
			*entries = cpu->entries;
		return ev;
	}

	if (entries)
		ev = (rb_word_t *)(rb_tail_and_entries(cpu, entries) + write);
	else
		ev = (rb_word_t *)(cpu->tail_data + write);
	/* One base for header and payload: their offsets go in the stores */
	RB_OPAQUE(ev);
	if (len & 7)
		ev[size / 8 - 1] = 0;	/* no stale bytes in the padding */
	if (words > 0)
		rb_store_pair(ev, rb_data_header(delta, size), w0);
	else
		ev[0] = rb_data_header(delta, size);
	if (words > 1)			/* over the padding's zeros, if 9..15 */
		ev[2] = w1;
	cpu->write = end;
	cpu->last_ts = ts;
	return (void *)(ev + 1);
}

/*
 * Reserve room for one event of @len payload bytes at time @ts on this CPU's
 * buffer. Returns an 8-byte aligned payload pointer, or NULL if the event is
 * refused (disabled, nested, too big, or ring full in no-overwrite mode).
 * Must be followed by rb_commit() on the same CPU, without migrating.
 */
static inline void *rb_reserve(struct rb_cpu *cpu, u32 len, u64 ts)
{
	return rb_reserve_with(cpu, len, ts, 0, 0, 0, NULL);
}

/*
 * Publish the event reserved last: page commit, then meta entries, the
 * count one more than @entries, the writer's count before it.
 */
static inline __attribute__((__always_inline__)) void
rb_commit_after(struct rb_cpu *cpu, u64 entries)
{
	/* Loaded before the first release store, which no load may pass */
	struct rb_publish_at at = rb_publish_at_load(&cpu->at);

	entries++;
	cpu->entries = entries;
	arch_store_release_u64(at.commit, cpu->write);
	arch_store_release_u64(at.entries, entries);
	arch_store_release_u32(&cpu->status, RB_STATUS_READY);
}

/* Publish the event reserved last: page commit, then meta entries. */
static inline void rb_commit(struct rb_cpu *cpu)
{
	rb_commit_after(cpu, cpu->entries);
}

/*
 * Write one event whose payload, of @len bytes (at least 8, 16 for @w1),
 * is the words @w0 and @w1 (@words of them) and zeros: reserve, store,
 * commit. True if written.
 */
static inline __attribute__((__always_inline__)) bool
rb_write_words(struct rb_cpu *cpu, u32 len, u64 ts, unsigned int words,
	       u64 w0, u64 w1)
{
	u64 entries;

	if (!rb_reserve_with(cpu, len, ts, words, w0, w1, &entries))
		return false;
	rb_commit_after(cpu, entries);
	return true;
}

/*
 * Two events under one claim, one reserve and one publish: a one-word
 * payload @a at @ts_a, then a two-word one, @b0 and @b1, at @ts_b (a
 * traced call's hyp_enter, written when its hyp_exit is). The fast path
 * only: if the two do not both fit the tail page, or a delta needs a time
 * extend, nothing is written, the claim is given back and the result is
 * RB_PAIR_SLOW: the caller writes them one at a time, as rb_write() would.
 * 1 if written, 0 if refused.
 */
#define RB_PAIR_SLOW	(-1)

static inline __attribute__((__always_inline__)) int
rb_write_pair(struct rb_cpu *cpu, u64 ts_a, u64 a, u64 ts_b, u64 b0, u64 b1)
{
	const u64 size_a = rb_event_size(8), size_b = rb_event_size(16);
	u64 write, delta_a, delta_b, end, entries;
	rb_word_t *ev;

	if (!arch_try_claim_u32(&cpu->status)) {	/* READY -> WRITING */
		rb_reserve_refused(cpu);
		return 0;
	}
	write = cpu->write;
	delta_a = ts_a - cpu->last_ts;
	delta_b = ts_b - ts_a;
	end = write + size_a + size_b;
	/* A delta that went back (a new clock anchor) is a large one here */
	if (__builtin_expect(((delta_a | delta_b) >> RB_TS_SHIFT) != 0 ||
			     end > RB_PAGE_CAPACITY, 0)) {
		arch_store_release_u32(&cpu->status, RB_STATUS_READY);
		return RB_PAIR_SLOW;
	}
	ev = (rb_word_t *)(rb_tail_and_entries(cpu, &entries) + write);
	RB_OPAQUE(ev);
	rb_store_pair(ev, rb_data_header(delta_a, size_a), a);
	rb_store_pair_at(ev, size_a / 8, rb_data_header(delta_b, size_b), b0);
	ev[size_a / 8 + 2] = b1;
	cpu->write = end;
	cpu->last_ts = ts_b;
	rb_commit_after(cpu, entries + 1);
	return 1;
}

static inline void rb_copy(void *dst, const void *src, u32 len)
{
	if (!(((unsigned long)src | len) & 7)) {
		const rb_word_t *s = src;
		rb_word_t *d = dst;

		for (; len; len -= 8)
			*d++ = *s++;
	} else {
		const rb_byte_t *s = src;
		rb_byte_t *d = dst;

		while (len--)
			*d++ = *s++;
	}
}

/* Reserve, copy @len bytes from @payload, commit. True if written. */
static inline bool rb_write(struct rb_cpu *cpu, u64 ts, const void *payload,
			    u32 len)
{
	void *ev = rb_reserve(cpu, len, ts);

	if (!ev)
		return false;
	rb_copy(ev, payload, len);
	rb_commit(cpu);
	return true;
}

#endif /* HYPTRACE_SHARED_RING_BUFFER_H */
