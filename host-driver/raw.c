// SPDX-License-Identifier: GPL-2.0
/*
 * per_cpu/cpuN/trace_pipe_raw and per_cpu/cpuN/stats under
 * remotes/hypervisor/: the hypervisor's pages as the kernel's own
 * trace_pipe_raw gives a tracing instance's, for trace-cmd-like recorders.
 *
 * A read() or splice() returns one page in the kernel's format: the page
 * header (time stamp of the first event, commit), the events, and, when
 * events were lost before them, RB_MISSED_EVENTS in the commit and the count
 * stored after the data (RB_MISSED_STORED), as ring_buffer_read_page() does.
 * Reads block until a page is there, unless O_NONBLOCK; poll() says when.
 *
 * One consumer per CPU
 * --------------------
 * A swap hands the hypervisor's oldest page to whoever asked, and
 * trace_remote's reader keeps a mirror of the ring that stays right only if
 * it sees every swap. So, for the life of one loaded buffer, each CPU has
 * one kind of consumer: the first to claim it. Opening a CPU's
 * trace_pipe_raw claims it for the raw files (and fails with EBUSY if
 * trace_pipe has already taken a page of it); trace_remote's first swap
 * claims it for trace_pipe (which then gets no page of a raw CPU). Every
 * event therefore reaches exactly one consuming reader. The claim ends when
 * the buffer is unloaded: a recorder resets the buffer when it is done.
 *
 * trace_remote decides whether a CPU has data from the meta page's counters
 * and would spin on a CPU whose pages it may not have. So claiming a CPU for
 * the raw files asks the hypervisor to publish that CPU's counters in its
 * meta extension instead (TRACE_HIDE_COUNTERS): the meta page trace_remote
 * reads then says "nothing to read", at no cost to any event.
 *
 * Without trace_remote (the fallback front end) there is no mirror to keep
 * right: the raw files take their pages through fallback_read.c, which
 * shares one place per CPU between them and trace_pipe, and nobody claims.
 *
 * The page the hypervisor hands over may still be the one it writes to (a
 * swap of a partly written page, ring_buffer.c): events appended after a
 * read are given out by the next read as a page of their own, stamped with
 * the time of the last event already given out, as the kernel does for a
 * partly read reader page.
 *
 * Each page is copied once out of the carve-out (the hypervisor reuses it at
 * the next swap) into the file's page, and from there to the caller; a
 * splice moves it into the pipe without passing through user space.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

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
#include "hyptrace.h"

/* How often a waiting reader looks for a new page: the hypervisor never calls */
static unsigned int raw_poll_ms = 10;
module_param(raw_poll_ms, uint, 0644);
MODULE_PARM_DESC(raw_poll_ms,
		 "milliseconds between looks for new pages while a trace_pipe_raw reader waits (default 10)");

enum raw_owner {
	OWNER_NONE,
	OWNER_TRACEFS,		/* trace_remote's reader, behind trace_pipe */
	OWNER_RAW,		/* the trace_pipe_raw files */
};

/* One CPU's consumption by the raw files, for the current buffer. */
struct raw_cpu {
	atomic_t owner;			/* enum raw_owner */
	struct rb_meta *meta;		/* the hypervisor's meta page */
	struct mutex lock;		/* serialises raw reads of this CPU */
	u32 read;			/* reader-page data bytes given out */
	u64 read_ts;			/* time stamp of the last of them */
	u64 lost;			/* to report with the next page */
	bool damaged;			/* the reader page was reported so */
	/* What the raw files gave out since the buffer was loaded */
	u64 events;
	u64 pages;
	u64 bytes;
	u64 lost_total;
};

/* An open trace_pipe_raw: the page being handed out. */
struct raw_file {
	struct hyptrace *ht;
	unsigned int cpu;
	struct rb_data_page *page;
	size_t len;			/* bytes of @page to hand out */
	size_t pos;			/* bytes handed out */
};

static struct hyptrace *raw_ht;
static struct raw_cpu *raw_cpus;
static DECLARE_WAIT_QUEUE_HEAD(raw_wait);

