/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The text readers of the fallback front end (trace, trace_pipe and their
 * per_cpu/cpuN copies), over any source (source.h); what their files
 * offer each other, and no one else (fallback.h is the front end's):
 *
 *   fallback_pages.c	the pages the module keeps per CPU, the places in
 *			them and the next event from a place; the live
 *			buffer's raw pages in this front end
 *   fallback_iter.c	an open reader, and one event printed as
 *			trace_remote prints it
 *   fallback_pipe.c	trace_pipe: consumes, oldest event first
 *   fallback_trace.c	trace: shows without consuming
 *
 * Each calls only files above it in this list (scripts/check-circles.sh).
 *
 * Pages come from the source in order, consumed (its take_page: for the
 * live buffer by reader page swap, hyptrace_raw_fill(), whole kernel-format
 * pages with the lost count in their header; for the last boot, its kept
 * pages), and the module keeps them, per CPU, in a list:
 *
 *   - trace_pipe consumes events from the oldest kept page, taking a page
 *     from the source when none is kept; at the end of a read-only source
 *     it returns end of file, as nothing more will come;
 *   - the live buffer's trace_pipe_raw hands out the rest of the oldest
 *     page, or else a page straight from the hypervisor: with trace_pipe
 *     it shares one position per CPU, so each event reaches exactly one
 *     consuming reader (the last boot's raw files read on their own,
 *     last_boot.c);
 *   - trace shows without consuming: when it opens, it moves up to a
 *     buffer's worth of pages per CPU into the list, then walks the list
 *     from the consumers' position. A page consumed meanwhile moves the walk
 *     on to what is left, as the kernel's iterator skips what a consumer took.
 *
 * Each page carries a sequence number, and pages leave the list only from
 * the front, below the consumers' place (or all at once, which moves that
 * place past them): so a place not before the consumers' names a page that
 * is still kept, and its pointer is good. A place before it is moved up.
 * Everything per CPU is under the CPU's lock: for the live buffer
 * hyptrace_cpu_lock(), which its raw files take too.
 */
#ifndef HYPTRACE_HOST_FALLBACK_TEXT_H
#define HYPTRACE_HOST_FALLBACK_TEXT_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/trace_seq.h>
#include <linux/types.h>

#include "source.h"

struct fb_text_owner;
struct inode;
struct rb_data_page;

struct fb_page {
	struct list_head node;
	u64 seq;
	u64 lost;			/* events lost before this page */
	u32 len;			/* bytes of data */
	struct rb_data_page *page;
};

/* A place in one CPU's stream of events */
struct fb_pos {
	u64 seq;			/* of the page */
	struct fb_page *page;		/* NULL: not looked up yet */
	u32 off;			/* bytes of its data before the place */
	u64 ts;				/* time at the place */
};

struct fb_cpu {
	struct mutex *lock;		/* over all of it */
	struct mutex own_lock;		/* @lock when the source has none */
	struct list_head pages;		/* kept, oldest first */
	unsigned int nr_pages;
	u64 next_seq;			/* of the next page kept */
	struct fb_pos pos;		/* the consumers' place */
};

/* The next event from a place */
struct fb_event {
	unsigned int cpu;
	u64 ts;
	u64 lost;			/* to report before it */
	bool fresh;			/* nothing of its page was consumed */
	const u8 *payload;
	u32 len;
	struct fb_pos at;		/* where it starts */
	struct fb_pos next;		/* where the one after it starts */
};

/* A source's text readers: @src->text */
struct fb_text {
	char reader[24];		/* names them in a damage report */
	const struct fb_text_owner *owner;	/* NULL: read-only */
	struct fb_cpu cpu[];
};

static inline struct fb_text *fb_text_of(struct hyptrace_source *src)
{
	return src->text;
}

static inline struct fb_cpu *fb_cpu_of(struct hyptrace_source *src,
				       unsigned int cpu)
{
	return &fb_text_of(src)->cpu[cpu];
}

/* fallback_pages.c: each with the CPU's lock held */
int fb_next(struct hyptrace_source *src, unsigned int cpu,
	    const struct fb_pos *from, struct fb_event *ev);
int fb_next_consume(struct hyptrace_source *src, unsigned int cpu,
		    struct fb_event *ev);
void fb_consume(struct hyptrace_source *src, unsigned int cpu,
		const struct fb_event *ev);
void fb_keep_all(struct hyptrace_source *src, unsigned int cpu); /* locks */

/* An open trace or trace_pipe: every CPU (cpu < 0) or one */
struct fb_iter {
	struct hyptrace_source *src;
	int cpu;
	struct trace_seq seq;		/* trace_pipe: text not yet read */
	struct fb_pos *pos;		/* trace: the walk's place per CPU */
	loff_t idx;			/* trace: events the walk is past */
	struct fb_event cur;		/* trace: the event at idx */
	bool have_cur;
};

static inline bool fb_iter_has(const struct fb_iter *it, unsigned int cpu)
{
	return it->cpu < 0 || it->cpu == cpu;
}

/* fallback_iter.c */
int fb_iter_open(struct inode *inode, struct fb_iter **out);
void fb_iter_close(struct fb_iter *it);
void fb_print(struct trace_seq *s, const struct fb_event *ev);

#endif /* HYPTRACE_HOST_FALLBACK_TEXT_H */
