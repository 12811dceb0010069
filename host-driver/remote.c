// SPDX-License-Identifier: GPL-2.0
/*
 * The trace_remote callbacks for remotes/hypervisor/, each one hypercall,
 * the two files pKVM's hypervisor remote adds: write_event, for the ftrace
 * selftests, and trace_clock, which tells readers what the timestamps are;
 * overwrite, which picks what a full buffer loses, and the per-CPU raw
 * files (raw.c).
 *
 * trace_remote calls load, unload, enable_tracing and enable_event under its
 * mutex, and swap_reader_page and reset under a raw spinlock with interrupts
 * off: those two must not sleep, which a hypercall does not.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cleanup.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/seq_file.h>
#include <linux/trace_remote.h>
#include <linux/tracefs.h>

#include "hyptrace.h"

static struct trace_buffer_desc *hyptrace_load(unsigned long size, void *priv)
{
	return hyptrace_buffer_load(priv, size);
}

static void hyptrace_unload(struct trace_buffer_desc *desc, void *priv)
{
	struct hyptrace *ht = priv;

	if (WARN_ON(desc != ht->desc))
		return;
	hyptrace_buffer_release(ht);
}

/*
 * The clock goes first, so that the first event is stamped right; it stops
 * with tracing, since nothing is stamped then.
 */
static int hyptrace_enable_tracing(bool enable, void *priv)
{
	int ret;

	if (enable) {
		ret = hyptrace_clock_start();
		if (ret)
			return ret;
	} else {
		hyptrace_clock_stop();
	}

	ret = hyptrace_call(HYPTRACE_CALL_TRACE_ENABLE, enable, 0, 0, 0, NULL,
			    0);
	if (ret) {
		/* trace_remote keeps the old state: so does the clock */
		if (enable)
			hyptrace_clock_stop();
		else
			hyptrace_clock_start();
	}
	return ret;
}

static int hyptrace_swap_reader_page(unsigned int cpu, void *priv)
{
	/* A CPU the raw files consume has no page for trace_pipe (raw.c) */
	if (!hyptrace_raw_claim_tracefs(cpu))
		return -EBUSY;
	/* AGAIN is routine here, and the ring buffer says so itself */
	return hyptrace_call(HYPTRACE_CALL_TRACE_SWAP_READER, cpu, 0, 0, 0,
			     NULL, HYPTRACE_QUIET(HYPTRACE_RET_AGAIN));
}

static int hyptrace_reset(unsigned int cpu, void *priv)
{
	int ret;

	ret = hyptrace_call(HYPTRACE_CALL_TRACE_RESET, cpu, 0, 0, 0, NULL, 0);
	if (!ret)
		hyptrace_raw_reset(cpu);
	return ret;
}

static int hyptrace_enable_event(unsigned short id, bool enable, void *priv)
{
	return hyptrace_call(HYPTRACE_CALL_TRACE_ENABLE_EVENT, id, enable, 0, 0,
			     NULL, 0);
}

/* The hypervisor stamps events with CLOCK_BOOTTIME (clock.c). */
static int trace_clock_show(struct seq_file *m, void *v)
{
	seq_puts(m, "[boot]\n");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(trace_clock);

/* A selftest event carrying the number written, on the writer's CPU. */
static ssize_t write_event_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	u64 val;
	int ret;

	ret = kstrtoull_from_user(ubuf, count, 10, &val);
	if (ret)
		return ret;
	ret = hyptrace_call(HYPTRACE_CALL_TRACE_WRITE_EVENT, val, 0, 0, 0,
			    NULL, 0);
	return ret ? ret : count;
}

static const struct file_operations write_event_fops = {
	.write = write_event_write,
};

/*
 * What a full buffer loses: 1 (the default, as the kernel's own
 * options/overwrite) the oldest page, a flight recorder; 0 the newest
 * events, counted as "dropped events" in per_cpu/cpuN/stats. Like
 * buffer_size_kb it applies at the next load, so it cannot change while a
 * buffer is loaded.
 */
static ssize_t overwrite_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	struct hyptrace *ht = file_inode(file)->i_private;
	char buf[3];

	snprintf(buf, sizeof(buf), "%d\n", !READ_ONCE(ht->no_overwrite));
	return simple_read_from_buffer(ubuf, count, ppos, buf, 2);
}

static ssize_t overwrite_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct hyptrace *ht = file_inode(file)->i_private;
	bool val;
	int ret;

	ret = kstrtobool_from_user(ubuf, count, &val);
	if (ret)
		return ret;
	guard(mutex)(&ht->lock);
	if (ht->desc && ht->no_overwrite == val)
		return -EBUSY;
	ht->no_overwrite = !val;
	return count;
}

static const struct file_operations overwrite_fops = {
	.read = overwrite_read,
	.write = overwrite_write,
};

static int hyptrace_init_tracefs(struct dentry *d, void *priv)
{
	struct hyptrace *ht = priv;

	/* From here on trace_remote keeps pointers to us even on failure */
	ht->remote_attached = true;
	if (!tracefs_create_file("write_event", 0200, d, NULL,
				 &write_event_fops))
		return -ENOMEM;
	if (!tracefs_create_file("trace_clock", 0440, d, NULL,
				 &trace_clock_fops))
		return -ENOMEM;
	if (!tracefs_create_file("overwrite", 0640, d, ht, &overwrite_fops))
		return -ENOMEM;
	return hyptrace_raw_create_files(ht, d);
}

struct trace_remote_callbacks hyptrace_remote_callbacks = {
	.init			= hyptrace_init_tracefs,
	.load_trace_buffer	= hyptrace_load,
	.unload_trace_buffer	= hyptrace_unload,
	.enable_tracing		= hyptrace_enable_tracing,
	.swap_reader_page	= hyptrace_swap_reader_page,
	.reset			= hyptrace_reset,
	.enable_event		= hyptrace_enable_event,
};