static const char *const owner_names[] = {
	[OWNER_NONE]	= "none",
	[OWNER_TRACEFS]	= "trace_pipe",
	[OWNER_RAW]	= "trace_pipe_raw",
};

static void raw_tick(struct work_struct *work);
static DECLARE_DELAYED_WORK(raw_tick_work, raw_tick);

/* While anyone has a raw file open, wake the waiters to look again. */
static void raw_tick(struct work_struct *work)
{
	wake_up_interruptible_all(&raw_wait);
	schedule_delayed_work(&raw_tick_work,
			      msecs_to_jiffies(max(raw_poll_ms, 1U)));
}

int hyptrace_raw_init(struct hyptrace *ht)
{
	unsigned int cpu;

	raw_cpus = kcalloc(ht->nr_cpus, sizeof(*raw_cpus), GFP_KERNEL);
	if (!raw_cpus)
		return -ENOMEM;
	for (cpu = 0; cpu < ht->nr_cpus; cpu++)
		mutex_init(&raw_cpus[cpu].lock);
	raw_ht = ht;
	return 0;
}

/* Serialises the consumption of @cpu's pages, by any reader */
struct mutex *hyptrace_cpu_lock(unsigned int cpu)
{
	return &raw_cpus[cpu].lock;
}

static void raw_cpu_rewind(struct raw_cpu *rc)
{
	rc->read = 0;
	rc->read_ts = 0;
	rc->lost = 0;
	rc->damaged = false;
	rc->events = 0;
	rc->pages = 0;
	rc->bytes = 0;
	rc->lost_total = 0;
}

/* A new buffer: nobody owns any CPU yet. No raw file is open (load checks). */
void hyptrace_raw_loaded(struct hyptrace *ht)
{
	unsigned int cpu;

	for (cpu = 0; cpu < ht->nr_cpus; cpu++) {
		struct rb_desc_cpu *e = hyptrace_desc_cpu(ht, cpu);

		atomic_set(&raw_cpus[cpu].owner, OWNER_NONE);
		raw_cpus[cpu].meta = hyptrace_meta(e);
		raw_cpu_rewind(&raw_cpus[cpu]);
	}
}

/*
 * trace_remote emptied @cpu (under its reader lock, interrupts off): the
 * reader page is empty now, whoever owns the CPU. A raw read in progress
 * holds the mutex; it then finds an empty page and a new position is taken
 * at the next swap, which is what a reset means.
 */
void hyptrace_raw_reset(unsigned int cpu)
{
	struct raw_cpu *rc = &raw_cpus[cpu];

	WRITE_ONCE(rc->read, 0);
	WRITE_ONCE(rc->lost, 0);
	WRITE_ONCE(rc->damaged, false);
}

/* trace_remote wants a page of @cpu: may it have one? (atomic context) */
bool hyptrace_raw_claim_tracefs(unsigned int cpu)
{
	int old = atomic_cmpxchg(&raw_cpus[cpu].owner, OWNER_NONE,
				 OWNER_TRACEFS);

	return old != OWNER_RAW;
}

/*
 * Claim @cpu for the raw files (trace_remote's front end, @ht->lock held):
 * -EBUSY if trace_pipe already took a page of it.
 */
int hyptrace_raw_claim_raw(struct hyptrace *ht, unsigned int cpu)
{
	int old, ret;

	old = atomic_cmpxchg(&raw_cpus[cpu].owner, OWNER_NONE, OWNER_RAW);
	if (old == OWNER_TRACEFS) {
		pr_info_ratelimited("trace_pipe_raw of CPU %u: trace_pipe is consuming this CPU's pages; reset the buffer (write to trace) to read it raw\n",
				    cpu);
		return -EBUSY;
	}
	if (old == OWNER_RAW)
		return 0;
	/* From now on trace_remote sees nothing to read on this CPU */
	ret = hyptrace_call(HYPTRACE_CALL_TRACE_HIDE_COUNTERS, cpu, 1, 0, 0,
			    NULL, 0);
	if (ret)
		atomic_set(&raw_cpus[cpu].owner, OWNER_NONE);
	return ret;
}

