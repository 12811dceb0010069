// SPDX-License-Identifier: GPL-2.0
/*
 * trace_pipe in the fallback front end, over any source: each read
 * consumes the oldest events of the reader's CPUs (all, or one for
 * per_cpu/cpuN/trace_pipe) and prints them; it waits for events as
 * trace_remote's does, polling, unless O_NONBLOCK; at the end of a
 * read-only source (the last boot) it returns end of file. It shares the
 * consumers' place per CPU with every other consumer (fallback_pages.c),
 * so each event reaches exactly one of them.
 */
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched/signal.h>
#include <linux/trace_seq.h>

#include "fallback.h"
#include "fallback_text.h"
#include "source.h"

/* How often a waiting trace_pipe looks for events: trace_remote's poll_ms */
static unsigned int fallback_poll_ms = 100;
module_param(fallback_poll_ms, uint, 0644);
MODULE_PARM_DESC(fallback_poll_ms,
		 "milliseconds between looks for events while a trace_pipe reader waits, without trace_remote (default 100)");

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
