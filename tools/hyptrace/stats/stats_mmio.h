/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hyptrace stats' MMIO tables (stats_mmio.c): the mmio_read, mmio_write
 * and mmio_unhandled events counted per register, and per device (the
 * 4 KiB page the register is on, as the hypervisor traces whole pages).
 */
#ifndef HYPTRACE_TOOLS_STATS_MMIO_H
#define HYPTRACE_TOOLS_STATS_MMIO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hyptrace/tracedat.h"

struct mmio_reg {
	uint64_t addr;
	uint64_t reads, writes, unhandled;
	unsigned int widths;		/* bit n: a 2^n-byte access */
};

struct mmio_stats {
	const struct td_event *rd, *wr, *un;
	const struct td_field *rd_addr, *rd_width, *wr_addr, *wr_width,
			      *un_addr;
	struct mmio_reg *regs;		/* sorted by addr */
	size_t nr, cap;
};

/* The events' fields in @td; a file without them gives empty tables */
void stats_mmio_init(struct mmio_stats *m, const struct td_file *td);
/* 0, or -1 when out of memory */
int stats_mmio_feed(struct mmio_stats *m, const struct td_record *rec);
void stats_mmio_free(struct mmio_stats *m);
/* Nothing when no MMIO event was seen */
void stats_mmio_print_text(FILE *f, const struct mmio_stats *m);
/* ",\n  \"mmio\": {...}" after the previous key, or nothing */
void stats_mmio_print_json(FILE *f, const struct mmio_stats *m);

#endif /* HYPTRACE_TOOLS_STATS_MMIO_H */