/*
 * Walk the records of @w, a walk over the file's copy of the page, but no
 * record that would end past @limit: returns where the walk stopped, with
 * *@ts the time of the last record walked and *@events the data events
 * among them. At damage the walk stops there too, @w->fault says so, and
 * the page is handed out up to it.
 */
static u32 raw_walk(struct rb_walk *w, u32 limit, u64 *ts, u64 *events)
{
	struct rb_rec rec;
	u32 end = 0;

	while (rb_rec_next(w, &rec)) {
		if (rec.off + rec.size > limit)
			return end;
		end = w->off;
		*ts = rec.ts;
		*events += rec.kind == RB_REC_DATA;
	}
	/* A null padding ends the page: all of it was walked */
	return w->fault ? end : w->off;
}

/*
 * Put the events of @cpu's reader page from @rc->read to @commit into @dst,
 * in the kernel's format. When events were lost before them, their count
 * goes after the data; if the events fill the page, the last ones wait for
 * the next read so that the count always fits (the kernel would set the
 * flag alone and leave the count unknown). @raw_commit is the page's, read
 * once; @commit, the same clamped to the page.
 */
static void raw_take(struct rb_data_page *dst, unsigned int cpu,
		     struct raw_cpu *rc, const struct rb_data_page *src,
		     u32 commit, u64 raw_commit)
{
	bool bad_commit = raw_commit > RB_PAGE_CAPACITY;
	u32 len = commit - rc->read, limit = len, end, skip = 0;
	u64 flags = 0, ts, events = 0;
	struct rb_walk w;

	if (rc->lost && len > RB_PAGE_CAPACITY - sizeof(u64))
		limit = RB_PAGE_CAPACITY - sizeof(u64);
	ts = rc->read ? rc->read_ts : READ_ONCE(src->time_stamp);
	dst->time_stamp = ts;
	/* The walk is of the copy: what is handed out is what was checked */
	memcpy(dst->data, src->data + rc->read, len);
	hyptrace_walk_start(&w, dst->data, len, ts);
	len = raw_walk(&w, limit, &ts, &events);
	end = len;
	if (w.fault || bad_commit) {
		hyptrace_page_damaged(cpu, "trace_pipe_raw",
				      bad_commit ? RB_PAGE_BAD_COMMIT : w.fault,
				      rc->read + len, raw_commit);
		/* The damaged rest of the page is never handed out */
		skip = commit - rc->read - len;
		rc->damaged = true;
	}
	if (rc->lost) {
		flags |= RB_MISSED_EVENTS;
		if (RB_PAGE_CAPACITY - end >= sizeof(u64)) {
			put_unaligned(rc->lost, (u64 *)(dst->data + end));
			flags |= RB_MISSED_STORED;
			end += sizeof(u64);
		}
		rc->lost_total += rc->lost;
		rc->lost = 0;
	}
	memset(dst->data + end, 0, RB_PAGE_CAPACITY - end);
	dst->commit = len | flags;

	rc->read += len + skip;
	rc->read_ts = ts;
	rc->events += events;
	rc->pages++;
	rc->bytes += len;
}

/*
 * Fill @dst with the next events of @cpu from the hypervisor: 0, -EAGAIN
 * when there are none yet, or another -errno. Called with the CPU's lock
 * held.
 */
int hyptrace_raw_fill(struct hyptrace *ht, unsigned int cpu,
		      struct rb_data_page *dst)
{
	struct raw_cpu *rc = &raw_cpus[cpu];
	struct rb_desc_cpu *e = hyptrace_desc_cpu(ht, cpu);
	struct rb_meta *meta = rc->meta;
	bool swapped = false, unread = false;
	int ret;

