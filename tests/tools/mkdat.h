/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the C tests: a trace.dat in memory, written by tracedat_write() from the
 * generated tracefs texts (gen_formats.c), or other formats given, and
 * pages built by hand (nr_pages per CPU, contiguous, or none).
 */
#ifndef HYPTRACE_TESTS_TOOLS_MKDAT_H
#define HYPTRACE_TESTS_TOOLS_MKDAT_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "gen_formats.h"
#include "hyp_events.h"
#include "hyptrace/tracedat.h"

struct mkdat {
	const struct td_out_format *formats;	/* NULL: the generated ones */
	unsigned int nr_formats;
	const void *const *pages;	/* per CPU: 4096-byte pages or NULL */
	unsigned int nr_cpus;
	const char *clock;
	const char *uname;
	const char *ts_offset;		/* OFFSET option text, or NULL */
	unsigned int nr_pages;		/* pages per CPU in pages[cpu] (1) */
};

/* Returns the file's bytes (free()) and its size in *@len; exits on error */
static inline uint8_t *mkdat(const struct mkdat *m, size_t *len)
{
	/* one per event of shared/hyp_events.h: nr is their number */
	struct td_out_format fmts[HYP_NR_EVENTS];
	struct gen_text hp = gen_header_page(4096), he = gen_header_event();
	struct gen_text *gen;
	unsigned int nr = gen_event_formats(&gen), i;
	int fds[8] = { -1, -1, -1, -1, -1, -1, -1, -1 };
	FILE *cpu[8] = { 0 };
	FILE *out = tmpfile();
	struct td_out o = {
		.header_page = hp.text, .header_page_len = hp.len,
		.header_event = he.text, .header_event_len = he.len,
		.page_size = 4096, .nr_cpus = m->nr_cpus, .cpu_fd = fds,
		.trace_clock = m->clock, .uname = m->uname,
		.ts_offset = m->ts_offset,
	};
	unsigned int pages = m->nr_pages ? m->nr_pages : 1;
	char err[256];
	uint8_t *buf;
	long n;

	for (i = 0; i < nr && i < HYP_NR_EVENTS; i++) {
		fmts[i].system = "hypervisor";
		fmts[i].text = gen[i].text;
		fmts[i].len = gen[i].len;
	}
	o.formats = m->formats ? m->formats : fmts;
	o.nr_formats = m->formats ? m->nr_formats : i;
	for (i = 0; i < m->nr_cpus && i < 8; i++) {
		if (!m->pages || !m->pages[i])
			continue;
		cpu[i] = tmpfile();
		if (!cpu[i] || fwrite(m->pages[i], 4096, pages, cpu[i]) != pages ||
		    fflush(cpu[i]))
			exit(2);
		fds[i] = fileno(cpu[i]);
	}
	if (!out || tracedat_write(fileno(out), &o, err, sizeof(err))) {
		printf("mkdat: %s\n", err);
		exit(2);
	}
	fseek(out, 0, SEEK_END);
	n = ftell(out);
	buf = malloc(n);
	if (!buf || pread(fileno(out), buf, n, 0) != n)
		exit(2);
	fclose(out);
	for (i = 0; i < 8; i++) {
		if (cpu[i])
			fclose(cpu[i]);
	}
	gen_free_texts(gen, nr);
	free(gen);
	gen_free_texts(&hp, 1);
	gen_free_texts(&he, 1);
	*len = n;
	return buf;
}

#endif /* HYPTRACE_TESTS_TOOLS_MKDAT_H */
