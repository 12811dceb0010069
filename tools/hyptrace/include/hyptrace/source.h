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
#include <time.h>

#include "tracedat.h"
#include "tracefs.h"

#define REC_MAX_CPUS	256

/* Counted from the pages in the temporary files, before rec_write() */
struct rec_counts {
	uint64_t events;
	uint64_t lost;		/* from the pages' lost-event marks */
	uint64_t lost_unknown;	/* pages that say "lost" without a count */
	uint64_t bytes;
	uint64_t pages;
};

struct rec_cpu {
	bool on;		/* recorded */
	int raw_fd;		/* per_cpu/cpuN/trace_pipe_raw, O_NONBLOCK */
	int tmp_fd;		/* OUTPUT.cpuN: the pages, in order */
	int pipe[2];		/* splice goes through a pipe */
	uint64_t pages;
	struct rec_counts sent;	/* streaming: counted as the pages went */
	size_t have;		/* streaming: bytes of the page in buf */
};

struct tcn_session;

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
	/* streaming (record_net.c): to `trace-cmd listen`, HOST:PORT */
	const char *net_to;
	bool local_copy;	/* and into output as well */
	struct tcn_session *net;
	unsigned char *page;	/* one page on its way */
	struct timespec net_start, net_end;	/* connecting, confirmed end */
};

/* Whether @src's pages go to temporary files and then its output */
static inline bool rec_keeps_file(const struct rec_source *src)
{
	return !src->net_to || src->local_copy;
}

/* record_source.c */
int rec_open(struct rec_source *src, char *err, size_t errlen);
int rec_drain(struct rec_source *src, char *err, size_t errlen);
int rec_write(struct rec_source *src, char *err, size_t errlen);
void rec_close(struct rec_source *src, bool keep_tmp);

/* What a trace.dat of @src says besides its pages (record_source.c) */
struct rec_formats {
	struct td_out_format *f;
	struct tfs_text *text;
	unsigned int nr;
	unsigned int cap;
};

struct rec_meta {
	struct td_out out;
	struct tfs_text hp, he, cmdlines;
	struct rec_formats fm;
	char *cpustat[REC_MAX_CPUS];
	int fds[REC_MAX_CPUS];
	char clock[64];
	char uname[400];
};

/* @stats: with each CPU's stats as they are now (CPUSTAT options) */
int rec_describe(struct rec_source *src, struct rec_meta *m, bool stats,
		 char *err, size_t errlen);
void rec_undescribe(struct rec_meta *m);

/*
 * record_net.c: the same source sent as it is recorded to a trace-cmd
 * listener (lib/tcnet.h), and, with local_copy, kept in the temporary
 * files too for rec_write(). rec_net_open() after rec_open(), with tracing
 * on; rec_net_drain() instead of rec_drain(); rec_net_finish() once the
 * last pages are sent; rec_net_close() always.
 */
int rec_net_open(struct rec_source *src, char *err, size_t errlen);
int rec_net_drain(struct rec_source *src, char *err, size_t errlen);
int rec_net_check(struct rec_source *src, char *err, size_t errlen);
int rec_net_finish(struct rec_source *src, char *err, size_t errlen);
void rec_net_close(struct rec_source *src);

int rec_count(struct rec_source *src, unsigned int cpu,
	      struct rec_counts *c, char *err, size_t errlen);
/* Add one page's events, lost marks, bytes to *@c; -1 if it is corrupt */
int rec_count_page(const void *page, size_t page_size, struct rec_counts *c,
		   char *why, size_t whylen);

#endif /* HYPTRACE_TOOLS_RECORD_H */
