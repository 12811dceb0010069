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
 * A per-CPU file's i_private: the CPU + 1, so that 0 means every CPU, as
 * tracefs' tracing_get_cpu() tells them apart.
 */
#define FB_ALL_CPUS		(-1)
#define FB_CPU_PRIVATE(cpu)	((void *)(unsigned long)((cpu) + 1))
int fb_file_cpu(const void *i_private);

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

/* fallback.c: get and put with @ht->lock held */
extern struct hyptrace *fb_ht;
int fb_get(struct hyptrace *ht);
void fb_put(struct hyptrace *ht);
ssize_t fb_trace_write(struct file *file, const char __user *ubuf,
		       size_t count, loff_t *ppos);

/* fallback_events.c */
int fb_events_create(struct hyptrace *ht, struct dentry *root);
int fb_events_create_ro(struct dentry *root);	/* no enable files */

/* fallback_read.c */
extern const struct file_operations fb_trace_fops;	/* i_private: cpu */
extern const struct file_operations fb_trace_pipe_fops;	/* i_private: cpu */
int fb_read_init(struct hyptrace *ht);
void fb_read_drop(unsigned int cpu);		/* takes the CPU's lock */
bool fb_read_empty(struct hyptrace *ht);	/* takes the CPUs' locks */
struct trace_seq;
void hyptrace_fb_print_event(struct trace_seq *s, unsigned int cpu, u64 ts,
			     const u8 *payload, u32 len);

#endif /* HYPTRACE_HOST_FALLBACK_H */
