/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A consuming reader that behaves like the kernel's remote reader
 * (__rb_get_reader_page_from_remote() and rb_buffer_peek() in
 * kernel/trace/ring_buffer.c): unread = entries - overrun - consumed from the
 * meta page; read the reader page up to its commit; when it is used up and
 * unread is not zero, ask for a swap, take reader.id and reader.lost_events.
 *
 * Unlike the kernel it checks every byte it parses against the page bounds,
 * so the fuzzer can run it over pages the "host" scribbled on.
 *
 * The swap callback is given how many bytes of its page the reader has
 * consumed: a callback that passes it on (rb_swap_reader_after(), as
 * hyptrace.ko's raw files do) may be told -RB_ENOTEMPTY, and the reader
 * then reads on. @swap_window yields that many times between finding the
 * page read and asking for the swap, to widen the window in which the
 * writer can fill the page behind the reader's back.
 *
 * With @commit_first it reads as hyptrace.ko's raw files do: from the
 * reader page's commit alone, asking for a swap as soon as the page looks
 * used up, without first seeing from the meta page's counters that there
 * is more. (The kernel's order, counters then commit, happens to close the
 * window above: a reader that saw the writer's next event counted sees the
 * commit it left behind.)
 */
#ifndef HYPTRACE_TESTS_KREADER_H
#define HYPTRACE_TESTS_KREADER_H

#include <sched.h>
#include <stdint.h>
#include <string.h>

#include "../../shared/ring_buffer.h"

struct kevent {
	u64 ts;
	u64 lost;		/* lost events reported before this one */
	u32 len;		/* payload bytes as the record says */
	const u8 *payload;
};

struct kreader {
	struct rb_meta *meta;
	struct rb_data_page **pages;
	u32 nr_pages;
	u32 reader_id;
	u32 read;		/* offset in the reader page's data */
	u64 read_stamp;
	u64 consumed;		/* data events consumed since reset */
	u64 lost_pending;
	int (*swap)(void *arg, u64 read);
	void *arg;
	u32 swap_window;
	bool commit_first;
	u64 swap_unread;	/* swaps refused: the page held more */
	u64 swaps;
	u64 swap_fail;
	u64 extends;
	const char *error;	/* first protocol violation seen */
};

static inline void kreader_init(struct kreader *r, struct rb_meta *meta,
				struct rb_data_page **pages, u32 nr_pages,
				int (*swap)(void *, u64), void *arg)
{
	memset(r, 0, sizeof(*r));
	r->meta = meta;
	r->pages = pages;
	r->nr_pages = nr_pages;
	r->swap = swap;
	r->arg = arg;
	r->reader_id = __atomic_load_n(&meta->reader.id, __ATOMIC_ACQUIRE);
}

/* What the kernel does after it called the remote's reset (§3.7). */
static inline void kreader_reset(struct kreader *r)
{
	r->consumed = 0;
	r->read = 0;
	r->lost_pending = 0;
}

static inline u64 kreader_unread(struct kreader *r)
{
	u64 entries = __atomic_load_n(&r->meta->entries, __ATOMIC_ACQUIRE);
	u64 overrun = __atomic_load_n(&r->meta->overrun, __ATOMIC_ACQUIRE);

	return entries - overrun - r->consumed;
}

/* 1: *ev filled; 0: nothing to read now; -1: protocol error (r->error). */
static inline int kreader_next(struct kreader *r, struct kevent *ev)
{
	int empty_swaps = 0;

	for (;;) {
		struct rb_data_page *page;
		u64 commit, unread = kreader_unread(r);
		u32 w0, w1, type, delta;
		const u8 *p;

		/*
		 * Like the kernel: entries and overrun are read one after the
		 * other while the writer runs, so a transiently "negative"
		 * count is possible and, being unsigned, means "try".
		 */
		if (!unread && !r->commit_first)
			return 0;
		page = r->pages[r->reader_id];
		commit = __atomic_load_n(&page->commit, __ATOMIC_ACQUIRE);
		commit &= ~RB_COMMIT_FLAGS;
		if (commit > RB_PAGE_CAPACITY) {
			r->error = "commit beyond the page";
			return -1;
		}
		if (r->read >= commit) {
			u32 prev = r->reader_id, id;

			int ret;
			u32 w;

			if (empty_swaps++ > 3)
				return 0;
			for (w = 0; w < r->swap_window; w++)
				sched_yield();
			ret = r->swap(r->arg, r->read);
			if (ret == -RB_ENOTEMPTY) {
				r->swap_unread++;
				continue;
			}
			if (ret) {
				r->swap_fail++;
				return 0;
			}
			r->swaps++;
			id = __atomic_load_n(&r->meta->reader.id,
					     __ATOMIC_ACQUIRE);
			if (id >= r->nr_pages || id == prev) {
				r->error = "swap returned a bad reader.id";
				return -1;
			}
			r->reader_id = id;
			r->read = 0;
			r->lost_pending = r->meta->reader.lost_events;
			r->read_stamp = r->pages[id]->time_stamp;
			continue;
		}
		if (!r->read)
			r->read_stamp = page->time_stamp;
		if (commit - r->read < 8) {
			r->error = "truncated record";
			return -1;
		}
		p = page->data + r->read;
		memcpy(&w0, p, 4);
		memcpy(&w1, p + 4, 4);
		type = w0 & 31;
		delta = w0 >> 5;
		if (type == RB_TYPE_TIME_EXTEND) {
			r->read_stamp += ((u64)w1 << RB_TS_SHIFT) + delta;
			r->read += 8;
			r->extends++;
			continue;
		}
		if (type != 0 || w1 < 4 || w1 + 4 > commit - r->read) {
			r->error = "unexpected record type or length";
			return -1;
		}
		r->read_stamp += delta;
		ev->ts = r->read_stamp;
		ev->len = w1 - 4;
		ev->payload = p + 8;
		ev->lost = r->lost_pending;
		r->lost_pending = 0;
		r->read += (w1 + 4 + 3) & ~3U;
		r->consumed++;
		return 1;
	}
}

#endif /* HYPTRACE_TESTS_KREADER_H */
