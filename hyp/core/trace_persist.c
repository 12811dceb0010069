// SPDX-License-Identifier: GPL-2.0
/*
 * The record a warm reset leaves behind: where the loaded trace buffer
 * lies, so that the next boot can find its pages (last_boot.c). It sits in
 * the last page of the hypervisor's region, which stage 2 hides from the
 * host and the allocator never hands out: the host can scribble on the
 * buffer's pages, never on where the next boot looks for them.
 *
 * Written when a buffer is loaded, cleared when it is unloaded, and cleaned
 * to the point of coherency with the buffer when the host panics or resets
 * the machine (trace_persist_clean()), for boards whose reset keeps RAM but
 * drops the caches.
 */
#include "cache.h"
#include "canary.h"
#include "hyp_layout.h"
#include "trace.h"
#include "trace_persist.h"
#include "shared/trace_desc.h"

#define TRACE_PERSIST_MAGIC	0x5453525043525448UL	/* "HTRCPRST" */
#define TRACE_PERSIST_VERSION	1U

static struct trace_persist *persist_record(void)
{
	return (struct trace_persist *)(hyp_layout.hyp_base +
					HYP_REGION_SIZE - HYP_PERSIST_SIZE);
}

static u64 persist_sum(const struct trace_persist *rec)
{
	return fnv1a_words((const u64 *)rec, (const u64 *)&rec->sum);
}

static void persist_flush(struct trace_persist *rec)
{
	dcache_clean_range((u64)rec, (u64)(rec + 1));
}

u64 trace_persist_end(const struct trace_persist *rec)
{
	return rec->meta + (u64)rec->nr_cpus * (rec->nr_pages + 1) *
			   RB_PAGE_SIZE;
}

/* Under trace_lock: the buffer just loaded */
void trace_persist_set(u64 desc, u64 meta, u64 nr_pages)
{
	struct trace_persist *rec = persist_record();

	rec->magic = TRACE_PERSIST_MAGIC;
	rec->version = TRACE_PERSIST_VERSION;
	rec->nr_cpus = hyp_layout.nr_cpus;
	rec->carveout_base = hyp_layout.carveout_base;
	rec->carveout_size = hyp_layout.carveout_size;
	rec->desc = desc;
	rec->meta = meta;
	rec->nr_pages = nr_pages;
	rec->sum = persist_sum(rec);
	persist_flush(rec);
}

/* Under trace_lock, or at boot: nothing to find after the next reset */
void trace_persist_clear(void)
{
	struct trace_persist *rec = persist_record();

	rec->magic = 0;
	rec->sum = 0;
	persist_flush(rec);
}

/*
 * What the last boot left, checked against this boot's carve-out, into
 * @rec; NULL if there is none, else why it cannot be used ("" when it can).
 */
const char *trace_persist_read(struct trace_persist *rec)
{
	const struct hyp_layout *l = &hyp_layout;
	u64 carve_end = l->carveout_base + l->carveout_size, end;

	*rec = *persist_record();
	if (rec->magic != TRACE_PERSIST_MAGIC)
		return NULL;
	if (rec->version != TRACE_PERSIST_VERSION ||
	    rec->sum != persist_sum(rec))
		return "its record is damaged";
	if (rec->nr_cpus != l->nr_cpus)
		return "the number of CPUs changed";
	if (rec->carveout_base != l->carveout_base ||
	    rec->carveout_size != l->carveout_size)
		return "the carve-out moved";
	/* Bounded one by one, so that nothing below can wrap */
	if (rec->nr_pages < RB_MIN_PAGES || rec->nr_pages > RB_MAX_PAGES ||
	    rec->desc < l->carveout_base || rec->desc >= carve_end ||
	    rec->meta <= rec->desc || rec->meta >= carve_end ||
	    (rec->desc | rec->meta) & (RB_PAGE_SIZE - 1) ||
	    rec->meta - rec->desc < rb_desc_size(rec->nr_cpus, rec->nr_pages))
		return "its record does not fit the carve-out";
	end = trace_persist_end(rec);
	if (end <= rec->meta || end > carve_end)
		return "its record does not fit the carve-out";
	return "";
}

/*
 * HOST_PANIC and PSCI SYSTEM_RESET/SYSTEM_OFF: whatever is loaded, in RAM.
 * No lock: the host is going down, and a record torn by a load on another
 * CPU fails the check and cleans nothing.
 */
void trace_persist_clean(void)
{
	struct trace_persist rec;
	const char *why = trace_persist_read(&rec);

	if (why && !*why)
		dcache_clean_range(rec.desc, trace_persist_end(&rec));
}
