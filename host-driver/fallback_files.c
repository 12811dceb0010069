// SPDX-License-Identifier: GPL-2.0
/*
 * The files of a source in the fallback front end's debugfs tree, the
 * live buffer's (fallback.c) and the last boot's (last_boot_fallback.c)
 * alike: trace, trace_pipe, trace_clock, and per_cpu/cpuN with the text
 * readers (fallback_trace.c, fallback_pipe.c) and the raw files and stats (raw.c).
 */
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>

#include "frontend.h"
#include "hyptrace.h"
#include "fallback.h"
#include "source.h"

/* per_cpu/cpuN under @per_cpu, with this front end's readers of @sc's CPU */
struct dentry *fb_cpu_dir(struct dentry *per_cpu, struct hyptrace_src_cpu *sc)
{
	struct dentry *dir;
	char name[16];

	if (!cpu_possible(sc->cpu))
		return NULL;
	snprintf(name, sizeof(name), "cpu%d", sc->cpu);
	dir = debugfs_create_dir(name, per_cpu);
	fb_file("trace", 0640, dir, sc, &fb_trace_fops);
	fb_file("trace_pipe", 0440, dir, sc, &fb_trace_pipe_fops);
	return dir;
}

/* debugfs keeps no reference for us */
void fb_put_dir(struct dentry *dir)
{
}

/* debugfs reports its own failures, and takes an error as a parent */
int fb_create_file(const char *name, umode_t mode, struct dentry *parent,
		   void *data, const struct file_operations *fops)
{
	fb_file(name, mode, parent, data, fops);
	return 0;
}

/**
 * fb_source_files() - the files every source has, under @root
 * @fe:		this front end's operations, which make per_cpu/cpuN (from
 *		ht->fe: fallback.c names the files here, never the reverse)
 * @src:	the source they read
 * @root:	its directory
 *
 * trace, trace_pipe, trace_clock and per_cpu/; the caller adds the rest.
 * Return: 0, or -errno.
 */
int fb_source_files(const struct hyptrace_frontend_ops *fe,
		    struct hyptrace_source *src, struct dentry *root)
{
	struct dentry *per_cpu;

	fb_file("trace", 0640, root, &src->all, &fb_trace_fops);
	fb_file("trace_pipe", 0440, root, &src->all, &fb_trace_pipe_fops);
	fb_file("trace_clock", 0440, root, NULL, &hyptrace_trace_clock_fops);
	per_cpu = debugfs_create_dir("per_cpu", root);
	if (IS_ERR(per_cpu))
		return PTR_ERR(per_cpu);
	return hyptrace_cpu_files(fe, per_cpu, src);
}