	for (;;) {
		/* Pairs with the release store of reader.id at a swap */
		u32 id = smp_load_acquire(&meta->reader.id);
		const struct rb_data_page *src;
		u64 raw_commit;
		u32 commit;

		if (id >= e->nr_page_va) {
			pr_err_ratelimited("CPU %u: reader page %u, the buffer has %u\n",
					   cpu, id, e->nr_page_va);
			return -EIO;
		}
		src = (const struct rb_data_page *)(unsigned long)e->page_va[id];
		/*
		 * The writer publishes commit after the bytes below it. Read
		 * once, and clamped: a commit beyond the page is damage, and
		 * what the page holds is handed out up to the first bad record
		 */
		raw_commit = smp_load_acquire(&src->commit) & ~RB_COMMIT_FLAGS;
		commit = min_t(u64, raw_commit, RB_PAGE_CAPACITY);
		if (commit > rc->read) {
			raw_take(dst, cpu, rc, src, commit, raw_commit);
			return 0;
		}
		if (swapped)
			return -EAGAIN;
		/*
		 * The hypervisor said the page holds more, and its commit
		 * still does not: the commit was scribbled on. What lies
		 * past it is lost to the damage; the page goes back.
		 */
		if (unread && !rc->damaged) {
			hyptrace_page_damaged(cpu, "trace_pipe_raw",
					      RB_PAGE_SHORT_COMMIT, rc->read,
					      raw_commit);
			rc->damaged = true;
		}

		/*
		 * The writer may have filled this page and moved on since its
		 * commit was read: say how far we read, and the hypervisor
		 * keeps the page here while it holds more (UNREAD).
		 */
		ret = hyptrace_call(HYPTRACE_CALL_TRACE_SWAP_READER, cpu,
				    unread ? 0 : HYPTRACE_SWAP_READ, rc->read,
				    0, NULL,
				    HYPTRACE_QUIET(HYPTRACE_RET_AGAIN) |
				    HYPTRACE_QUIET(HYPTRACE_RET_UNREAD));
		if (ret == -ENOTEMPTY && !unread) {
			unread = true;
			continue;
		}
		if (ret)
			return ret;
		/* The swap ran on this CPU: its meta-page stores are visible */
		rc->read = 0;
		rc->damaged = false;
		rc->lost += READ_ONCE(meta->reader.lost_events);
		swapped = true;
	}
}

/* The next page for @rf from the front end, if there is one */
static int raw_fill(struct raw_file *rf)
{
	int ret = hyptrace_raw_source(rf->ht, rf->cpu, rf->page);

	if (!ret) {
		rf->len = RB_PAGE_SIZE;
		rf->pos = 0;
	}
	return ret;
}

/*
 * The next page for @rf, waiting for one unless @nonblock. Called and
 * returns with the CPU's raw lock held; drops it while waiting.
 */
static int raw_next_page(struct raw_file *rf, bool nonblock)
{
	struct raw_cpu *rc = &raw_cpus[rf->cpu];
	int ret;

	for (;;) {
		ret = raw_fill(rf);
		if (ret != -EAGAIN || nonblock)
			return ret;
		mutex_unlock(&rc->lock);
		schedule_timeout_interruptible(msecs_to_jiffies(max(raw_poll_ms,
								    1U)));
		mutex_lock(&rc->lock);
		if (signal_pending(current))
			return -ERESTARTSYS;
	}
}

static ssize_t raw_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct raw_file *rf = iocb->ki_filp->private_data;
	struct raw_cpu *rc = &raw_cpus[rf->cpu];
	bool nonblock = (iocb->ki_flags & IOCB_NOWAIT) ||
			(iocb->ki_filp->f_flags & O_NONBLOCK);
	size_t n;
	int ret;

	if (!iov_iter_count(to))
		return 0;
	mutex_lock(&rc->lock);
	if (rf->pos >= rf->len) {
		ret = raw_next_page(rf, nonblock);
		if (ret) {
			mutex_unlock(&rc->lock);
			return ret;
		}
	}
	n = copy_to_iter((u8 *)rf->page + rf->pos, rf->len - rf->pos, to);
	rf->pos += n;
	mutex_unlock(&rc->lock);
	return n ? n : -EFAULT;
}

