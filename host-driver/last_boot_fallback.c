// SPDX-License-Identifier: GPL-2.0
/*
 * The last boot's buffer without trace_remote: /sys/kernel/debug/hyptrace/
 * last_boot/, the remote's files (last_boot_remote.c), read-only:
 *
 *   tracing_on		reads 0; writing 1 fails with EROFS
 *   trace, per_cpu/cpuN/trace
 *			every kept event, by time, as trace_remote prints
 *			them; a write changes nothing
 *   trace_pipe, per_cpu/cpuN/trace_pipe
 *			the same, consumed: one place per CPU that every
 *			trace_pipe shares, handed on page by page with
 *			TRACE_LAST_BOOT SWAP; at the end, end of file (no
 *			writer will bring more)
 *   events/		header_page, header_event, hypervisor/EVENT/{id,format}
 *   per_cpu/cpuN/trace_pipe_raw, per_cpu/cpuN/stats, release, trace_clock
 *			last_boot.c's
 *
 * The readers walk the pages in place with the shared decoder, up to the
 * commits last_boot.c checked at load, never to what the shared pages say
 * now: no writer runs, but the pages are shared with all of EL1, so a
 * record damaged since is reported and the page cut there.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/trace_seq.h>

#include "compat.h"
#include "hyptrace.h"
#include "fallback.h"
#include "last_boot.h"

/* A place in one CPU's kept pages */
struct lbf_pos {
	u32 page;			/* hypervisor id, below kept */
	u32 off;			/* bytes of its data before the place */
	u64 ts;				/* time at the place */
};

/* The next event from a place */
struct lbf_event {
	unsigned int cpu;
	u64 ts;
	const u8 *payload;
	u32 len;
	struct lbf_pos next;		/* the place after it */
};

static struct hyptrace_last_boot *lbf;
static struct lbf_pos *lbf_consumed;	/* trace_pipe's places, lbf->lock */

static const struct rb_data_page *lbf_page(unsigned int cpu, u32 id)
{
	const struct rb_desc_cpu *e = rb_desc_checked_entry(lbf->desc, cpu);

	return (const struct rb_data_page *)(unsigned long)e->page_va[id];
}

/* The event at or after @pos on @cpu: 0, or -ENODATA at the end */
static int lbf_next(unsigned int cpu, const struct lbf_pos *pos,
		    struct lbf_event *ev)
{
	struct lbf_pos p = *pos;
	const struct rb_data_page *page;
	struct rb_walk w;
	struct rb_rec rec;

	while (p.page < lbf->cpu[cpu].kept) {
		page = lbf_page(cpu, p.page);
		if (!p.off)
			p.ts = READ_ONCE(page->time_stamp);
		/* In place, up to the commit checked at load (last_boot.c) */
		hyptrace_walk_start(&w, page->data,
				    READ_ONCE(lbf->cpu[cpu].commit[p.page]),
				    p.ts);
		w.off = p.off;
		if (!hyptrace_lb_event(lbf, cpu, p.page, &w, &rec,
				       "last boot trace")) {
			p.page++;
			p.off = 0;
			continue;
		}
		p.off = w.off;
		p.ts = rec.ts;
		ev->cpu = cpu;
		ev->ts = p.ts;
		ev->payload = rec.payload;
		ev->len = rec.payload_len;
		ev->next = p;
		return 0;
	}
	return -ENODATA;
}

/* The oldest next event of the CPUs @cpu names (< 0: all) from @pos */
static int lbf_oldest(int cpu, const struct lbf_pos *pos,
		      struct lbf_event *best)
{
	struct lbf_event ev;
	unsigned int c;
	int ret = -ENODATA;

	for (c = 0; c < lbf->nr_cpus; c++) {
		if (cpu >= 0 && c != cpu)
			continue;
		if (lbf_next(c, &pos[c], &ev) || (!ret && ev.ts >= best->ts))
			continue;
		*best = ev;
		ret = 0;
	}
	return ret;
}

static void lbf_print(struct trace_seq *s, const struct lbf_event *ev)
{
	hyptrace_fb_print_event(s, ev->cpu, ev->ts, ev->payload, ev->len);
}

