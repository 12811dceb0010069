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
 *   maint_window
 *   overwrite per_cpu/cpuN/{trace,trace_pipe,trace_pipe_raw,stats}
 *   events/{enable,header_page,header_event}
 *   events/hypervisor/EVENT/{enable,id,format}
 *
 * As trace_remote does, the buffer is loaded with buffer_size_kb per CPU on
 * first use (tracing_on, or a reader opening), and unloaded once tracing is
 * off, nobody reads and nothing is left to read. That state is kept under
 * @ht->lock. trace_remote's code is not copied: the readers here are the
 * module's own (fallback_text.h), over the live source's page taking.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/overflow.h>
#include <linux/seq_file.h>

#include "compat.h"
#include "frontend.h"
#include "hyptrace.h"
#include "hyptrace_version.h"
#include "fallback.h"
#include "source.h"

/* trace_remote's default buffer size per CPU */
#define FB_DEFAULT_SIZE		(7UL << 10)

static struct fb_state {
	unsigned long size;		/* bytes per CPU at the next load */
	bool tracing_on;
	unsigned int readers;		/* open trace and trace_pipe files */
} fb = {
	.size = FB_DEFAULT_SIZE,
};

static struct hyptrace *fb_ht;

static int fb_load(struct hyptrace *ht)
{
	struct rb_trace_desc *desc;

	lockdep_assert_held(&ht->lock);
	if (ht->desc)
		return 0;
	desc = hyptrace_live_load_locked(ht, fb.size);
	return PTR_ERR_OR_ZERO(desc);
}

/* Nothing writes, nobody reads and nothing is left: the pages go back. */
static void fb_try_unload(struct hyptrace *ht)
{
	lockdep_assert_held(&ht->lock);
	if (!ht->desc || fb.tracing_on || fb.readers || ht->raw_open)
		return;
	if (!fb_read_empty(hyptrace_live_source()))
		return;
	hyptrace_buffer_unload(ht);
}

/* A reader opens: load on first use. */
static int fb_get(struct hyptrace *ht)
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

static void fb_put(struct hyptrace *ht)
{
	lockdep_assert_held(&ht->lock);
	if (WARN_ON(!fb.readers))
		return;
	fb.readers--;
	fb_try_unload(ht);
}

/* A text reader of the live buffer opens: it is loaded on first use */
static int fb_live_get(void)
{
	struct hyptrace *ht = fb_ht;
	int ret;

	mutex_lock(&ht->lock);
	ret = fb_get(ht);
	mutex_unlock(&ht->lock);
	return ret;
}

/* A text reader of the live buffer closes: it may go (fb_put()) */
static void fb_live_put(void)
{
	struct hyptrace *ht = fb_ht;

	mutex_lock(&ht->lock);
	fb_put(ht);
	mutex_unlock(&ht->lock);
}

static int fb_raw_attach(struct hyptrace *ht, unsigned int cpu)
{
	return fb_load(ht);
}

static void fb_raw_detach(struct hyptrace *ht)
{
	fb_try_unload(ht);
}

