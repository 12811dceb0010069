/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gen_trace's parts (gen_trace.c: the events, the writer, the file;
 * gen_expect.c: what the tools must say about it): the events written and
 * decoded per CPU, and the options.
 */
#ifndef HYPTRACE_TESTS_GEN_TRACE_H
#define HYPTRACE_TESTS_GEN_TRACE_H

#include <stdio.h>

#include "ring_buffer.h"

#define MAX_CPUS	64

struct ev {
	u64 ts;
	u16 id;
	u16 reason;
	u32 func_id;
	s64 ret;	/* hyp_exit */
	u64 sid;	/* selftest */
	u64 lost;	/* in the file: lost before it (UINT64_MAX: unknown) */
	u64 written;	/* in the file: its index among the written events */
};

struct cpu_gen {
	struct ev *written;
	u64 nr_written;
	struct ev *got;		/* decoded from the file's pages */
	u64 nr_got;
	FILE *pages;		/* the pages taken out, in order */
	struct rb_cpu rb;
	void *meta;
	void **data;
	struct rb_page_info *info;
};

struct opts {
	unsigned int cpus, pairs, selftests, pages, drain_every, gaps;
	int idle_cpu;
	u64 start, seed;
	const char *clock, *events_dir, *dump_dir, *expect, *expect_ns;
	const char *summary, *out, *send;
	unsigned int send_pace;
};

extern struct cpu_gen cpus[MAX_CPUS];

void die(const char *fmt, ...) __attribute__((format(printf, 1, 2),
					       noreturn));

/* gen_expect.c */
void write_expect(const char *path, int ns, const struct opts *o);
void write_summary(const struct opts *o);

#endif /* HYPTRACE_TESTS_GEN_TRACE_H */
