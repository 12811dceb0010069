// SPDX-License-Identifier: GPL-2.0
/*
 * The records of an open trace.dat: every CPU's pages walked in file order
 * (page.c checks each one), the CPUs merged by timestamp as trace_remote
 * merges them, and the lost-event marks of the pages carried to the next
 * record of their CPU. Pages walked are given back to the kernel as the
 * walk goes, so that reading a file takes memory in proportion to its CPUs,
 * not its size.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "hyptrace/page.h"
#include "hyptrace/tracedat.h"
#include "tracedat_file.h"

static int cpu_fail(struct td_file *td, unsigned int n, const char *why)
{
	const struct td_cpu *cpu = &td->cpus[n];

	td->failed = 1;
	snprintf(td->err, sizeof(td->err),
		 "CPU %u, page %llu (file offset %llu): %s", n,
		 (unsigned long long)cpu->page,
		 (unsigned long long)(cpu->off + cpu->page * td->page_size),
		 why);
	return -1;
}

/* Lost counts of pages in a row add up; an unknown one stays unknown */
static void add_lost(uint64_t *sum, uint64_t lost)
{
	if (*sum == TD_LOST_UNKNOWN || lost == TD_LOST_UNKNOWN)
		*sum = lost ? TD_LOST_UNKNOWN : *sum;
	else
		*sum = *sum + lost < *sum ? TD_LOST_UNKNOWN - 1 : *sum + lost;
}

/* Give back the mapped pages at least this far behind a CPU's walk */
#define TD_RELEASE_BYTES	(64U << 10)

/*
 * A mapped file's pages, once read, count in the process's resident memory
 * until unmapped: `hyptrace stats` of a 321 MB file peaked at 320 MB for
 * that alone. MADV_DONTNEED drops the ones this CPU has walked past (the
 * records in them are no longer valid, tracedat_next()'s contract); the page
 * cache keeps them, and a read mapping refills from the file if touched
 * again. Whole system pages only, within the CPU's own data; @all at the
 * end of the CPU's data, else only once a whole TD_RELEASE_BYTES is due.
 */
static void release_behind(struct td_file *td, struct td_cpu *cpu, int all)
{
	uint64_t walked = cpu->page * td->page_size, lo, hi;
	uint64_t mask = td->map_page - 1;

	if (!td->map_page || td->map_page & mask ||
	    (!all && walked - cpu->released < TD_RELEASE_BYTES))
		return;
	/* the mapping starts on a page: offsets and addresses align alike */
	lo = (cpu->off + cpu->released + mask) & ~mask;
	hi = (cpu->off + walked) & ~mask;
	if (hi <= lo)
		return;
	madvise((void *)(td->data + lo), hi - lo, MADV_DONTNEED);
	cpu->released = hi - cpu->off;
}

/* Find CPU @n's next record; 0 (found, or no more), -1 corrupt */
static int cpu_fill(struct td_file *td, unsigned int n)
{
	struct td_cpu *cpu = &td->cpus[n];
	uint64_t pages = cpu->size / td->page_size;
	struct pg_event ev;
	char why[160];
	int r;

	while (!cpu->have && !cpu->done) {
		if (!cpu->walking) {
			if (cpu->page >= pages) {
				cpu->done = 1;
				release_behind(td, cpu, 1);
				break;
			}
			if (page_open(&cpu->walk, td->data + cpu->off +
				    cpu->page * td->page_size, td->page_size,
				    why, sizeof(why)))
				return cpu_fail(td, n, why);
			add_lost(&cpu->lost, cpu->walk.lost);
			cpu->walking = 1;
		}
		r = page_next(&cpu->walk, &ev, why, sizeof(why));
		if (r < 0)
			return cpu_fail(td, n, why);
		if (!r) {
			cpu->walking = 0;
			cpu->page++;
			release_behind(td, cpu, 0);
			continue;
		}
		if (ev.size < 2) {
			snprintf(why, sizeof(why),
				 "event at page offset %u has %u bytes, no event ID",
				 ev.offset, ev.size);
			return cpu_fail(td, n, why);
		}
		cpu->rec.cpu = n;
		cpu->rec.ts = ev.ts;
		if (td->tsc_mult)
			cpu->rec.ts = (__uint128_t)ev.ts * td->tsc_mult >>
				      td->tsc_shift;
		cpu->rec.ts += td->ts_offset;	/* wrapping, as trace-cmd's */
		cpu->rec.data = ev.data;
		cpu->rec.size = ev.size;
		memcpy(&cpu->rec.id, ev.data, sizeof(cpu->rec.id));
		cpu->rec.lost_before = cpu->lost;
		cpu->lost = 0;
		cpu->have = 1;
	}
	return 0;
}

int tracedat_next(struct td_file *td, struct td_record *rec)
{
	struct td_cpu *best = NULL;
	unsigned int i;

	if (td->failed)
		return -1;
	for (i = 0; i < td->nr_cpus; i++) {
		struct td_cpu *cpu = &td->cpus[i];

		if (cpu_fill(td, i))
			return -1;
		/* the lower CPU wins a tie, as in trace_remote */
		if (cpu->have && (!best || cpu->rec.ts < best->rec.ts))
			best = cpu;
	}
	if (!best)
		return 0;
	*rec = best->rec;
	best->have = 0;
	return 1;
}
