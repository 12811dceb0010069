/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What `hyptrace record` drains: a source is one tracing directory with
 * per_cpu/cpuN/trace_pipe_raw files (the hypervisor's remote, or the host
 * kernel's top-level tracing instance), the CPUs taken from it, and the
 * trace.dat its pages end up in.
 */
#ifndef HYPTRACE_TOOLS_RECORD_H
#define HYPTRACE_TOOLS_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#define REC_MAX_CPUS	256

struct rec_cpu {
	bool on;		/* recorded */
	int raw_fd;		/* per_cpu/cpuN/trace_pipe_raw, O_NONBLOCK */
	int tmp_fd;		/* OUTPUT.cpuN: the pages, in order */
	int pipe[2];		/* splice goes through a pipe */
	uint64_t pages;
};

struct rec_source {
	const char *what;	/* "hypervisor", "host" */
	const char *dir;	/* its tracing directory */
	char *output;		/* trace.dat path */
	const char *system;	/* format files: events/<system>/, or NULL */
	char **events;		/* host: SYSTEM[:EVENT] to record */
	unsigned int nr_events;
	unsigned int nr_cpus;	/* highest CPU + 1 */
	unsigned int page_size;
	struct rec_cpu cpu[REC_MAX_CPUS];
};

/* record_source.c */
int rec_open(struct rec_source *src, char *err, size_t errlen);
int rec_drain(struct rec_source *src, char *err, size_t errlen);
int rec_write(struct rec_source *src, char *err, size_t errlen);
void rec_close(struct rec_source *src, bool keep_tmp);

/* Counted from the pages in the temporary files, before rec_write() */
struct rec_counts {
	uint64_t events;
	uint64_t lost;		/* from the pages' lost-event marks */
	uint64_t lost_unknown;	/* pages that say "lost" without a count */
	uint64_t bytes;
	uint64_t pages;
};

int rec_count(struct rec_source *src, unsigned int cpu,
	      struct rec_counts *c, char *err, size_t errlen);

#endif /* HYPTRACE_TOOLS_RECORD_H */
