/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A source of pages: the live buffer (source_live.c, through hypercalls)
 * or the last boot's (last_boot.c, read-only). The files that read pages
 * are written once over this interface: the raw files and stats (raw.c),
 * the fallback's text readers (fallback_text.h); the front end puts them
 * where its readers look (frontend.h).
 */
#ifndef HYPTRACE_HOST_SOURCE_H
#define HYPTRACE_HOST_SOURCE_H

#include <linux/types.h>

struct rb_data_page;
struct seq_file;
struct hyptrace_source;

/* A per-CPU file's CPU for the files that read every CPU at once */
#define HYPTRACE_ALL_CPUS	(-1)

/**
 * struct hyptrace_src_cpu - what a per-CPU file's i_private points at
 * @src:	the source it reads
 * @cpu:	its CPU, or HYPTRACE_ALL_CPUS
 */
struct hyptrace_src_cpu {
	struct hyptrace_source *src;
	int cpu;
};

/**
 * struct hyptrace_source_ops - what the readers ask of a source
 * @open:	a reader of @cpu (HYPTRACE_ALL_CPUS for several) opens; @raw
 *		for trace_pipe_raw. 0, or an errno the open returns.
 * @release:	the reader that @open let in closes.
 * @raw_page:	the next page for a trace_pipe_raw reader of @cpu, whose
 *		place is *@cursor (0 at its open; the source may ignore it
 *		when its readers share one place): 0 with the page in @dst,
 *		-EAGAIN when one may come later, -ENODATA when none will.
 * @take_page:	the next page of @cpu in order, consumed (the text readers
 *		keep it): returns as @raw_page. Called with @cpu's lock held.
 * @capacity:	how many pages @cpu's buffer holds: a text reader that
 *		shows without consuming keeps up to this many.
 * @reset:	empty @cpu (or HYPTRACE_ALL_CPUS); NULL when read-only.
 * @stats:	per_cpu/cpuN/stats of @cpu, in the kernel's words.
 *
 * Every operation but @take_page takes the locks it needs itself.
 */
struct hyptrace_source_ops {
	int (*open)(struct hyptrace_source *src, int cpu, bool raw);
	void (*release)(struct hyptrace_source *src, int cpu, bool raw);
	int (*raw_page)(struct hyptrace_source *src, unsigned int cpu,
			u32 *cursor, struct rb_data_page *dst);
	int (*take_page)(struct hyptrace_source *src, unsigned int cpu,
			 struct rb_data_page *dst);
	u32 (*capacity)(struct hyptrace_source *src, unsigned int cpu);
	int (*reset)(struct hyptrace_source *src, int cpu);
	void (*stats)(struct hyptrace_source *src, unsigned int cpu,
		      struct seq_file *m);
};

/**
 * struct hyptrace_source - one source of pages and its readers' places
 * @ops:	its operations
 * @name:	what its messages start with ("" live, "last boot ")
 * @nr_cpus:	CPUs it has pages for
 * @read_only:	nothing writes it: readers at its end have read it all
 * @all:	the i_private of a file that reads every CPU
 * @cpu:	the i_private of each CPU's files
 * @text:	the fallback's text readers' state (fallback_pages.c)
 */
struct hyptrace_source {
	const struct hyptrace_source_ops *ops;
	const char *name;
	unsigned int nr_cpus;
	bool read_only;
	struct hyptrace_src_cpu all;
	struct hyptrace_src_cpu *cpu;
	void *text;
};

int hyptrace_source_init(struct hyptrace_source *src,
			 const struct hyptrace_source_ops *ops,
			 const char *name, unsigned int nr_cpus,
			 bool read_only);

/* source_live.c: the live buffer */
struct hyptrace;
struct hyptrace_source *hyptrace_live_source(void);

/* raw.c: trace_pipe_raw and stats, any source (i_private: src_cpu) */
extern const struct file_operations hyptrace_raw_fops;
extern const struct file_operations hyptrace_stats_fops;

#endif /* HYPTRACE_HOST_SOURCE_H */
