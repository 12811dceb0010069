// SPDX-License-Identifier: GPL-2.0
/*
 * The readers of the fallback front end: trace, trace_pipe and their
 * per_cpu/cpuN copies, printing each event as trace_remote does, and the
 * pages the raw files of this front end hand out.
 *
 * Pages come from the hypervisor the way the raw files take them (by reader
 * page swap, hyptrace_raw_fill(): whole kernel-format pages with the lost
 * count in their header), and the module keeps them, per CPU, in a list:
 *
 *   - trace_pipe consumes events from the oldest kept page, taking a page
 *     from the hypervisor when none is kept;
 *   - trace_pipe_raw hands out the rest of the oldest page, or else a page
 *     straight from the hypervisor: with trace_pipe it shares one position
 *     per CPU, so each event reaches exactly one consuming reader;
 *   - trace shows without consuming: when it opens, it moves up to a
 *     buffer's worth of pages per CPU into the list, then walks the list
 *     from the consumers' position. A page consumed meanwhile moves the walk
 *     on to what is left, as the kernel's iterator skips what a consumer took.
 *
 * Each page carries a sequence number, and pages leave the list only from
 * the front, below the consumers' place (or all at once, which moves that
 * place past them): so a place not before the consumers' names a page that
 * is still kept, and its pointer is good. A place before it is moved up.
 * Everything per CPU is under the CPU's lock (hyptrace_cpu_lock()), which
 * the raw files take too.
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

static struct fb_cpu *fb_cpus;

int fb_read_init(struct hyptrace *ht)
{
	unsigned int cpu;

	fb_cpus = kcalloc(ht->nr_cpus, sizeof(*fb_cpus), GFP_KERNEL);
	if (!fb_cpus)
		return -ENOMEM;
	for (cpu = 0; cpu < ht->nr_cpus; cpu++)
		INIT_LIST_HEAD(&fb_cpus[cpu].pages);
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

/* Take one more page of @cpu from the hypervisor. CPU lock held. */
static int fb_pull(struct hyptrace *ht, unsigned int cpu)
{
	struct fb_cpu *fc = &fb_cpus[cpu];
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
	ret = hyptrace_raw_fill(ht, cpu, p->page);
	if (ret) {
		fb_page_free(p);
		return ret;
	}
	commit = p->page->commit;
	p->len = commit & ~RB_COMMIT_FLAGS;
	/* hyptrace_raw_fill() leaves room for the count whenever it sets one */
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
void fb_read_drop(unsigned int cpu)
{
	struct fb_cpu *fc = &fb_cpus[cpu];

	mutex_lock(hyptrace_cpu_lock(cpu));
	fb_consumed_all(fc);
	mutex_unlock(hyptrace_cpu_lock(cpu));
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
static bool fb_event_at(unsigned int cpu, struct fb_pos *pos,
			struct rb_rec *rec)
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
		hyptrace_page_damaged(cpu, "trace", w.fault, w.off, p->len);
		p->len = w.off;
	}
	return false;
}

/*
 * The next event of @cpu from @pos among the kept pages: 0, or -EAGAIN at
 * the end of them.
 */