/* Empty @cpu (or every CPU), in the hypervisor and in what we keep */
static int fb_reset(struct hyptrace *ht, int cpu)
{
	struct hyptrace_source *src = hyptrace_live_source();
	unsigned int c;
	int ret;

	lockdep_assert_held(&ht->lock);
	if (!ht->desc)
		return 0;
	ret = src->ops->reset(src, cpu);
	if (ret)
		return ret;
	for (c = 0; c < src->nr_cpus; c++) {
		if (cpu == HYPTRACE_ALL_CPUS || c == cpu)
			fb_read_drop(src, c);
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

/*
 * A number written to a control file (i_private: @ht): @set takes it, with
 * @ht->lock held, and returns 0 or -errno.
 */
static ssize_t fb_write_number(struct file *file, const char __user *ubuf,
			       size_t count,
			       int (*set)(struct hyptrace *ht, unsigned long val))
{
	struct hyptrace *ht = file_inode(file)->i_private;
	unsigned long val;
	int ret;

	ret = kstrtoul_from_user(ubuf, count, 10, &val);
	if (ret)
		return ret;
	mutex_lock(&ht->lock);
	ret = set(ht, val);
	mutex_unlock(&ht->lock);
	return ret ? ret : count;
}

static int tracing_on_set(struct hyptrace *ht, unsigned long val)
{
	int ret;

	if (!!val == fb.tracing_on)
		return 0;
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
	return ret;
}

static ssize_t tracing_on_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	return fb_write_number(file, ubuf, count, tracing_on_set);
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
static int buffer_size_kb_set(struct hyptrace *ht, unsigned long val)
{
	if (!val || check_shl_overflow(val, 10, &val))
		return -EINVAL;
	if (ht->desc)
		return -EBUSY;
	fb.size = val;
	return 0;
}

static ssize_t buffer_size_kb_write(struct file *file,
				    const char __user *ubuf, size_t count,
				    loff_t *ppos)
{
	return fb_write_number(file, ubuf, count, buffer_size_kb_set);
}

static const struct file_operations buffer_size_kb_fops = {
	.open		= buffer_size_kb_open,
	.read		= seq_read,
	.write		= buffer_size_kb_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/* A write to the live buffer's trace or per_cpu/cpuN/trace empties it */
static int fb_live_reset(int cpu)
{
	struct hyptrace *ht = fb_ht;
	int ret;

	mutex_lock(&ht->lock);
	ret = fb_reset(ht, cpu);
	mutex_unlock(&ht->lock);
	return ret;
}

/* The live buffer's text readers ask this front end to load and empty it */
static const struct fb_text_owner fb_live_owner = {
	.get	= fb_live_get,
	.put	= fb_live_put,
	.reset	= fb_live_reset,
};

/*
 * The early buffer is loaded now, so that the first read of trace shows
 * it; buffer_size_kb says its size. As any load on first use, it stays
 * until tracing is off, nobody reads and nothing is left (fb_try_unload()).
 */
static void fb_adopt(struct hyptrace *ht)
{
	int ret;

	mutex_lock(&ht->lock);
	fb.size = ht->early_size;
	ret = fb_load(ht);
	mutex_unlock(&ht->lock);
	if (ret)
		pr_err("early buffer: cannot adopt it (%d)\n", ret);
}

static int fb_init(struct hyptrace *ht)
{
	struct hyptrace_source *src = hyptrace_live_source();
	struct dentry *root;
	int ret;

	fb_ht = ht;
	ret = fb_read_init(src, hyptrace_cpu_lock, &fb_live_owner);
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
	fb_file("write_event", 0200, root, ht, &hyptrace_write_event_fops);
	fb_file("overwrite", 0640, root, ht, &hyptrace_overwrite_fops);
	fb_file("mmio", 0640, root, ht, &hyptrace_mmio_fops);
	fb_file("maint_window", 0640, root, ht, &hyptrace_maint_fops);
	if (hyptrace_hyp_log_has(HYPTRACE_HYP_LOG_THIS_BOOT))
		fb_file("hyp_log", 0440, root,
			HYPTRACE_HYP_LOG_PRIVATE(HYPTRACE_HYP_LOG_THIS_BOOT),
			&hyptrace_hyp_log_fops);
	if (hyptrace_hyp_log_has(HYPTRACE_HYP_LOG_LAST_BOOT))
		fb_file("hyp_log_last_boot", 0440, root,
			HYPTRACE_HYP_LOG_PRIVATE(HYPTRACE_HYP_LOG_LAST_BOOT),
			&hyptrace_hyp_log_fops);
	ret = fb_source_files(&hyptrace_debugfs_frontend, src, root);
	if (!ret)
		ret = fb_events_create(ht, root);
	if (ret) {
		debugfs_remove_recursive(root);
		pr_err("cannot create the files under %s in debugfs (%d)\n",
		       FB_DIR, ret);
		return ret;
	}

	pr_info("version %s, hypervisor ABI %u.%u, %u CPUs, carve-out %pa, %zu MiB: /sys/kernel/debug/%s (this kernel has no trace_remote)\n",
		HYPTRACE_VERSION, HYPTRACE_ABI_MAJOR, ht->abi_minor, ht->nr_cpus,
		&ht->carveout_base, ht->carveout_size >> 20, FB_DIR);
	return 0;
}

const struct hyptrace_frontend_ops hyptrace_debugfs_frontend = {
	.init		= fb_init,
	.adopt		= fb_adopt,
	.show_last_boot	= fb_show_last_boot,
	.raw_attach	= fb_raw_attach,
	.raw_detach	= fb_raw_detach,
	.raw_page	= fb_raw_page,
	.cpu_dir	= fb_cpu_dir,
	.put_dir	= fb_put_dir,
	.create_file	= fb_create_file,
};
