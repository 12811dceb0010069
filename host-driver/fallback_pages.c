// SPDX-License-Identifier: GPL-2.0
/*
 * The pages the fallback front end's text readers keep, per CPU, of any
 * source, and the places in them (fallback_text.h says how they move):
 * taking pages from the source, giving back what the consumers have read,
 * the next event from a place, with damage reported once. The readers
 * (fallback_pipe.c, fallback_trace.c) and the live buffer's raw files
 * (fb_raw_page(), called through the front end's raw_page) go through
 * these, so that all of them agree on what is consumed. It prints nothing
 * and makes no file: that is the readers'.
 */
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include "compat.h"
#include "hyptrace.h"
#include "fallback.h"
#include "fallback_text.h"
#include "source.h"

/**
 * fb_read_init() - make a source's text readers' state
 * @src:	the source
 * @cpu_lock:	its per-CPU lock, if its other readers take one (NULL: the
 *		text readers have their own)
 * @owner:	the front end's part in a source that is written (the live
 *		buffer); NULL for a read-only one
 *
 * Return: 0, or -ENOMEM.
 */
int fb_read_init(struct hyptrace_source *src,
		 struct mutex *(*cpu_lock)(unsigned int cpu),
		 const struct fb_text_owner *owner)
{
	struct fb_text *text;
	unsigned int cpu;

	text = kzalloc(struct_size(text, cpu, src->nr_cpus), GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	snprintf(text->reader, sizeof(text->reader), "%strace", src->name);
	text->owner = owner;
	for (cpu = 0; cpu < src->nr_cpus; cpu++) {
		struct fb_cpu *fc = &text->cpu[cpu];

		INIT_LIST_HEAD(&fc->pages);
		mutex_init(&fc->own_lock);
		fc->lock = cpu_lock ? cpu_lock(cpu) : &fc->own_lock;
	}
	src->text = text;
	return 0;
}

static struct fb_page *fb_first(struct fb_cpu *fc)
{
	return list_first_entry_or_null(&fc->pages, struct fb_page, node);
}

static void fb_page_free(struct fb_page *p)
{
	free_page((unsigned long)p->page);
	kfree(p);
}

/* The front of the list, or the place of the next page to be kept */
static void fb_pos_front(struct fb_cpu *fc, struct fb_pos *pos)
{
	struct fb_page *first = fb_first(fc);

	pos->seq = first ? first->seq : fc->next_seq;
	pos->page = NULL;
	pos->off = 0;
	pos->ts = 0;
}

/* Take one more page of @cpu from the source. CPU lock held. */
static int fb_pull(struct hyptrace_source *src, unsigned int cpu)
{
	struct fb_cpu *fc = fb_cpu_of(src, cpu);
	struct fb_page *p;
	u64 commit;
	int ret;

	p = kzalloc_obj(*p);
	if (!p)
		return -ENOMEM;
	p->page = (struct rb_data_page *)__get_free_page(GFP_KERNEL);
	if (!p->page) {
		kfree(p);
		return -ENOMEM;
	}
	ret = src->ops->take_page(src, cpu, p->page);
	if (ret) {
		fb_page_free(p);
		return ret;
	}
	commit = p->page->commit;
	p->len = commit & ~RB_COMMIT_FLAGS;
	/* take_page leaves room for the count whenever it sets one */
	if (commit & RB_MISSED_STORED)
		p->lost = get_unaligned((u64 *)(p->page->data + p->len));
	p->seq = fc->next_seq++;
	list_add_tail(&p->node, &fc->pages);
	fc->nr_pages++;
	return 0;
}

/* Give back the pages before the consumers' place. CPU lock held. */
static void fb_trim(struct fb_cpu *fc)
{
	struct fb_page *p;

	while ((p = fb_first(fc)) && p->seq < fc->pos.seq) {
		list_del(&p->node);
		fc->nr_pages--;
		fb_page_free(p);
	}
}

/* The consumers have read every kept page: they all go. */
static void fb_consumed_all(struct fb_cpu *fc)
{
	fc->pos.seq = fc->next_seq;
	fb_trim(fc);
	fb_pos_front(fc, &fc->pos);
}

/* Drop every kept page of @cpu: the buffer was reset or goes away. */
void fb_read_drop(struct hyptrace_source *src, unsigned int cpu)
{
	struct fb_cpu *fc = fb_cpu_of(src, cpu);

	mutex_lock(fc->lock);
	fb_consumed_all(fc);
	mutex_unlock(fc->lock);
}

/*
 * Make @pos name a kept page: 0, or -EAGAIN when it is past the last one.
 * A place whose page was given back moves to the consumers' place.
 */
static int fb_pos_resolve(struct fb_cpu *fc, struct fb_pos *pos)
{
	struct fb_page *first = fb_first(fc), *p;

	if (!first || pos->seq < first->seq)
		*pos = fc->pos;
	if (pos->seq < fc->pos.seq ||
	    (pos->seq == fc->pos.seq && pos->off < fc->pos.off))
		*pos = fc->pos;
	if (pos->page)
		return 0;
	list_for_each_entry(p, &fc->pages, node) {
		if (p->seq == pos->seq) {
			pos->page = p;
			if (!pos->off)
				pos->ts = READ_ONCE(p->page->time_stamp);
			return 0;
		}
	}
	return -EAGAIN;
}

/*
 * The data record at or after @pos on its page, @pos moved past the time
 * records before it: true, or false at the end of the page. The kept
 * pages are the module's copies, cut at any damage when they were taken
 * (raw.c); if one still holds some, it is reported and cut here, once.
 */
static bool fb_event_at(struct hyptrace_source *src, unsigned int cpu,
			struct fb_pos *pos, struct rb_rec *rec)
{
	struct fb_page *p = pos->page;
	struct rb_walk w;

	hyptrace_walk_start(&w, p->page->data, p->len, pos->ts);
	w.off = pos->off;
	while (rb_rec_next(&w, rec)) {
		if (rec->kind == RB_REC_DATA)
			return true;
		pos->off = w.off;
		pos->ts = w.ts;
	}
	if (w.fault) {
		hyptrace_page_damaged(cpu, fb_text_of(src)->reader,
				      w.fault, w.off, p->len);
		p->len = w.off;
	}
	return false;
}

/*
 * The next event of @cpu from @pos among the kept pages: 0, or -EAGAIN at
 * the end of them.
 */
int fb_next(struct hyptrace_source *src, unsigned int cpu,
	    const struct fb_pos *from, struct fb_event *ev)
{
	struct fb_cpu *fc = fb_cpu_of(src, cpu);
	struct fb_pos pos = *from;
	bool fresh = !pos.off;
	struct rb_rec rec;
	struct fb_page *p;
	int ret;

	for (;;) {
		ret = fb_pos_resolve(fc, &pos);
		if (ret)
			return ret;
		if (fb_event_at(src, cpu, &pos, &rec))
			break;
		p = pos.page;
		pos.seq++;
		pos.off = 0;
		fresh = true;
		pos.page = list_is_last(&p->node, &fc->pages) ? NULL :
			   list_next_entry(p, node);
		if (pos.page)
			pos.ts = READ_ONCE(pos.page->page->time_stamp);
	}
	ev->cpu = cpu;
	ev->at = pos;
	ev->ts = rec.ts;
	ev->fresh = fresh;
	ev->lost = fresh ? pos.page->lost : 0;
	ev->payload = rec.payload;
	ev->len = rec.payload_len;
	ev->next = pos;
	ev->next.off = rec.off + rec.size;
	ev->next.ts = rec.ts;
	return 0;
}

/*
 * The consumers' next event of @cpu, taking pages as needed: 0, -EAGAIN
 * (none yet), -ENODATA (none will come) or -errno. CPU lock held.
 */
int fb_next_consume(struct hyptrace_source *src, unsigned int cpu,
		    struct fb_event *ev)
{
	struct fb_cpu *fc = fb_cpu_of(src, cpu);
	int ret;

	for (;;) {
		ret = fb_next(src, cpu, &fc->pos, ev);
		if (ret != -EAGAIN)
			return ret;
		fb_consumed_all(fc);
		ret = fb_pull(src, cpu);
		if (ret)
			return ret;
	}
}

void fb_consume(struct hyptrace_source *src, unsigned int cpu,
		const struct fb_event *ev)
{
	struct fb_cpu *fc = fb_cpu_of(src, cpu);

	fc->pos = ev->next;
	fb_trim(fc);
}

/*
 * The live buffer's trace_pipe_raw's next page (the front end's raw_page):
 * the rest of the oldest kept page, or a page from the hypervisor when
 * none is kept. CPU lock held.
 */
int fb_raw_page(struct hyptrace *ht, unsigned int cpu,
		struct rb_data_page *dst)
{
	struct hyptrace_source *src = hyptrace_live_source();
	struct fb_cpu *fc = fb_cpu_of(src, cpu);
	struct fb_event ev;
	struct fb_page *p;
	u32 len;

	if (fb_next(src, cpu, &fc->pos, &ev)) {
		fb_consumed_all(fc);
		return hyptrace_raw_fill(ht, cpu, dst);
	}
	p = ev.at.page;
	if (ev.fresh) {
		memcpy(dst, p->page, PAGE_SIZE);
	} else {
		/* The part trace_pipe left, stamped where it starts */
		len = p->len - ev.at.off;
		dst->time_stamp = ev.at.ts;
		dst->commit = len;
		memcpy(dst->data, p->page->data + ev.at.off, len);
		memset(dst->data + len, 0, RB_PAGE_CAPACITY - len);
	}
	fc->pos.seq = p->seq + 1;
	fc->pos.off = 0;
	fc->pos.page = NULL;
	fb_trim(fc);
	return 0;
}

/*
 * Whether every CPU of @src is empty: nothing kept, nothing in the source.
 * A page found there is kept for the next reader. Takes the CPUs' locks.
 */
bool fb_read_empty(struct hyptrace_source *src)
{
	struct fb_event ev;
	unsigned int cpu;
	bool empty = true;

	for (cpu = 0; cpu < src->nr_cpus && empty; cpu++) {
		mutex_lock(fb_cpu_of(src, cpu)->lock);
		empty = fb_next_consume(src, cpu, &ev) != 0;
		mutex_unlock(fb_cpu_of(src, cpu)->lock);
	}
	return empty;
}

/* Up to a buffer's worth of @cpu's pages into the list, for trace to show */
void fb_keep_all(struct hyptrace_source *src, unsigned int cpu)
{
	struct fb_cpu *fc = fb_cpu_of(src, cpu);
	u32 cap;

	mutex_lock(fc->lock);
	cap = src->ops->capacity(src, cpu);
	while (fc->nr_pages < cap && !fb_pull(src, cpu))
		;
	mutex_unlock(fc->lock);
}
