/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of the fallback front end offer each other:
 *
 *   fallback.c		the debugfs tree, the control files, load and unload
 *   last_boot_fallback.c	the last boot's, read-only, in last_boot/
 *   fallback_events.c	events/: enable, id, format, header_page, ...
 *   fallback_files.c	a source's files: trace, trace_pipe, per_cpu/cpuN/
 *   fallback_trace.c, fallback_pipe.c, fallback_iter.c, fallback_pages.c
 *			the text readers: trace, trace_pipe, what the two
 *			share, the pages the module keeps (fallback_text.h)
 *
 * Each calls only files below it in this list (scripts/check-circles.sh);
 * the text readers reach fallback.c only through struct fb_text_owner.
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

struct hyptrace_frontend_ops;
struct hyptrace_source;
struct hyptrace_src_cpu;
struct mutex;
struct rb_data_page;

/* fallback_events.c */
int fb_events_create(struct hyptrace *ht, struct dentry *root);
int fb_events_create_ro(struct dentry *root);	/* no enable files */

/**
 * struct fb_text_owner - what the text readers of a written source (the
 *	live buffer) ask of the front end that owns it (fallback.c)
 * @get:	a reader opens: load the buffer on first use; 0 or an errno
 *		for the open
 * @put:	the reader that @get let in closes
 * @reset:	a write to trace of @cpu (HYPTRACE_ALL_CPUS: every CPU)
 *		empties it: 0 or -errno
 *
 * The text readers call back into fallback.c only through these.
 */
struct fb_text_owner {
	int (*get)(void);
	void (*put)(void);
	int (*reset)(int cpu);
};

/*
 * The text readers (fallback_text.h): i_private of their files is a struct
 * hyptrace_src_cpu. fallback_trace.c, fallback_pipe.c:
 */
extern const struct file_operations fb_trace_fops;
extern const struct file_operations fb_trace_pipe_fops;
/* fallback_pages.c */
int fb_read_init(struct hyptrace_source *src,
		 struct mutex *(*cpu_lock)(unsigned int cpu),
		 const struct fb_text_owner *owner);
void fb_read_drop(struct hyptrace_source *src, unsigned int cpu);
bool fb_read_empty(struct hyptrace_source *src);	/* takes the locks */
int fb_raw_page(struct hyptrace *ht, unsigned int cpu,
		struct rb_data_page *dst);

/* fallback_files.c: a source's files; the front end's cpu_dir and others */
int fb_source_files(const struct hyptrace_frontend_ops *fe,
		    struct hyptrace_source *src, struct dentry *root);
struct dentry *fb_cpu_dir(struct dentry *per_cpu, struct hyptrace_src_cpu *sc);
void fb_put_dir(struct dentry *dir);
int fb_create_file(const char *name, umode_t mode, struct dentry *parent,
		   void *data, const struct file_operations *fops);

/* last_boot_fallback.c */
int fb_show_last_boot(struct hyptrace_source *src);

#endif /* HYPTRACE_HOST_FALLBACK_H */