/* The files that read pages: none while they are given back */
static int lbf_get(void)
{
	int ret = 0;

	mutex_lock(&lbf->lock);
	if (lbf->released)
		ret = -ENODEV;
	else
		lbf->raw_open++;
	mutex_unlock(&lbf->lock);
	if (ret)
		pr_info_ratelimited("last boot: released, nothing to read\n");
	return ret;
}

static void lbf_put(void)
{
	mutex_lock(&lbf->lock);
	lbf->raw_open--;
	mutex_unlock(&lbf->lock);
}

/* trace: every kept event, printed at open (the pages do not change) */
static int lbf_trace_show(struct seq_file *m, void *v)
{
	int cpu = fb_file_cpu(m->private);
	struct lbf_event ev;
	struct lbf_pos *pos;
	struct trace_seq *s;

	pos = kcalloc(lbf->nr_cpus, sizeof(*pos), GFP_KERNEL);
	s = kzalloc_obj(*s);
	if (!pos || !s) {
		kfree(pos);
		kfree(s);
		return -ENOMEM;
	}
	while (!lbf_oldest(cpu, pos, &ev)) {
		trace_seq_init(s);
		lbf_print(s, &ev);
		seq_write(m, s->buffer, s->seq.len);
		pos[ev.cpu] = ev.next;
	}
	kfree(pos);
	kfree(s);
	return 0;
}

static int lbf_trace_open(struct inode *inode, struct file *file)
{
	int ret;

	if (!(file->f_mode & FMODE_READ))
		return 0;
	ret = lbf_get();
	if (ret)
		return ret;
	ret = single_open(file, lbf_trace_show, inode->i_private);
	if (ret)
		lbf_put();
	return ret;
}

static int lbf_trace_release(struct inode *inode, struct file *file)
{
	if (!(file->f_mode & FMODE_READ))
		return 0;
	lbf_put();
	return single_release(inode, file);
}

/* Read-only: the events stay */
static ssize_t lbf_trace_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	return count;
}

static const struct file_operations lbf_trace_fops = {
	.owner		= THIS_MODULE,
	.open		= lbf_trace_open,
	.read		= seq_read,
	.write		= lbf_trace_write,
	.llseek		= seq_lseek,
	.release	= lbf_trace_release,
};

/* An open trace_pipe: the text not yet read */
struct lbf_pipe {
	int cpu;
	struct trace_seq seq;
};

static int lbf_pipe_open(struct inode *inode, struct file *file)
{
	struct lbf_pipe *p;
	int ret;

	ret = lbf_get();
	if (ret)
		return ret;
	p = kzalloc_obj(*p);
	if (!p) {
		lbf_put();
		return -ENOMEM;
	}
	p->cpu = fb_file_cpu(inode->i_private);
	trace_seq_init(&p->seq);
	file->private_data = p;
	return nonseekable_open(inode, file);
}

static int lbf_pipe_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	lbf_put();
	return 0;
}

/* Consume the events that fit in @p's text, handing finished pages on */
static void lbf_pipe_fill(struct lbf_pipe *p)
{
	struct lbf_event ev;
	unsigned int len;

	mutex_lock(&lbf->lock);
	while (!lbf_oldest(p->cpu, lbf_consumed, &ev)) {
		len = p->seq.seq.len;
		lbf_print(&p->seq, &ev);
		if (trace_seq_has_overflowed(&p->seq)) {
			p->seq.seq.len = len;
			p->seq.full = 0;
			break;
		}
		/* The hypervisor's reader follows: it only counts here */
		while (lbf_consumed[ev.cpu].page < ev.next.page) {
			hyptrace_call(HYPTRACE_CALL_TRACE_LAST_BOOT,
				      HYPTRACE_LAST_BOOT_SWAP, ev.cpu, 0, 0,
				      NULL, HYPTRACE_QUIET(HYPTRACE_RET_AGAIN));
			lbf_consumed[ev.cpu].page++;
		}
		lbf_consumed[ev.cpu] = ev.next;
	}
	mutex_unlock(&lbf->lock);
}

static ssize_t lbf_pipe_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct lbf_pipe *p = file->private_data;
	int ret;

	ret = trace_seq_to_user(&p->seq, ubuf, count);
	if (ret != -EBUSY)
		return ret;
	trace_seq_init(&p->seq);
	lbf_pipe_fill(p);
	ret = trace_seq_to_user(&p->seq, ubuf, count);
	/* Nothing more will come: end of file */
	return ret == -EBUSY ? 0 : ret;
}

