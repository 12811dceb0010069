/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the three files of the fallback front end offer each other:
 *
 *   fallback.c		the debugfs tree, the control files, load and unload
 *   fallback_events.c	events/: enable, id, format, header_page, ...
 *   fallback_read.c	the pages the module keeps, trace and trace_pipe
 *   last_boot_fallback.c	the last boot's, read-only, in last_boot/
 */
#ifndef HYPTRACE_HOST_FALLBACK_H
#define HYPTRACE_HOST_FALLBACK_H

#include <linux/debugfs.h>
#include <linux/types.h>

struct dentry;
struct file;
struct hyptrace;

/* Where the files are, under the debugfs mount */
#define FB_DIR			"hyptrace"

/*
 * A file in debugfs, "unsafe": without debugfs' proxy around each call. The
 * proxy passes on read() but not read_iter() or splice_read(), which
 * trace_pipe_raw needs, and it only guards against removal, which never
 * happens (the module stays loaded, as with trace_remote).
 */
static inline void fb_file(const char *name, umode_t mode,
			   struct dentry *parent, void *data,
			   const struct file_operations *fops)
{
	debugfs_create_file_unsafe(name, mode, parent, data, fops);
}

struct hyptrace_source;
struct mutex;
struct rb_data_page;

/* fallback.c */
extern struct hyptrace *fb_ht;
int fb_reader_get(struct hyptrace_source *src, int cpu);
void fb_reader_put(struct hyptrace_source *src, int cpu);
ssize_t fb_trace_write(struct file *file, const char __user *ubuf,
		       size_t count, loff_t *ppos);
int fb_source_files(struct hyptrace_source *src, struct dentry *root);

/* fallback_events.c */
int fb_events_create(struct hyptrace *ht, struct dentry *root);
int fb_events_create_ro(struct dentry *root);	/* no enable files */

/* fallback_read.c: i_private of the readers is a struct hyptrace_src_cpu */
extern const struct file_operations fb_trace_fops;
extern const struct file_operations fb_trace_pipe_fops;
int fb_read_init(struct hyptrace_source *src,
		 struct mutex *(*cpu_lock)(unsigned int cpu));
void fb_read_drop(struct hyptrace_source *src, unsigned int cpu);
bool fb_read_empty(struct hyptrace_source *src);	/* takes the locks */
int fb_raw_page(struct hyptrace *ht, unsigned int cpu,
		struct rb_data_page *dst);

/* last_boot_fallback.c */
int fb_show_last_boot(struct hyptrace_source *src);

#endif /* HYPTRACE_HOST_FALLBACK_H */
