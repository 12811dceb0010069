// SPDX-License-Identifier: GPL-2.0
/*
 * The text readers of the fallback front end, over any source (source.h):
 * trace, trace_pipe and their per_cpu/cpuN copies, printing each event as
 * trace_remote does, the live buffer's and the last boot's alike; and the
 * pages the live buffer's raw files hand out in this front end.
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
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/list.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/trace_seq.h>

#include "compat.h"
#include "hyptrace.h"
#include "hyp_events.h"
#include "fallback.h"
#include "source.h"

/* How often a waiting trace_pipe looks for events: trace_remote's poll_ms */
static unsigned int fallback_poll_ms = 100;
module_param(fallback_poll_ms, uint, 0644);
MODULE_PARM_DESC(fallback_poll_ms,
		 "milliseconds between looks for events while a trace_pipe reader waits, without trace_remote (default 100)");

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

static struct fb_text *fb_text_of(struct hyptrace_source *src)
{
	return src->text;
}

static struct fb_cpu *fb_cpu_of(struct hyptrace_source *src,
				unsigned int cpu)
{
	return &fb_text_of(src)->cpu[cpu];
}

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
static int fb_next(struct hyptrace_source *src, unsigned int cpu,
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
static int fb_next_consume(struct hyptrace_source *src, unsigned int cpu,
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

static void fb_consume(struct hyptrace_source *src, unsigned int cpu,
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

/* One event, as trace_remote prints it */
static void fb_print_event(struct trace_seq *s, unsigned int cpu, u64 ts,
			   const u8 *payload, u32 len)
{
	const struct hyptrace_event *def = NULL;
	unsigned long usecs;
	u64 secs = ts;
	u16 id = 0;

	do_div(secs, NSEC_PER_USEC);
	usecs = do_div(secs, USEC_PER_SEC);
	trace_seq_printf(s, "[%03d]\t%5llu.%06lu: ", cpu, secs, usecs);
	if (len >= sizeof(id)) {
		id = get_unaligned((u16 *)payload);
		def = hyptrace_find_event(id);
	}
	/* The printers read a whole payload: a short one is not printed */
	if (def && len >= def->size)
		def->print((void *)payload, s);
	else
		trace_seq_printf(s, "UNKNOWN id=%d\n", id);
}

static void fb_print(struct trace_seq *s, const struct fb_event *ev)
{
	if (ev->lost)
		trace_seq_printf(s, "CPU:%d [LOST %llu EVENTS]\n", ev->cpu,
				 ev->lost);
	fb_print_event(s, ev->cpu, ev->ts, ev->payload, ev->len);
}

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

/* A reader opens: the owner loads the live buffer on first use */
static int fb_iter_open(struct inode *inode, struct fb_iter **out)
{
	const struct hyptrace_src_cpu *sc = inode->i_private;
	const struct fb_text_owner *owner;
	struct fb_iter *it;
	int ret;

	it = kzalloc_obj(*it);
	if (!it)
		return -ENOMEM;
	it->src = sc->src;
	it->cpu = sc->cpu;
	owner = fb_text_of(it->src)->owner;
	ret = owner ? owner->get() : 0;
	if (!ret) {
		ret = it->src->ops->open(it->src, it->cpu, false);
		if (ret && owner)
			owner->put();
	}
	if (ret) {
		kfree(it);
		return ret;
	}
	trace_seq_init(&it->seq);
	*out = it;
	return 0;
}

static void fb_iter_close(struct fb_iter *it)
{
	const struct fb_text_owner *owner = fb_text_of(it->src)->owner;

	it->src->ops->release(it->src, it->cpu, false);
	if (owner)
		owner->put();
	kfree(it->pos);
	kfree(it);
}

static bool fb_iter_has(const struct fb_iter *it, unsigned int cpu)
{
	return it->cpu < 0 || it->cpu == cpu;
}

/*
 * Print and consume the oldest event of the iterator's CPUs, if it fits in
 * the text: 1 when one was, 0 when it does not fit or there is none yet,
 * -ENODATA when there is none and none will come.
 */
static int fb_pipe_one(struct fb_iter *it)
{
	struct hyptrace_source *src = it->src;
	struct fb_event ev, best;
	bool found, more;
	struct mutex *lock;
	unsigned int cpu;
	int len, ret;

again:
	found = false;
	more = false;
	for (cpu = 0; cpu < src->nr_cpus; cpu++) {
		if (!fb_iter_has(it, cpu))
			continue;
		lock = fb_cpu_of(src, cpu)->lock;
		mutex_lock(lock);
		ret = fb_next_consume(src, cpu, &ev);
		more |= ret != -ENODATA;
		if (!ret && (!found || ev.ts < best.ts)) {
			best = ev;
			found = true;
		}
		mutex_unlock(lock);
	}
	if (!found)
		return more ? 0 : -ENODATA;

	/* A raw reader may have taken it meanwhile: then look again */
	cpu = best.cpu;
	lock = fb_cpu_of(src, cpu)->lock;
	mutex_lock(lock);
	if (fb_next_consume(src, cpu, &ev) || ev.at.seq != best.at.seq ||
	    ev.at.off != best.at.off) {
		mutex_unlock(lock);
		goto again;
	}
	len = it->seq.seq.len;
	fb_print(&it->seq, &ev);
	if (trace_seq_has_overflowed(&it->seq)) {
		/* Not consumed: the next read starts with it */
		it->seq.seq.len = len;
		it->seq.full = 0;
		mutex_unlock(lock);
		return 0;
	}
	fb_consume(src, cpu, &ev);
	mutex_unlock(lock);
	return 1;
}

static int fb_pipe_open(struct inode *inode, struct file *file)
{
	struct fb_iter *it;
	int ret;

	ret = fb_iter_open(inode, &it);
	if (ret)
		return ret;
	file->private_data = it;
	return nonseekable_open(inode, file);
}

static int fb_pipe_release(struct inode *inode, struct file *file)
{
	fb_iter_close(file->private_data);
	return 0;
}

/*
 * Blocks until there is an event, unless O_NONBLOCK, as trace_pipe does;
 * at the end of a source that nothing writes, end of file.
 */
static ssize_t fb_pipe_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	struct fb_iter *it = file->private_data;
	ssize_t ret;
	int one;

	for (;;) {
		ret = trace_seq_to_user(&it->seq, ubuf, count);
		if (ret != -EBUSY)
			return ret;
		trace_seq_init(&it->seq);
		while ((one = fb_pipe_one(it)) > 0)
			;
		if (trace_seq_used(&it->seq))
			continue;
		if (one == -ENODATA)
			return 0;
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		schedule_timeout_interruptible(msecs_to_jiffies(max(fallback_poll_ms,
								    1U)));
		if (signal_pending(current))
			return -EINTR;
	}
}

const struct file_operations fb_trace_pipe_fops = {
	.owner		= THIS_MODULE,
	.open		= fb_pipe_open,
	.read		= fb_pipe_read,
	.release	= fb_pipe_release,
};

/*
 * trace: the next event of the walk, the oldest among its CPUs' places;
 * each CPU's lock is taken in turn, and the event is looked up again under
 * it when printed.
 */
static bool fb_walk_next(struct fb_iter *it)
{
	struct hyptrace_source *src = it->src;
	struct fb_event ev;
	unsigned int cpu;

	it->have_cur = false;
	for (cpu = 0; cpu < src->nr_cpus; cpu++) {
		if (!fb_iter_has(it, cpu))
			continue;
		mutex_lock(fb_cpu_of(src, cpu)->lock);
		if (!fb_next(src, cpu, &it->pos[cpu], &ev) &&
		    (!it->have_cur || ev.ts < it->cur.ts)) {
			it->cur = ev;
			it->have_cur = true;
		}
		mutex_unlock(fb_cpu_of(src, cpu)->lock);
	}
	return it->have_cur;
}

static void fb_walk_rewind(struct fb_iter *it)
{
	struct hyptrace_source *src = it->src;
	unsigned int cpu;

	for (cpu = 0; cpu < src->nr_cpus; cpu++) {
		struct fb_cpu *fc = fb_cpu_of(src, cpu);

		mutex_lock(fc->lock);
		it->pos[cpu] = fc->pos;
		it->pos[cpu].page = NULL;
		mutex_unlock(fc->lock);
	}
	it->idx = 0;
	fb_walk_next(it);
}

static void fb_walk_step(struct fb_iter *it)
{
	it->pos[it->cur.cpu] = it->cur.next;
	it->idx++;
	fb_walk_next(it);
}

static void *fb_trace_start(struct seq_file *m, loff_t *pos)
{
	struct fb_iter *it = m->private;

	if (!*pos || *pos < it->idx)
		fb_walk_rewind(it);
	while (it->have_cur && it->idx < *pos)
		fb_walk_step(it);
	return it->have_cur ? it : NULL;
}

static void *fb_trace_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct fb_iter *it = m->private;

	++*pos;
	fb_walk_step(it);
	return it->have_cur ? it : NULL;
}

static int fb_trace_show(struct seq_file *m, void *v)
{
	struct fb_iter *it = v;
	unsigned int cpu = it->cur.cpu;
	struct mutex *lock = fb_cpu_of(it->src, cpu)->lock;
	struct fb_event ev;
	int ret = 0;

	mutex_lock(lock);
	/* The page of cur may have been consumed since: print what is there */
	if (!fb_next(it->src, cpu, &it->pos[cpu], &ev)) {
		/*
		 * As the kernel's non-consuming iterator, trace says nothing
		 * of events lost before it started: trace_pipe reports them.
		 */
		ev.lost = 0;
		trace_seq_init(&it->seq);
		fb_print(&it->seq, &ev);
		if (trace_seq_has_overflowed(&it->seq))
			seq_printf(m, "[EVENT %d PRINT TOO BIG]\n",
				   get_unaligned((u16 *)ev.payload));
		else
			ret = seq_write(m, it->seq.buffer,
					trace_seq_used(&it->seq));
	}
	mutex_unlock(lock);
	return ret;
}

static void fb_trace_stop(struct seq_file *m, void *v)
{
}

static const struct seq_operations fb_trace_sops = {
	.start	= fb_trace_start,
	.next	= fb_trace_next,
	.show	= fb_trace_show,
	.stop	= fb_trace_stop,
};

/* Up to a buffer's worth of @cpu's pages into the list, for trace to show */
static void fb_keep_all(struct hyptrace_source *src, unsigned int cpu)
{
	struct fb_cpu *fc = fb_cpu_of(src, cpu);
	u32 cap;

	mutex_lock(fc->lock);
	cap = src->ops->capacity(src, cpu);
	while (fc->nr_pages < cap && !fb_pull(src, cpu))
		;
	mutex_unlock(fc->lock);
}

static int fb_trace_open(struct inode *inode, struct file *file)
{
	struct hyptrace_source *src;
	struct fb_iter *it;
	unsigned int cpu;
	int ret;

	/* Opened to write only: the write resets, nothing to walk */
	if (!(file->f_mode & FMODE_READ))
		return 0;
	ret = fb_iter_open(inode, &it);
	if (ret)
		return ret;
	src = it->src;
	it->pos = kcalloc(src->nr_cpus, sizeof(*it->pos), GFP_KERNEL);
	if (!it->pos) {
		fb_iter_close(it);
		return -ENOMEM;
	}
	for (cpu = 0; cpu < src->nr_cpus; cpu++) {
		if (fb_iter_has(it, cpu))
			fb_keep_all(src, cpu);
	}
	ret = seq_open(file, &fb_trace_sops);
	if (ret) {
		fb_iter_close(it);
		return ret;
	}
	((struct seq_file *)file->private_data)->private = it;
	return 0;
}

static int fb_trace_release(struct inode *inode, struct file *file)
{
	struct fb_iter *it;

	if (!(file->f_mode & FMODE_READ))
		return 0;
	it = ((struct seq_file *)file->private_data)->private;
	seq_release(inode, file);
	fb_iter_close(it);
	return 0;
}

/* A write to trace empties it (its owner does); a read-only one stays */
static ssize_t fb_trace_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	const struct hyptrace_src_cpu *sc = file_inode(file)->i_private;
	const struct fb_text_owner *owner = fb_text_of(sc->src)->owner;
	int ret;

	if (!owner)
		return count;
	ret = owner->reset(sc->cpu);
	return ret ? ret : count;
}

const struct file_operations fb_trace_fops = {
	.owner		= THIS_MODULE,
	.open		= fb_trace_open,
	.read		= seq_read,
	.write		= fb_trace_write,
	.llseek		= seq_lseek,
	.release	= fb_trace_release,
};
