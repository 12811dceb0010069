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
 * So the open of those files comes here first: the counters are copied
 * (@before_open), then trace_remote's own open runs, unchanged. The files
 * are trace_remote's; only their inodes' file operations are replaced, by
 * a copy of trace_remote's with another open, before any reader can have
 * one open (from the remote's init callback). The module is never unloaded
 * (main.c), so the copies outlive every file that uses them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/namei.h>
#include <linux/string.h>

#include "shadow.h"

/* trace and trace_pipe: one file_operations each, for every CPU's copy */
#define READER_KINDS	2

struct reader_open {
	const struct file_operations *orig;	/* trace_remote's */
	struct file_operations fops;		/* the same, our open */
};

static struct reader_open reader_opens[READER_KINDS];

static int reader_open(struct inode *inode, struct file *file)
{
	const struct reader_open *ro =
		container_of(file->f_op, struct reader_open, fops);

	hyptrace_shadow_refresh();
	return ro->orig->open(inode, file);
}

/* Our copy of @orig, made on first sight; NULL when all are taken */
static const struct file_operations *
reader_fops(const struct file_operations *orig)
{
	struct reader_open *ro;

	for (ro = reader_opens; ro < reader_opens + READER_KINDS; ro++) {
		if (ro->orig == orig)
			return &ro->fops;
		if (!ro->orig) {
			ro->orig = orig;
			ro->fops = *orig;
			ro->fops.open = reader_open;
			return &ro->fops;
		}
	}
	return NULL;
}

/* @name in @dir: its open copies the counters first */
static int hook_file(struct dentry *dir, const char *name)
{
	struct dentry *d = lookup_noperm_positive_unlocked(&QSTR(name), dir);
	const struct file_operations *fops;
	struct inode *inode;
	int ret = 0;

	if (IS_ERR(d))
		return PTR_ERR(d);
	inode = d_inode(d);
	fops = inode->i_fop;
	/* Already ours, or not a file trace_remote opens for reading */
	if (fops && fops->open != reader_open) {
		fops = fops->open ? reader_fops(fops) : NULL;
		if (fops)
			WRITE_ONCE(inode->i_fop, fops);
		else
			ret = -EINVAL;
	}
	dput(d);
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
	static const char *const names[] = { "trace", "trace_pipe" };
	struct dentry *per_cpu, *dir;
	unsigned int cpu, i;
	char name[16];
	int ret = 0;

	for (i = 0; i < ARRAY_SIZE(names) && !ret; i++)
		ret = hook_file(remote, names[i]);
	per_cpu = lookup_noperm_positive_unlocked(&QSTR("per_cpu"), remote);
	if (IS_ERR(per_cpu))
		return ret ? ret : PTR_ERR(per_cpu);
	for (cpu = 0; cpu < nr_cpus && !ret; cpu++) {
		snprintf(name, sizeof(name), "cpu%u", cpu);
		dir = lookup_noperm_positive_unlocked(&QSTR(name), per_cpu);
		if (IS_ERR(dir))	/* not a possible CPU */
			continue;
		for (i = 0; i < ARRAY_SIZE(names) && !ret; i++)
			ret = hook_file(dir, names[i]);
		dput(dir);
	}
	dput(per_cpu);
	return ret;
}
