// SPDX-License-Identifier: GPL-2.0
/*
 * The files both front ends add beside the ones trace_remote has: the two
 * pKVM's hypervisor remote adds, write_event, for the ftrace selftests, and
 * trace_clock, which tells readers what the timestamps are; and overwrite,
 * which picks what a full buffer loses.
 */
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/seq_file.h>

#include "hyptrace.h"

/* The hypervisor stamps events with CLOCK_BOOTTIME (clock.c). */
static int trace_clock_show(struct seq_file *m, void *v)
{
	seq_puts(m, "[boot]\n");
	return 0;
}

static int trace_clock_open(struct inode *inode, struct file *file)
{
	return single_open(file, trace_clock_show, NULL);
}

const struct file_operations hyptrace_trace_clock_fops = {
	.open		= trace_clock_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/* A selftest event carrying the number written, on the writer's CPU. */
static ssize_t write_event_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	u64 val;
	int ret;

	ret = kstrtoull_from_user(ubuf, count, 10, &val);
	if (ret)
		return ret;
	/*
	 * Nothing else on this path (bench row 1d): the writer reads trace
	 * next and expects the event there, which the front end sees to
	 * when the reader opens (for trace_remote, remote_readers.c)
	 */
	ret = hyptrace_call(HYPTRACE_CALL_TRACE_WRITE_EVENT, val, 0, 0, 0,
			    NULL, 0);
	return ret ? ret : count;
}

const struct file_operations hyptrace_write_event_fops = {
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
	mutex_lock(&ht->lock);
	if (ht->desc && ht->no_overwrite == val)
		ret = -EBUSY;
	else
		ht->no_overwrite = !val;
	mutex_unlock(&ht->lock);
	return ret ? ret : count;
}

const struct file_operations hyptrace_overwrite_fops = {
	.read = overwrite_read,
	.write = overwrite_write,
};
