// SPDX-License-Identifier: GPL-2.0
/*
 * per_cpu/cpuN/trace_pipe_raw and per_cpu/cpuN/stats of any source
 * (source.h), written once: the live buffer's and the last boot's, in
 * either front end. And the per_cpu/cpuN directories' files, made here
 * for every source and front end (hyptrace_cpu_files()).
 *
 * A read() or splice() returns one page in the kernel's format, as the
 * kernel's own trace_pipe_raw gives a tracing instance's. When the source
 * has none yet, reads block until it has, unless O_NONBLOCK; poll() says
 * when. When it never will (the last boot's, read to the end), a read
 * returns end of file (EAGAIN with O_NONBLOCK).
 *
 * Each page is copied by the source into the file's page, and from there
 * to the caller; a splice moves it into the pipe without passing through
 * user space.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dcache.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "compat.h"
#include "frontend.h"
#include "source.h"
#include "hyptrace.h"

/* How often a waiting reader looks for a new page: the hypervisor never calls */
static unsigned int raw_poll_ms = 10;
module_param(raw_poll_ms, uint, 0644);
MODULE_PARM_DESC(raw_poll_ms,
		 "milliseconds between looks for new pages while a trace_pipe_raw reader waits (default 10)");

/* An open trace_pipe_raw: its place in the source, and the page handed out */
struct raw_file {
	struct hyptrace_source *src;
	unsigned int cpu;
	struct mutex lock;		/* serialises reads of this file */
	u32 cursor;			/* the source's, from 0 at the open */
	struct rb_data_page *page;
	size_t len;			/* bytes of @page to hand out */
	size_t pos;			/* bytes handed out */
};

static DECLARE_WAIT_QUEUE_HEAD(raw_wait);
static DEFINE_MUTEX(raw_tick_lock);
static unsigned int raw_files;		/* open, under raw_tick_lock */

static void raw_tick(struct work_struct *work);
static DECLARE_DELAYED_WORK(raw_tick_work, raw_tick);

static unsigned long raw_poll_jiffies(void)
{
	return msecs_to_jiffies(max(READ_ONCE(raw_poll_ms), 1U));
}

/* While anyone has a raw file open, wake the waiters to look again. */
static void raw_tick(struct work_struct *work)
{
	wake_up_interruptible_all(&raw_wait);
	schedule_delayed_work(&raw_tick_work, raw_poll_jiffies());
}

/**
 * hyptrace_source_init() - fill in a source's fixed part
 * @src:	the source
 * @ops:	its operations
 * @name:	what its messages start with
 * @nr_cpus:	CPUs it has pages for
 * @read_only:	whether nothing writes it
 *
 * Return: 0, or -ENOMEM.
 */
int hyptrace_source_init(struct hyptrace_source *src,
			 const struct hyptrace_source_ops *ops,
			 const char *name, unsigned int nr_cpus,
			 bool read_only)
{
	unsigned int cpu;

	src->cpu = kcalloc(nr_cpus, sizeof(*src->cpu), GFP_KERNEL);
	if (!src->cpu)
		return -ENOMEM;
	src->ops = ops;
	src->name = name;
	src->nr_cpus = nr_cpus;
	src->read_only = read_only;
	src->all.src = src;
	src->all.cpu = HYPTRACE_ALL_CPUS;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		src->cpu[cpu].src = src;
		src->cpu[cpu].cpu = cpu;
	}
	return 0;
}

/* The next page for @rf from its source: 0, -EAGAIN, -ENODATA or -errno */
static int raw_fill(struct raw_file *rf)
{
	int ret = rf->src->ops->raw_page(rf->src, rf->cpu, &rf->cursor,
					 rf->page);

	if (!ret) {
		rf->len = RB_PAGE_SIZE;
		rf->pos = 0;
	}
	return ret;
}

/*
 * The next page for @rf, waiting for one unless @nonblock. Called and
 * returns with @rf's lock held; drops it while waiting.
 */
static int raw_next_page(struct raw_file *rf, bool nonblock)
{
	int ret;

	for (;;) {
		ret = raw_fill(rf);
		if (ret == -ENODATA)	/* none will come: end of file */
			return nonblock ? -EAGAIN : 0;
		if (ret != -EAGAIN || nonblock)
			return ret;
		mutex_unlock(&rf->lock);
		schedule_timeout_interruptible(raw_poll_jiffies());
		mutex_lock(&rf->lock);
		if (signal_pending(current))
			return -ERESTARTSYS;
	}
}

