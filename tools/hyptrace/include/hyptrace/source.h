/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A trace source (lib/source.c), what `hyptrace record` and the agent
 * drain: one tracing directory with
 * per_cpu/cpuN/trace_pipe_raw files (the hypervisor's remote, or the host
 * kernel's top-level tracing instance), the CPUs taken from it, and the
 * trace.dat its pages end up in.
 */
#ifndef HYPTRACE_SOURCE_H
#define HYPTRACE_SOURCE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "hyptrace/tracedat.h"
#include "hyptrace/tracefs.h"

#define SOURCE_MAX_CPUS	256

/* Counted from the pages in the temporary files, before source_write() */
struct source_counts {
	uint64_t events;
	uint64_t lost;		/* from the pages' lost-event marks */
	uint64_t lost_unknown;	/* pages that say "lost" without a count */
	uint64_t bytes;
	uint64_t pages;
};

struct source_cpu {
	bool on;		/* recorded */
	int raw_fd;		/* per_cpu/cpuN/trace_pipe_raw, O_NONBLOCK */
	int tmp_fd;		/* OUTPUT.cpuN: the pages, in order */
	int pipe[2];		/* splice goes through a pipe */
	uint64_t pages;
	struct source_counts sent;	/* streaming: counted as the pages went */
	size_t have;		/* streaming: bytes of the page in buf */
};

struct tcn_session;

struct source {
	const char *what;	/* "hypervisor", "host" */
	const char *dir;	/* its tracing directory */
	char *output;		/* trace.dat path */
	const char *system;	/* format files: events/<system>/, or NULL */
	char **events;		/* host: SYSTEM[:EVENT] to record */
	unsigned int nr_events;
	unsigned int nr_cpus;	/* highest CPU + 1 */
	unsigned int page_size;
	struct source_cpu cpu[SOURCE_MAX_CPUS];
	/* streaming (record/record_net.c): to `trace-cmd listen`, HOST:PORT */
	const char *net_to;
	bool local_copy;	/* and into output as well */
	struct tcn_session *net;
	unsigned char *page;	/* one page on its way */
	struct timespec net_start, net_end;	/* connecting, confirmed end */
};

/* Whether @src's pages go to temporary files and then its output */
static inline bool source_keeps_file(const struct source *src)
{
	return !src->net_to || src->local_copy;
}

int source_open(struct source *src, char *err, size_t errlen);
int source_drain(struct source *src, char *err, size_t errlen);
int source_write(struct source *src, char *err, size_t errlen);
void source_close(struct source *src, bool keep_tmp);

/* What a trace.dat of @src says besides its pages */
struct source_formats {
	struct td_out_format *f;
	struct tfs_text *text;
	unsigned int nr;
	unsigned int cap;
};

struct source_meta {
	struct td_out out;
	struct tfs_text hp, he, cmdlines;
	struct source_formats fm;
	char *cpustat[SOURCE_MAX_CPUS];
	int fds[SOURCE_MAX_CPUS];
	char clock[64];
	char uname[400];
};

/* @stats: with each CPU's stats as they are now (CPUSTAT options) */
int source_describe(struct source *src, struct source_meta *m, bool stats,
		 char *err, size_t errlen);
void source_undescribe(struct source_meta *m);

int source_count(struct source *src, unsigned int cpu,
	      struct source_counts *c, char *err, size_t errlen);
/* Add one page's events, lost marks, bytes to *@c; -1 if it is corrupt */
int source_count_page(const void *page, size_t page_size, struct source_counts *c,
		   char *why, size_t whylen);

#endif /* HYPTRACE_SOURCE_H */
