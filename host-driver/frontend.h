/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The front end: where the readers look for the files. One of two, chosen
 * at build time from the kernel's config (compat.h, HYPTRACE_FRONTEND):
 * trace_remote's remotes in tracefs (remote.c, shadow.c), or the same
 * files in debugfs, served by the module (fallback*.c). The core calls a
 * front end only through these operations.
 */
#ifndef HYPTRACE_HOST_FRONTEND_H
#define HYPTRACE_HOST_FRONTEND_H

#include <linux/types.h>

struct dentry;
struct file_operations;
struct hyptrace;
struct hyptrace_source;
struct hyptrace_src_cpu;
struct rb_data_page;

/**
 * struct hyptrace_frontend_ops - what the core asks of a front end
 * @init:	make the live buffer's files, at load.
 * @adopt:	take the hypervisor's early buffer now, so that the first
 *		read of trace shows it.
 * @show_last_boot: make the files of the last boot's buffer, read-only.
 * @raw_attach:	a trace_pipe_raw of @cpu opens, with @ht->lock held: 0 to
 *		let it in (loading the buffer if the front end loads on
 *		first use), or an errno.
 * @raw_detach:	a trace_pipe_raw closed, with @ht->lock held (@ht->raw_open
 *		already counts it out): unload if nothing needs the buffer.
 * @raw_page:	the next page of @cpu for the raw files, with the CPU's
 *		lock held (hyptrace_cpu_lock()): 0, -EAGAIN, or an errno.
 * @cpu_dir:	the per_cpu/cpuN directory under @root for @sc's CPU, with
 *		the front end's own per-CPU readers of @sc's source in it;
 *		NULL when the CPU has none (not possible), or an ERR_PTR.
 * @put_dir:	done with what @cpu_dir returned.
 * @create_file: a file in one of the front end's directories; 0 or -errno.
 * @claims_cpus: each CPU is consumed by one kind of reader, the first to
 *		claim it (trace_remote's, source_live.c); else trace_pipe and
 *		the raw files share one place per CPU.
 */
struct hyptrace_frontend_ops {
	int (*init)(struct hyptrace *ht);
	void (*adopt)(struct hyptrace *ht);
	int (*show_last_boot)(struct hyptrace_source *src);
	int (*raw_attach)(struct hyptrace *ht, unsigned int cpu);
	void (*raw_detach)(struct hyptrace *ht);
	int (*raw_page)(struct hyptrace *ht, unsigned int cpu,
			struct rb_data_page *dst);
	struct dentry *(*cpu_dir)(struct dentry *root,
				  struct hyptrace_src_cpu *sc);
	void (*put_dir)(struct dentry *dir);
	int (*create_file)(const char *name, umode_t mode,
			   struct dentry *parent, void *data,
			   const struct file_operations *fops);
	bool claims_cpus;
};

/* The two, of which the build links one */
extern const struct hyptrace_frontend_ops hyptrace_remote_frontend;
extern const struct hyptrace_frontend_ops hyptrace_debugfs_frontend;

/* raw.c: trace_pipe_raw and stats in every per_cpu/cpuN of @src */
int hyptrace_cpu_files(const struct hyptrace_frontend_ops *fe,
		       struct dentry *root, struct hyptrace_source *src);

#endif /* HYPTRACE_HOST_FRONTEND_H */
