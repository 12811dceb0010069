// SPDX-License-Identifier: GPL-2.0
/*
 * The front end for kernels without CONFIG_TRACE_REMOTE: every kernel
 * before 7.1, and distribution configs that leave it out (it is selected
 * only by pKVM's EL2 tracing and the kernel's test remote). The module then
 * serves the files trace_remote would make under
 * /sys/kernel/tracing/remotes/hypervisor/ itself, with the same names,
 * contents and behaviour, at /sys/kernel/debug/hyptrace/ (tracefs lets a
 * module add files but not directories, debugfs both):
 *
 *   tracing_on buffer_size_kb trace trace_pipe trace_clock write_event mmio
 *   overwrite per_cpu/cpuN/{trace,trace_pipe,trace_pipe_raw,stats}
 *   events/{enable,header_page,header_event}
 *   events/hypervisor/EVENT/{enable,id,format}
 *
 * As trace_remote does, the buffer is loaded with buffer_size_kb per CPU on
 * first use (tracing_on, or a reader opening), and unloaded once tracing is
 * off, nobody reads and nothing is left to read. That state is kept under
 * @ht->lock. trace_remote's code is not copied: the readers here are the
 * module's own (fallback_read.c), built on the raw files' page taking.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/overflow.h>
#include <linux/seq_file.h>

#include "hyptrace.h"
#include "fallback.h"

/* trace_remote's default buffer size per CPU */
#define FB_DEFAULT_SIZE		(7UL << 10)

static struct fb_state {
	unsigned long size;		/* bytes per CPU at the next load */
	bool tracing_on;
	unsigned int readers;		/* open trace and trace_pipe files */
} fb = {
	.size = FB_DEFAULT_SIZE,
};

struct hyptrace *fb_ht;

int fb_file_cpu(const void *i_private)
{
	return (int)(unsigned long)i_private - 1;
}

static int fb_load(struct hyptrace *ht)
{
	struct rb_trace_desc *desc;

	lockdep_assert_held(&ht->lock);
	if (ht->desc)
		return 0;
	desc = hyptrace_buffer_load_locked(ht, fb.size);
	return PTR_ERR_OR_ZERO(desc);
}

/* Nothing writes, nobody reads and nothing is left: the pages go back. */
static void fb_try_unload(struct hyptrace *ht)
{
	lockdep_assert_held(&ht->lock);
	if (!ht->desc || fb.tracing_on || fb.readers || ht->raw_open)
		return;
	if (!fb_read_empty(ht))
		return;
	hyptrace_buffer_unload(ht);
}

/* A reader opens: load on first use. */
int fb_get(struct hyptrace *ht)
{
	int ret;

	lockdep_assert_held(&ht->lock);
	if (fb.readers == UINT_MAX)
		return -EBUSY;
	ret = fb_load(ht);
	if (!ret)
		fb.readers++;
	return ret;
}

void fb_put(struct hyptrace *ht)
{
	lockdep_assert_held(&ht->lock);
	if (WARN_ON(!fb.readers))
		return;
	fb.readers--;
	fb_try_unload(ht);
}

int hyptrace_raw_attach(struct hyptrace *ht, unsigned int cpu)
{
	return fb_load(ht);
}

void hyptrace_raw_detach(struct hyptrace *ht)
{
	fb_try_unload(ht);
}

/* Empty @cpu (or every CPU), in the hypervisor and in what we keep */
static int fb_reset(struct hyptrace *ht, int cpu)
{
	unsigned int c;
	int ret;

	lockdep_assert_held(&ht->lock);
	if (!ht->desc)
		return 0;
	for (c = 0; c < ht->nr_cpus; c++) {
		if (cpu != FB_ALL_CPUS && c != cpu)
			continue;
		ret = hyptrace_call(HYPTRACE_CALL_TRACE_RESET, c, 0, 0, 0,
				    NULL, 0);
		if (ret)
			return ret;
		hyptrace_raw_reset(c);
		fb_read_drop(c);
	}
	fb_try_unload(ht);
	return 0;
}

static ssize_t tracing_on_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	char buf[3];

	snprintf(buf, sizeof(buf), "%d\n", READ_ONCE(fb.tracing_on));
	return simple_read_from_buffer(ubuf, count, ppos, buf, 2);
}

static ssize_t tracing_on_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct hyptrace *ht = file_inode(file)->i_private;
	unsigned long val;
	int ret;

	ret = kstrtoul_from_user(ubuf, count, 10, &val);
	if (ret)
		return ret;

	mutex_lock(&ht->lock);
	if (!!val == fb.tracing_on)
		goto out;
	if (val) {
		ret = fb_load(ht);
		if (!ret)
			ret = hyptrace_tracing_enable(true);
		if (!ret)
			fb.tracing_on = true;
	} else {
		ret = hyptrace_tracing_enable(false);
		if (!ret)
			fb.tracing_on = false;
	}
	fb_try_unload(ht);
out:
	mutex_unlock(&ht->lock);
	return ret ? ret : count;
}

static const struct file_operations tracing_on_fops = {
	.read	= tracing_on_read,
	.write	= tracing_on_write,
};

static int buffer_size_kb_show(struct seq_file *m, void *v)
{
	struct hyptrace *ht = m->private;

	mutex_lock(&ht->lock);
	seq_printf(m, "%lu (%s)\n", fb.size >> 10,
		   ht->desc ? "loaded" : "unloaded");
	mutex_unlock(&ht->lock);
	return 0;
}

static int buffer_size_kb_open(struct inode *inode, struct file *file)
{
	return single_open(file, buffer_size_kb_show, inode->i_private);
}

