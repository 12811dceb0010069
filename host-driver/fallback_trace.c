// SPDX-License-Identifier: GPL-2.0
/*
 * trace in the fallback front end, over any source: shows the kept events
 * of the reader's CPUs (all, or one for per_cpu/cpuN/trace) by time,
 * without consuming them. Opening it keeps up to a buffer's worth of
 * pages per CPU (fallback_pages.c); the walk starts at the consumers'
 * place and, as the kernel's iterator does, skips on past a page consumed
 * meanwhile. A write to it empties the live buffer (through its owner);
 * the last boot's stays as it is.
 */
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/trace_seq.h>

#include "compat.h"
#include "fallback.h"
#include "fallback_text.h"
#include "source.h"

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
