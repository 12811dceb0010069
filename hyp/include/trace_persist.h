/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loaded buffer's record that survives a warm reset (trace_persist.c),
 * and the previous boot's buffer found through it (last_boot.c).
 */
#ifndef HYP_TRACE_PERSIST_H
#define HYP_TRACE_PERSIST_H

#include "types.h"

/* Hypervisor-private; the buffer's layout as trace_load() made it */
struct trace_persist {
	u64 magic;
	u32 version;
	u32 nr_cpus;
	u64 carveout_base;	/* the carve-out it was carved from */
	u64 carveout_size;
	u64 desc;		/* the buffer's first page: its descriptor */
	u64 meta;		/* CPU 0's meta page, its data pages after it, */
	u64 nr_pages;		/* ...this many; then CPU 1's meta page */
	u64 sum;		/* FNV-1a of everything above */
};

void trace_persist_set(u64 desc, u64 meta, u64 nr_pages);
void trace_persist_clear(void);
const char *trace_persist_read(struct trace_persist *rec);
u64 trace_persist_end(const struct trace_persist *rec);
void trace_persist_clean(void);

void last_boot_find(void);
bool last_boot_span(u64 *base, u64 *end);
s64 last_boot_call(u64 op, u64 cpu, u64 *res);
void trace_persist_release(void);

#endif /* HYP_TRACE_PERSIST_H */