static int fb_next(struct fb_cpu *fc, unsigned int cpu,
		   const struct fb_pos *from, struct fb_event *ev)
{
	struct fb_pos pos = *from;
	bool fresh = !pos.off;
	struct rb_rec rec;
	struct fb_page *p;
	int ret;

	for (;;) {
		ret = fb_pos_resolve(fc, &pos);
		if (ret)
			return ret;
		if (fb_event_at(cpu, &pos, &rec))
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

/* The consumers' next event of @cpu, taking pages as needed. CPU lock held. */
static int fb_next_consume(struct hyptrace *ht, unsigned int cpu,
			   struct fb_event *ev)
{
	struct fb_cpu *fc = &fb_cpus[cpu];
	int ret;

	for (;;) {
		ret = fb_next(fc, cpu, &fc->pos, ev);
		if (ret != -EAGAIN)
			return ret;
		fb_consumed_all(fc);
		ret = fb_pull(ht, cpu);
		if (ret)
			return ret;
	}
}

static void fb_consume(unsigned int cpu, const struct fb_event *ev)
{
	struct fb_cpu *fc = &fb_cpus[cpu];

	fc->pos = ev->next;
	fb_trim(fc);
}

/*
 * trace_pipe_raw's next page: the rest of the oldest kept page, or a page
 * from the hypervisor when none is kept. CPU lock held.
 */
int hyptrace_raw_source(struct hyptrace *ht, unsigned int cpu,
			struct rb_data_page *dst)
{
	struct fb_cpu *fc = &fb_cpus[cpu];
	struct fb_event ev;
	struct fb_page *p;
	u32 len;

	if (fb_next(fc, cpu, &fc->pos, &ev)) {
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
 * Whether every CPU is empty: nothing kept, nothing in the hypervisor. A
 * page found there is kept for the next reader. Takes the CPUs' locks.
 */
bool fb_read_empty(struct hyptrace *ht)
{
	struct fb_event ev;
	unsigned int cpu;
	bool empty = true;

	for (cpu = 0; cpu < ht->nr_cpus && empty; cpu++) {
		mutex_lock(hyptrace_cpu_lock(cpu));
		empty = fb_next_consume(ht, cpu, &ev) != 0;
		mutex_unlock(hyptrace_cpu_lock(cpu));
	}
	return empty;
}

/* One event, as trace_remote prints it (both fallback readers) */
void hyptrace_fb_print_event(struct trace_seq *s, unsigned int cpu, u64 ts,
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
	hyptrace_fb_print_event(s, ev->cpu, ev->ts, ev->payload, ev->len);
}

/* An open trace or trace_pipe: every CPU (cpu < 0) or one */
struct fb_iter {
	int cpu;
	struct trace_seq seq;		/* trace_pipe: text not yet read */
	struct fb_pos *pos;		/* trace: the walk's place per CPU */
	loff_t idx;			/* trace: events the walk is past */
	struct fb_event cur;		/* trace: the event at idx */
	bool have_cur;
};

static int fb_iter_open(struct inode *inode, struct fb_iter **out)
{
	struct hyptrace *ht = fb_ht;
	struct fb_iter *it;
	int ret;

	it = kzalloc_obj(*it);
	if (!it)
		return -ENOMEM;
	it->cpu = fb_file_cpu(inode->i_private);
	mutex_lock(&ht->lock);
	ret = fb_get(ht);
	mutex_unlock(&ht->lock);
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
	struct hyptrace *ht = fb_ht;

	mutex_lock(&ht->lock);
	fb_put(ht);
	mutex_unlock(&ht->lock);
	kfree(it->pos);
	kfree(it);
}

static bool fb_iter_has(const struct fb_iter *it, unsigned int cpu)
{
	return it->cpu < 0 || it->cpu == cpu;
}

/*
 * Print and consume the oldest event of the iterator's CPUs, if it fits in
 * the text: 1 when one was, 0 when there is none or it does not fit.
 */
static int fb_pipe_one(struct hyptrace *ht, struct fb_iter *it)
{
	struct fb_event ev, best;
	unsigned int cpu;
	bool found;
	int len;

again:
	found = false;
	for (cpu = 0; cpu < ht->nr_cpus; cpu++) {
		if (!fb_iter_has(it, cpu))
			continue;
		mutex_lock(hyptrace_cpu_lock(cpu));
		if (!fb_next_consume(ht, cpu, &ev) &&
		    (!found || ev.ts < best.ts)) {
			best = ev;
			found = true;
		}
		mutex_unlock(hyptrace_cpu_lock(cpu));
	}
	if (!found)
		return 0;

	/* A raw reader may have taken it meanwhile: then look again */
	cpu = best.cpu;
	mutex_lock(hyptrace_cpu_lock(cpu));
	if (fb_next_consume(ht, cpu, &ev) || ev.at.seq != best.at.seq ||
	    ev.at.off != best.at.off) {
		mutex_unlock(hyptrace_cpu_lock(cpu));
		goto again;
	}
	len = it->seq.seq.len;
	fb_print(&it->seq, &ev);
	if (trace_seq_has_overflowed(&it->seq)) {
		/* Not consumed: the next read starts with it */
		it->seq.seq.len = len;
		it->seq.full = 0;
		mutex_unlock(hyptrace_cpu_lock(cpu));
		return 0;
	}
	fb_consume(cpu, &ev);
	mutex_unlock(hyptrace_cpu_lock(cpu));
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

/* Blocks until there is an event, unless O_NONBLOCK, as trace_pipe does */
static ssize_t fb_pipe_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	struct fb_iter *it = file->private_data;
	struct hyptrace *ht = fb_ht;
	ssize_t ret;

	for (;;) {
		ret = trace_seq_to_user(&it->seq, ubuf, count);
		if (ret != -EBUSY)
			return ret;
		trace_seq_init(&it->seq);
		while (fb_pipe_one(ht, it) > 0)
			;
		if (trace_seq_used(&it->seq))
			continue;
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
static bool fb_walk_next(struct hyptrace *ht, struct fb_iter *it)
{
	struct fb_event ev;
	unsigned int cpu;

	it->have_cur = false;
	for (cpu = 0; cpu < ht->nr_cpus; cpu++) {
		if (!fb_iter_has(it, cpu))
			continue;
		mutex_lock(hyptrace_cpu_lock(cpu));
		if (!fb_next(&fb_cpus[cpu], cpu, &it->pos[cpu], &ev) &&
		    (!it->have_cur || ev.ts < it->cur.ts)) {
			it->cur = ev;
			it->have_cur = true;
		}
		mutex_unlock(hyptrace_cpu_lock(cpu));
	}
	return it->have_cur;
}

static void fb_walk_rewind(struct hyptrace *ht, struct fb_iter *it)
{
	unsigned int cpu;

	for (cpu = 0; cpu < ht->nr_cpus; cpu++) {
		mutex_lock(hyptrace_cpu_lock(cpu));
		it->pos[cpu] = fb_cpus[cpu].pos;
		it->pos[cpu].page = NULL;
		mutex_unlock(hyptrace_cpu_lock(cpu));
	}
	it->idx = 0;
	fb_walk_next(ht, it);
}

static void fb_walk_step(struct hyptrace *ht, struct fb_iter *it)
{
	it->pos[it->cur.cpu] = it->cur.next;
	it->idx++;
	fb_walk_next(ht, it);
}

static void *fb_trace_start(struct seq_file *m, loff_t *pos)
{
	struct fb_iter *it = m->private;
	struct hyptrace *ht = fb_ht;

	if (!*pos || *pos < it->idx)
		fb_walk_rewind(ht, it);
	while (it->have_cur && it->idx < *pos)
		fb_walk_step(ht, it);
	return it->have_cur ? it : NULL;
}

static void *fb_trace_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct fb_iter *it = m->private;

	++*pos;
	fb_walk_step(fb_ht, it);
	return it->have_cur ? it : NULL;
}

static int fb_trace_show(struct seq_file *m, void *v)
{
	struct fb_iter *it = v;
	unsigned int cpu = it->cur.cpu;
	struct fb_event ev;
	int ret = 0;

	mutex_lock(hyptrace_cpu_lock(cpu));
	/* The page of cur may have been consumed since: print what is there */
	if (!fb_next(&fb_cpus[cpu], cpu, &it->pos[cpu], &ev)) {
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
	mutex_unlock(hyptrace_cpu_lock(cpu));
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
static void fb_keep_all(struct hyptrace *ht, unsigned int cpu)
{
	unsigned int cap = hyptrace_desc_cpu(ht, cpu)->nr_page_va;

	mutex_lock(hyptrace_cpu_lock(cpu));
	while (fb_cpus[cpu].nr_pages < cap && !fb_pull(ht, cpu))
		;
	mutex_unlock(hyptrace_cpu_lock(cpu));
}

static int fb_trace_open(struct inode *inode, struct file *file)
{
	struct hyptrace *ht = fb_ht;
	struct fb_iter *it;
	unsigned int cpu;
	int ret;

	/* Opened to write only: the write resets, nothing to walk */
	if (!(file->f_mode & FMODE_READ))
		return 0;
	ret = fb_iter_open(inode, &it);
	if (ret)
		return ret;
	it->pos = kcalloc(ht->nr_cpus, sizeof(*it->pos), GFP_KERNEL);
	if (!it->pos) {
		fb_iter_close(it);
		return -ENOMEM;
	}
	for (cpu = 0; cpu < ht->nr_cpus; cpu++) {
		if (fb_iter_has(it, cpu))
			fb_keep_all(ht, cpu);
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

const struct file_operations fb_trace_fops = {
	.owner		= THIS_MODULE,
	.open		= fb_trace_open,
	.read		= seq_read,
	.write		= fb_trace_write,
	.llseek		= seq_lseek,
	.release	= fb_trace_release,
};
