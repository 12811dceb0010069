/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What an open trace.dat holds, shared by the two halves of the reader:
 * tracedat_read.c fills it from the metadata, tracedat_next.c walks the
 * records with it. Not for users of tracedat.h.
 */
#ifndef HYPTRACE_TOOLS_TRACEDAT_FILE_H
#define HYPTRACE_TOOLS_TRACEDAT_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "hyptrace/format.h"
#include "hyptrace/page.h"
#include "hyptrace/tracedat.h"

#define TD_ERR_LEN	256

struct td_cpu {
	uint64_t off, size;	/* the CPU's pages in the file */
	uint64_t page;		/* index of the page being walked */
	struct pg_walk walk;
	int walking;		/* walk holds page @page */
	int done;
	int have;		/* rec is this CPU's next record */
	struct td_record rec;
	uint64_t lost;		/* reported by pages before the next record */
	uint64_t released;	/* bytes from off given back (tracedat_next.c) */
};

struct td_file {
	const uint8_t *data;		/* the whole file */
	size_t size;
	int mapped;			/* data is our mmap() of it */
	size_t map_page;		/* the system's page size when mapped */
	unsigned int page_size;
	unsigned int nr_cpus;
	char *clock;			/* the name in brackets, or NULL */
	uint32_t tsc_mult, tsc_shift;	/* TSC2NSEC: ns = ts * mult >> shift */
	int64_t ts_offset;		/* OFFSET and DATE: added to every ns */
	struct fmt_event **events;	/* sorted by id */
	unsigned int nr_events;
	struct td_cpu *cpus;
	int failed;			/* tracedat_next() found corrupt data */
	char err[TD_ERR_LEN];		/* why, for tracedat_error() */
};

#endif /* HYPTRACE_TOOLS_TRACEDAT_FILE_H */