static __poll_t raw_poll(struct file *file, poll_table *pt)
{
	struct raw_file *rf = file->private_data;
	struct raw_cpu *rc = &raw_cpus[rf->cpu];
	__poll_t mask = 0;
	int ret;

	poll_wait(file, &raw_wait, pt);
	if (!mutex_trylock(&rc->lock))
		return 0;	/* a read is under way: it will say */
	if (rf->pos < rf->len) {
		mask = EPOLLIN | EPOLLRDNORM;
	} else {
		/* A page found now is this file's, handed out by the next read */
		ret = raw_fill(rf);
		if (!ret)
			mask = EPOLLIN | EPOLLRDNORM;
		else if (ret != -EAGAIN)
			mask = EPOLLERR;
	}
	mutex_unlock(&rc->lock);
	return mask;
}

static int raw_open(struct inode *inode, struct file *file)
{
	struct hyptrace *ht = raw_ht;
	unsigned int cpu = (unsigned long)inode->i_private;
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
	rf->ht = ht;
	rf->cpu = cpu;

	mutex_lock(&ht->lock);
	ret = hyptrace_raw_attach(ht, cpu);
	if (!ret && !ht->raw_open++)
		schedule_delayed_work(&raw_tick_work, 0);
	mutex_unlock(&ht->lock);
	if (ret) {
		free_page((unsigned long)rf->page);
		kfree(rf);
		return ret;
	}
	file->private_data = rf;
	return nonseekable_open(inode, file);
}

static int raw_release(struct inode *inode, struct file *file)
{
	struct raw_file *rf = file->private_data;
	struct hyptrace *ht = rf->ht;

	mutex_lock(&ht->lock);
	if (!--ht->raw_open)
		cancel_delayed_work(&raw_tick_work);
	hyptrace_raw_detach(ht);
	mutex_unlock(&ht->lock);
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

/*
 * per_cpu/cpuN/stats, in the lines of the kernel's own per-CPU stats file
 * that mean something here. Counts are the hypervisor's, from the meta page
 * it keeps up to date and the counters it keeps beside it.
 */
static int stats_show(struct seq_file *m, void *v)
{
	struct hyptrace *ht = raw_ht;
	unsigned int cpu = (unsigned long)m->private;
	struct raw_cpu *rc = &raw_cpus[cpu];
	const struct rb_counters *counters;
	const struct rb_meta_ext *ext;
	const struct rb_meta *meta;
	u64 dropped = 0;

	/* Pages any reader of this CPU found damaged (page.c), any buffer */
	seq_printf(m, "damaged pages: %llu\n", hyptrace_page_damage(cpu));
	mutex_lock(&ht->lock);
	if (!ht->desc) {
		mutex_unlock(&ht->lock);
		seq_puts(m, "buffer: unloaded\n");
		return 0;
	}
	meta = rc->meta;
	ext = (const void *)meta + RB_META_EXT_OFFSET;
	/* Where the hypervisor publishes them for a raw CPU, or as usual */
	counters = (const struct rb_counters *)&meta->entries;
	if (READ_ONCE(ext->magic) == RB_META_EXT_MAGIC) {
		dropped = READ_ONCE(ext->dropped);
		if (READ_ONCE(ext->hidden))
			counters = &ext->counters;
	}

	/*
	 * Not "entries": in the kernel's stats that means "still unread",
	 * and trace-cmd says so next to it. These are the writer's totals.
	 */
	seq_printf(m, "written events: %llu\n", READ_ONCE(counters->entries));
	seq_printf(m, "overrun: %llu\n", READ_ONCE(counters->overrun));
	seq_printf(m, "dropped events: %llu\n", dropped);
	seq_printf(m, "pages touched: %llu\n",
		   READ_ONCE(counters->pages_touched));
	seq_printf(m, "pages lost: %llu\n", READ_ONCE(counters->pages_lost));
	/* Without trace_remote, trace_pipe and the raw files share a place */
	seq_printf(m, "consumer: %s\n",
		   IS_ENABLED(CONFIG_TRACE_REMOTE) ?
		   owner_names[atomic_read(&rc->owner)] : "shared");
	seq_printf(m, "raw read events: %llu\n", rc->events);
	seq_printf(m, "raw read pages: %llu\n", rc->pages);
	seq_printf(m, "raw read bytes: %llu\n", rc->bytes);
	seq_printf(m, "raw lost events: %llu\n", rc->lost_total);
	mutex_unlock(&ht->lock);
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