static const struct file_operations lbf_pipe_fops = {
	.owner		= THIS_MODULE,
	.open		= lbf_pipe_open,
	.read		= lbf_pipe_read,
	.release	= lbf_pipe_release,
};

static ssize_t lbf_tracing_on_read(struct file *file, char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	return simple_read_from_buffer(ubuf, count, ppos, "0\n", 2);
}

static ssize_t lbf_tracing_on_write(struct file *file,
				    const char __user *ubuf, size_t count,
				    loff_t *ppos)
{
	unsigned long val;
	int ret;

	ret = kstrtoul_from_user(ubuf, count, 10, &val);
	if (ret)
		return ret;
	if (!val)
		return count;
	pr_info_ratelimited("last boot: read-only, tracing_on stays 0\n");
	return -EROFS;
}

static const struct file_operations lbf_tracing_on_fops = {
	.owner		= THIS_MODULE,
	.read		= lbf_tracing_on_read,
	.write		= lbf_tracing_on_write,
};

int hyptrace_frontend_last_boot(struct hyptrace_last_boot *lb)
{
	struct dentry *top, *root, *per_cpu, *dir;
	unsigned int cpu;
	char name[16];
	int ret;

	lbf = lb;
	lbf_consumed = kcalloc(lb->nr_cpus, sizeof(*lbf_consumed),
			       GFP_KERNEL);
	top = debugfs_lookup(FB_DIR, NULL);
	if (!lbf_consumed || IS_ERR_OR_NULL(top)) {
		ret = lbf_consumed ? -ENOENT : -ENOMEM;
		pr_err("last boot: not shown: %s\n", lbf_consumed ?
		       "no " FB_DIR " in debugfs" : "no memory");
		if (!IS_ERR_OR_NULL(top))
			dput(top);
		kfree(lbf_consumed);
		lbf_consumed = NULL;
		return ret;
	}
	root = debugfs_create_dir("last_boot", top);
	dput(top);
	if (IS_ERR(root)) {
		pr_err("cannot create %s/last_boot in debugfs (%ld)\n", FB_DIR,
		       PTR_ERR(root));
		return PTR_ERR(root);
	}
	fb_file("tracing_on", 0640, root, NULL, &lbf_tracing_on_fops);
	fb_file("trace", 0640, root, FB_CPU_PRIVATE(FB_ALL_CPUS),
		&lbf_trace_fops);
	fb_file("trace_pipe", 0440, root, FB_CPU_PRIVATE(FB_ALL_CPUS),
		&lbf_pipe_fops);
	fb_file("trace_clock", 0440, root, NULL, &hyptrace_trace_clock_fops);
	fb_file("release", 0640, root, lb, &hyptrace_lb_release_fops);
	per_cpu = debugfs_create_dir("per_cpu", root);
	for (cpu = 0; cpu < lb->nr_cpus; cpu++) {
		if (!cpu_possible(cpu))
			continue;
		snprintf(name, sizeof(name), "cpu%u", cpu);
		dir = debugfs_create_dir(name, per_cpu);
		fb_file("trace", 0640, dir, FB_CPU_PRIVATE(cpu),
			&lbf_trace_fops);
		fb_file("trace_pipe", 0440, dir, FB_CPU_PRIVATE(cpu),
			&lbf_pipe_fops);
		fb_file("trace_pipe_raw", 0440, dir,
			(void *)(unsigned long)cpu, &hyptrace_lb_raw_fops);
		fb_file("stats", 0440, dir, (void *)(unsigned long)cpu,
			&hyptrace_lb_stats_fops);
	}
	ret = IS_ERR(per_cpu) ? PTR_ERR(per_cpu) : fb_events_create_ro(root);
	if (ret) {
		debugfs_remove_recursive(root);
		pr_err("cannot create the files under %s/last_boot in debugfs (%d)\n",
		       FB_DIR, ret);
		return ret;
	}
	pr_info("last boot: /sys/kernel/debug/%s/last_boot\n", FB_DIR);
	return 0;
}
