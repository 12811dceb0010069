/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hyptrace stats' maintenance table (stats/stats_maint.c): the maint_run events
 * of the hypervisor's TLBI and DC/IC window summed per operation: runs,
 * operations and the time the runs spanned.
 */
#ifndef HYPTRACE_TOOLS_STATS_MAINT_H
#define HYPTRACE_TOOLS_STATS_MAINT_H

#include <stdint.h>
#include <stdio.h>

#include "hyptrace/tracedat.h"

struct maint_row {
	uint64_t op;			/* MAINT_OPS encoding */
	uint64_t runs, ops, ns;
};

/* Fewer than 128 operations have an encoding the window records */
#define MAINT_STATS_ROWS	128

struct maint_stats {
	const struct td_event *ev;
	const struct td_field *op, *count, *ns;
	struct maint_row row[MAINT_STATS_ROWS];
	size_t nr;
	uint64_t other;			/* runs of an op beyond the table */
};

/* The event's fields in @td; a file without it gives an empty table */
void stats_maint_init(struct maint_stats *m, const struct td_file *td);
void stats_maint_feed(struct maint_stats *m, const struct td_record *rec);
/* Nothing when no maint_run was seen */
void stats_maint_print_text(FILE *f, const struct maint_stats *m);
/* ",\n  \"maint\": [...]" after the previous key, or nothing */
void stats_maint_print_json(FILE *f, const struct maint_stats *m);

#endif /* HYPTRACE_TOOLS_STATS_MAINT_H */