/* Per CPU, in KiB; it applies at the next load, as trace_remote's does */
static ssize_t buffer_size_kb_write(struct file *file,
				    const char __user *ubuf, size_t count,
				    loff_t *ppos)
{
	struct hyptrace *ht = file_inode(file)->i_private;
	unsigned long val;
	int ret;

	ret = kstrtoul_from_user(ubuf, count, 10, &val);
	if (ret)
		return ret;
	if (!val || check_shl_overflow(val, 10, &val))
		return -EINVAL;

	mutex_lock(&ht->lock);
	if (ht->desc)
		ret = -EBUSY;
	else
		fb.size = val;
	mutex_unlock(&ht->lock);
	return ret ? ret : count;
}

static const struct file_operations buffer_size_kb_fops = {
	.open		= buffer_size_kb_open,
	.read		= seq_read,
	.write		= buffer_size_kb_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/* A write to trace or per_cpu/cpuN/trace empties it (fallback_read.c). */
ssize_t fb_trace_write(struct file *file, const char __user *ubuf,
		       size_t count, loff_t *ppos)
{
	struct hyptrace *ht = fb_ht;
	int ret;

	mutex_lock(&ht->lock);
	ret = fb_reset(ht, fb_file_cpu(file_inode(file)->i_private));
	mutex_unlock(&ht->lock);
	return ret ? ret : count;
}

static int create_per_cpu(struct hyptrace *ht, struct dentry *root)
{
	struct dentry *per_cpu, *dir;
	unsigned int cpu;
	char name[16];

	per_cpu = debugfs_create_dir("per_cpu", root);
	for (cpu = 0; cpu < ht->nr_cpus; cpu++) {
		if (!cpu_possible(cpu))
			continue;
		snprintf(name, sizeof(name), "cpu%u", cpu);
		dir = debugfs_create_dir(name, per_cpu);
		/* The raw files' i_private is the CPU itself (raw.c) */
		fb_file("trace", 0640, dir, FB_CPU_PRIVATE(cpu),
			&fb_trace_fops);
		fb_file("trace_pipe", 0440, dir, FB_CPU_PRIVATE(cpu),
			&fb_trace_pipe_fops);
		fb_file("trace_pipe_raw", 0440, dir, (void *)(unsigned long)cpu,
			&hyptrace_raw_fops);
		fb_file("stats", 0440, dir, (void *)(unsigned long)cpu,
			&hyptrace_stats_fops);
	}
	return IS_ERR(per_cpu) ? PTR_ERR(per_cpu) : 0;
}

/*
 * The early buffer is loaded now, so that the first read of trace shows
 * it; buffer_size_kb says its size. As any load on first use, it stays
 * until tracing is off, nobody reads and nothing is left (fb_try_unload()).
 */
void hyptrace_frontend_adopt(struct hyptrace *ht)
{
	int ret;

	mutex_lock(&ht->lock);
	fb.size = ht->early_size;
	ret = fb_load(ht);
	mutex_unlock(&ht->lock);
	if (ret)
		pr_err("early buffer: cannot adopt it (%d)\n", ret);
}

int hyptrace_frontend_init(struct hyptrace *ht)
{
	struct dentry *root;
	int ret;

	fb_ht = ht;
	ret = fb_read_init(ht);
	if (ret)
		return ret;

	/*
	 * debugfs calls report their own failures and take an error
	 * pointer as a parent; only the root's is worth a word.
	 */
	root = debugfs_create_dir(FB_DIR, NULL);
	if (IS_ERR(root)) {
		pr_err("cannot create %s in debugfs (%ld): is debugfs disabled (debugfs=off, or lockdown)?\n",
		       FB_DIR, PTR_ERR(root));
		return PTR_ERR(root);
	}
	fb_file("tracing_on", 0640, root, ht, &tracing_on_fops);
	fb_file("buffer_size_kb", 0640, root, ht, &buffer_size_kb_fops);
	fb_file("trace", 0640, root, FB_CPU_PRIVATE(FB_ALL_CPUS),
		&fb_trace_fops);
	fb_file("trace_pipe", 0440, root, FB_CPU_PRIVATE(FB_ALL_CPUS),
		&fb_trace_pipe_fops);
	fb_file("trace_clock", 0440, root, ht, &hyptrace_trace_clock_fops);
	fb_file("write_event", 0200, root, ht, &hyptrace_write_event_fops);
	fb_file("overwrite", 0640, root, ht, &hyptrace_overwrite_fops);
	fb_file("mmio", 0640, root, ht, &hyptrace_mmio_fops);
	if (hyptrace_hyp_log_has(HYPTRACE_HYP_LOG_THIS_BOOT))
		fb_file("hyp_log", 0440, root,
			HYPTRACE_HYP_LOG_PRIVATE(HYPTRACE_HYP_LOG_THIS_BOOT),
			&hyptrace_hyp_log_fops);
	if (hyptrace_hyp_log_has(HYPTRACE_HYP_LOG_LAST_BOOT))
		fb_file("hyp_log_last_boot", 0440, root,
			HYPTRACE_HYP_LOG_PRIVATE(HYPTRACE_HYP_LOG_LAST_BOOT),
			&hyptrace_hyp_log_fops);
	ret = create_per_cpu(ht, root);
	if (!ret)
		ret = fb_events_create(ht, root);
	if (ret) {
		debugfs_remove_recursive(root);
		pr_err("cannot create the files under %s in debugfs (%d)\n",
		       FB_DIR, ret);
		return ret;
	}

	pr_info("hypervisor ABI %u.%u, %u CPUs, carve-out %pa, %zu MiB: /sys/kernel/debug/%s (this kernel has no trace_remote)\n",
		HYPTRACE_ABI_MAJOR, ht->abi_minor, ht->nr_cpus,
		&ht->carveout_base, ht->carveout_size >> 20, FB_DIR);
	return 0;
}
