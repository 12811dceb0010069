// SPDX-License-Identifier: GPL-2.0
/*
 * The moment a trace_remote reader asks: its open of trace or trace_pipe
 * (and their per_cpu/cpuN copies).
 *
 * trace_remote reads the counters of our shadow meta pages (shadow.c)
 * without asking us: at the open of trace (the non-consuming iterator's
 * reset, ring_buffer.c rb_iter_reset()) and trace_pipe (its first
 * ring_buffer_poll_remote()), and then every 100 ms for a waiting
 * trace_pipe. Its callbacks (swap_reader_page, reset) come only after it
 * has seen counters that promise events, so a counter copied late hides
 * an event from a reader that opens at once: the ftrace selftests write
 * write_event and read trace next. Copying on every write_event cost
 * each event about 30 instructions (bench row 1d); copying when a reader
 * opens costs the reader, once.
 *
 * So the open of those files comes here first: the counters are copied,
 * then the file takes trace_remote's own file operations (replace_fops(),
 * as chrdev_open() hands a file to its driver) and trace_remote's open
 * runs, unchanged. The files are trace_remote's; only their inodes' file
 * operations are replaced, from the remote's init callback. The module is
 * never unloaded (main.c), so ours outlive every file that uses them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/namei.h>
#include <linux/string.h>

#include "shadow.h"

/* trace_remote's file operations of trace and of trace_pipe, every CPU's */
static const struct file_operations *trace_fops, *trace_pipe_fops;

/* Copy the counters, then hand the file to trace_remote's @fops */
static int reader_open(struct inode *inode, struct file *file,
		       const struct file_operations *fops)
{
	hyptrace_shadow_refresh();
	replace_fops(file, fops_get(fops));
	return fops->open ? fops->open(inode, file) : 0;
}

static int trace_open(struct inode *inode, struct file *file)
{
	return reader_open(inode, file, trace_fops);
}

static int trace_pipe_open(struct inode *inode, struct file *file)
{
	return reader_open(inode, file, trace_pipe_fops);
}

static const struct file_operations trace_first_fops = {
	.owner	= THIS_MODULE,
	.open	= trace_open,
};

static const struct file_operations trace_pipe_first_fops = {
	.owner	= THIS_MODULE,
	.open	= trace_pipe_open,
};

/*
 * @name in @dir: its open copies the counters first. @orig is where
 * trace_remote's file operations for it are kept: every CPU's trace (or
 * trace_pipe) has the same, and one that differs is left as it is.
 */
static int hook_file(struct dentry *dir, const char *name,
		     const struct file_operations **orig,
		     const struct file_operations *first)
{
	struct dentry *d = lookup_noperm_positive_unlocked(&QSTR(name), dir);
	const struct file_operations *fops;
	struct inode *inode;
	int ret = 0;

	if (IS_ERR(d))
		return PTR_ERR(d);
	inode = d_inode(d);
	fops = READ_ONCE(inode->i_fop);
	if (!*orig)
		*orig = fops;
	if (fops == *orig)
		WRITE_ONCE(inode->i_fop, first);
	else if (fops != first)
		ret = -EINVAL;
	dput(d);
	return ret;
}

/* trace and trace_pipe in @dir */
static int hook_dir(struct dentry *dir)
{
	int ret = hook_file(dir, "trace", &trace_fops, &trace_first_fops);

	if (!ret)
		ret = hook_file(dir, "trace_pipe", &trace_pipe_fops,
				&trace_pipe_first_fops);
	return ret;
}

/**
 * hyptrace_remote_hook_readers() - copy the counters when a reader opens
 * @remote:	the remote's directory in tracefs (trace_remote's init)
 * @nr_cpus:	per_cpu/cpuN below this are looked at
 *
 * Return: 0, or the -errno of a file that could not be hooked (the remote
 * then still works; a reader that opens at once may miss events written
 * within the last poll period).
 */
int hyptrace_remote_hook_readers(struct dentry *remote, unsigned int nr_cpus)
{
	struct dentry *per_cpu, *dir;
	unsigned int cpu;
	char name[16];
	int ret;

	ret = hook_dir(remote);
	per_cpu = lookup_noperm_positive_unlocked(&QSTR("per_cpu"), remote);
	if (IS_ERR(per_cpu))
		return ret ? ret : PTR_ERR(per_cpu);
	for (cpu = 0; cpu < nr_cpus && !ret; cpu++) {
		snprintf(name, sizeof(name), "cpu%u", cpu);
		dir = lookup_noperm_positive_unlocked(&QSTR(name), per_cpu);
		if (IS_ERR(dir))	/* not a possible CPU */
			continue;
		ret = hook_dir(dir);
		dput(dir);
	}
	dput(per_cpu);
	return ret;
}