static ssize_t raw_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct raw_file *rf = iocb->ki_filp->private_data;
	bool nonblock = (iocb->ki_flags & IOCB_NOWAIT) ||
			(iocb->ki_filp->f_flags & O_NONBLOCK);
	size_t n;
	int ret;

	if (!iov_iter_count(to))
		return 0;
	mutex_lock(&rf->lock);
	if (rf->pos >= rf->len) {
		ret = raw_next_page(rf, nonblock);
		/* End of file: nothing in the page */
		if (ret || rf->pos >= rf->len) {
			mutex_unlock(&rf->lock);
			return ret;
		}
	}
	n = copy_to_iter((u8 *)rf->page + rf->pos, rf->len - rf->pos, to);
	rf->pos += n;
	mutex_unlock(&rf->lock);
	return n ? n : -EFAULT;
}

static __poll_t raw_poll(struct file *file, poll_table *pt)
{
	struct raw_file *rf = file->private_data;
	__poll_t mask = 0;
	int ret;

	poll_wait(file, &raw_wait, pt);
	if (!mutex_trylock(&rf->lock))
		return 0;	/* a read is under way: it will say */
	if (rf->pos < rf->len) {
		mask = EPOLLIN | EPOLLRDNORM;
	} else {
		/* A page found now is this file's, handed out by the next read */
		ret = raw_fill(rf);
		if (!ret || ret == -ENODATA)	/* a page, or end of file */
			mask = EPOLLIN | EPOLLRDNORM;
		else if (ret != -EAGAIN)
			mask = EPOLLERR;
	}
	mutex_unlock(&rf->lock);
	return mask;
}

static int raw_open(struct inode *inode, struct file *file)
{
	const struct hyptrace_src_cpu *sc = inode->i_private;
	struct raw_file *rf;
	int ret;

	rf = kzalloc_obj(*rf);
	if (!rf)
		return -ENOMEM;
	rf->page = (struct rb_data_page *)get_zeroed_page(GFP_KERNEL);
	if (!rf->page) {
		kfree(rf);
		return -ENOMEM;
	}
	rf->src = sc->src;
	rf->cpu = sc->cpu;
	mutex_init(&rf->lock);
	ret = rf->src->ops->open(rf->src, rf->cpu, true);
	if (ret) {
		free_page((unsigned long)rf->page);
		kfree(rf);
		return ret;
	}
	mutex_lock(&raw_tick_lock);
	if (!raw_files++)
		schedule_delayed_work(&raw_tick_work, 0);
	mutex_unlock(&raw_tick_lock);
	file->private_data = rf;
	return nonseekable_open(inode, file);
}

static int raw_release(struct inode *inode, struct file *file)
{
	struct raw_file *rf = file->private_data;

	mutex_lock(&raw_tick_lock);
	if (!--raw_files)
		cancel_delayed_work(&raw_tick_work);
	mutex_unlock(&raw_tick_lock);
	rf->src->ops->release(rf->src, rf->cpu, true);
	free_page((unsigned long)rf->page);
	kfree(rf);
	return 0;
}

const struct file_operations hyptrace_raw_fops = {
	.owner		= THIS_MODULE,
	.open		= raw_open,
	.release	= raw_release,
	.read_iter	= raw_read_iter,
	.splice_read	= hyptrace_splice_read,
	.poll		= raw_poll,
};

/* per_cpu/cpuN/stats: the source's lines */
static int stats_show(struct seq_file *m, void *v)
{
	const struct hyptrace_src_cpu *sc = m->private;

	sc->src->ops->stats(sc->src, sc->cpu, m);
	return 0;
}

static int stats_open(struct inode *inode, struct file *file)
{
	return single_open(file, stats_show, inode->i_private);
}

const struct file_operations hyptrace_stats_fops = {
	.owner		= THIS_MODULE,
	.open		= stats_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/**
 * hyptrace_cpu_files() - every per_cpu/cpuN directory's files of a source
 * @fe:		the front end, which finds or makes each directory (and adds
 *		its own readers there)
 * @root:	where the front end looks for them
 * @src:	the source the files read
 *
 * Return: 0, or the -errno of a file that could not be made.
 */
int hyptrace_cpu_files(const struct hyptrace_frontend_ops *fe,
		       struct dentry *root, struct hyptrace_source *src)
{
	struct dentry *dir;
	unsigned int cpu;
	int ret = 0;

	for (cpu = 0; cpu < src->nr_cpus && !ret; cpu++) {
		dir = fe->cpu_dir(root, &src->cpu[cpu]);
		if (!dir)	/* not a possible CPU */
			continue;
		if (IS_ERR(dir))
			return PTR_ERR(dir);
		ret = fe->create_file("trace_pipe_raw", 0440, dir,
				      &src->cpu[cpu], &hyptrace_raw_fops);
		if (!ret)
			ret = fe->create_file("stats", 0440, dir,
					      &src->cpu[cpu],
					      &hyptrace_stats_fops);
		fe->put_dir(dir);
	}
	return ret;
}
