// SPDX-License-Identifier: GPL-2.0
/*
 * The previous boot's trace (HYPTRACE_CALL_TRACE_LAST_BOOT). At boot,
 * before anything is loaded, the record trace_persist.c left says where the
 * buffer was when the machine reset. Its pages are checked one by one as the
 * kernel checks a persistent ring buffer (shared/rb_page_check.c); what
 * passes is put in time order and described to the host as a read-only
 * buffer that has stopped: a descriptor of TRACE_LOAD's form over the same
 * pages, kept ones first, and meta pages that count their events. New loads
 * go beside it (trace.c) until the host releases it.
 *
 * Trust: the pages held whatever the host or a half-finished write left.
 * They are only read; every address written here (descriptor, meta pages,
 * the headers of the pages left out) comes from the private record, bounded
 * by trace_persist_read().
 */
#include <string.h>
#include "hyp_layout.h"
#include "hyp_mem.h"
#include "layout.h"
#include "print.h"
#include "spinlock.h"
#include "trace_persist.h"
#include "shared/hyptrace_abi.h"
#include "shared/rb_page_check.h"
#include "shared/trace_desc.h"

/* One page that passed, while the pages of a CPU are put in order */
struct lb_page {
	u64 first;		/* time of its first and last events */
	u64 last;
	u32 id;			/* its index among the CPU's data pages */
	u32 events;
};

static struct spinlock lb_lock;
static struct {
	bool present;
	struct trace_persist rec;	/* the buffer, as it was loaded */
	u64 desc_size;
	u64 dropped;			/* all CPUs */
	u32 kept[HYP_MAX_CPUS];		/* pages kept, per CPU */
	u32 reader[HYP_MAX_CPUS];	/* the reader's page id */
} lb;

static u8 *lb_meta(unsigned int cpu)
{
	return (u8 *)lb.rec.meta + (u64)cpu * (lb.rec.nr_pages + 1) *
				   RB_PAGE_SIZE;
}

static struct rb_data_page *lb_data_page(unsigned int cpu, u32 id)
{
	return (struct rb_data_page *)(lb_meta(cpu) +
				       (u64)(id + 1) * RB_PAGE_SIZE);
}

/* Oldest first: by first event, then by last */
static bool lb_before(const struct lb_page *a, const struct lb_page *b)
{
	return a->first < b->first || (a->first == b->first && a->last < b->last);
}

static void lb_swap(struct lb_page *a, struct lb_page *b)
{
	struct lb_page t = *a;

	*a = *b;
	*b = t;
}

/* Heap sort: in place, n log n for the largest buffer, no recursion */
static void lb_sift(struct lb_page *p, u32 root, u32 n)
{
	u32 child;

	while ((child = 2 * root + 1) < n) {
		if (child + 1 < n && lb_before(&p[child], &p[child + 1]))
			child++;
		if (!lb_before(&p[root], &p[child]))
			return;
		lb_swap(&p[root], &p[child]);
		root = child;
	}
}

static void lb_sort(struct lb_page *p, u32 n)
{
	u32 i;

	for (i = n / 2; i-- > 0;)
		lb_sift(p, i, n);
	for (i = n; i-- > 1;) {
		lb_swap(&p[0], &p[i]);
		lb_sift(p, 0, i);
	}
}

/*
 * The meta page of a buffer that has stopped: the kernel's reader finds
 * @events to read, starting on page_va[0], and asks for the rest by SWAP.
 */
static void lb_write_meta(unsigned int cpu, u64 events, u32 kept, u32 lost)
{
	struct rb_meta *meta = (struct rb_meta *)lb_meta(cpu);
	struct rb_meta_ext *ext = (struct rb_meta_ext *)((u8 *)meta +
							 RB_META_EXT_OFFSET);

	memset(meta, 0, RB_PAGE_SIZE);
	meta->meta_page_size = RB_PAGE_SIZE;
	meta->meta_struct_len = sizeof(*meta);
	meta->subbuf_size = RB_PAGE_SIZE;
	meta->nr_subbufs = lb.rec.nr_pages;
	meta->entries = events;
	meta->pages_touched = kept;
	meta->pages_lost = lost;
	ext->magic = RB_META_EXT_MAGIC;
	ext->version = RB_META_EXT_VERSION;
	ext->counters.entries = events;
	ext->counters.pages_touched = kept;
	ext->counters.pages_lost = lost;
}

/* One bit per data page of a CPU: the pages kept, while the rest are listed */
static void lb_map_set(u64 *map, u32 id)
{
	map[id / 64] |= 1UL << (id % 64);
}

static bool lb_map_test(const u64 *map, u32 id)
{
	return map[id / 64] & (1UL << (id % 64));
}

static struct rb_data_page *lb_page_at(u8 *pages, u32 id)
{
	return (struct rb_data_page *)(pages + (u64)id * RB_PAGE_SIZE);
}

/*
 * Walk the @nr_pages data pages at @pages that hold records, into
 * @scratch: how many hold events. *@lost counts those that break a rule.
 *
 * The cost follows the pages that hold events, not the buffer's size: a
 * page whose commit is 0 (without the reader's flags, as rb_page_check()
 * reads it) holds no record, whatever the rest of its header says, so it
 * is not walked, which is all the walk would find; every other page is
 * walked whole, as strictly.
 */
static noinline u32 lb_check_pages(u8 *pages, u32 nr_pages,
				   struct lb_page *scratch, u32 *lost)
{
	struct rb_page_summary sum;
	struct rb_data_page *page;
	u32 n = 0, i;

	for (i = 0; i < nr_pages; i++) {
		page = lb_page_at(pages, i);
		/* Empty since its load or reset (rb_page_clear()) */
		if (!(READ_ONCE(page->commit) & ~RB_COMMIT_FLAGS))
			continue;
		if (rb_page_check(page, &sum) != RB_PAGE_OK) {
			(*lost)++;
			continue;
		}
		if (!sum.events)
			continue;
		scratch[n].first = sum.first;
		scratch[n].last = sum.last;
		scratch[n].id = i;
		scratch[n].events = sum.events;
		n++;
	}
	return n;
}

/*
 * Every page not in @kept_map follows the kept ones in @page_va from
 * @n on, empty, stamped with the last kept time @last: the kernel's reader
 * finds its head and commit pages by comparing neighbours' stamps, and
 * must see none newer than the last kept. Apart, as lb_check_pages(), so
 * that the loop has registers of its own: it runs for every page.
 */
static noinline void lb_list_others(u8 *pages, u32 nr_pages, const u64 *kept_map,
			   u64 *page_va, u32 n, u64 last)
{
	struct rb_data_page *page;
	u32 i;

	for (i = 0; i < nr_pages; i++) {
		if (lb_map_test(kept_map, i))
			continue;
		page = lb_page_at(pages, i);
		page->time_stamp = last;
		page->commit = 0;
		page_va[n++] = (u64)page;
	}
}

/*
 * Check CPU @cpu's pages and describe them in @entry: the kept ones in
 * time order, then the others, emptied. @scratch holds nr_pages entries,
 * @kept_map nr_pages bits. Per page that holds no record, this reads its
 * commit, then empties and lists it: a few instructions.
 */
static void lb_check_cpu(unsigned int cpu, struct rb_desc_cpu *entry,
			 struct lb_page *scratch, u64 *kept_map)
{
	const u32 nr_pages = lb.rec.nr_pages;
	u8 *const pages = (u8 *)lb_data_page(cpu, 0);
	u32 n, kept = 0, lost = 0, i;
	u64 events = 0, last = 0;

	n = lb_check_pages(pages, nr_pages, scratch, &lost);
	lb_sort(scratch, n);

	entry->cpu = (s32)cpu;
	entry->nr_page_va = nr_pages;
	entry->meta_va = (u64)lb_meta(cpu);
	memset(kept_map, 0, ALIGN_UP(nr_pages, 64) / 8);
	/* A page that begins before the one kept before it ends is out */
	for (i = 0; i < n; i++) {
		if (kept && scratch[i].first < last) {
			lost++;
			continue;
		}
		last = scratch[i].last;
		events += scratch[i].events;
		lb_map_set(kept_map, scratch[i].id);
		entry->page_va[kept++] = (u64)lb_page_at(pages, scratch[i].id);
	}
	lb_list_others(pages, nr_pages, kept_map, entry->page_va, kept, last);
	lb.kept[cpu] = kept;
	lb.reader[cpu] = 0;
	lb.dropped += lost;
	lb_write_meta(cpu, events, kept, lost);
	hyp_printf(" cpu%u %u/%u/%lu", cpu, kept, lost, events);
}

/*
 * At boot, the boot CPU alone, MMU on, before the early buffer or any host
 * can load: find, check and describe the previous boot's buffer.
 */
void last_boot_find(void)
{
	const u32 nr_cpus = hyp_layout.nr_cpus;
	struct rb_trace_desc *desc;
	struct lb_page *scratch;
	u64 *kept_map;
	const char *why;
	u64 mark, size;
	unsigned int cpu;

	why = trace_persist_read(&lb.rec);
	if (!why)
		return;
	if (*why) {
		hyp_info("last boot: its trace cannot be used: %s\n", why);
		trace_persist_clear();
		return;
	}
	mark = hyp_mem_mark();
	scratch = hyp_mem_alloc(lb.rec.nr_pages * sizeof(*scratch), SZ_4K);
	kept_map = hyp_mem_alloc(ALIGN_UP(lb.rec.nr_pages, 64) / 8, SZ_4K);
	if (!scratch || !kept_map) {
		hyp_mem_free_to(mark);
		hyp_info("last boot: no room to check %lu pages per CPU\n",
			 lb.rec.nr_pages);
		return;
	}
	desc = (struct rb_trace_desc *)lb.rec.desc;
	size = rb_desc_size(nr_cpus, lb.rec.nr_pages);
	desc->nr_cpus = (s32)nr_cpus;
	desc->__pad = 0;
	desc->struct_len = size;
	lb.dropped = 0;
	hyp_info("last boot: trace at 0x%lx..0x%lx, pages kept/dropped/events:",
		 lb.rec.desc, trace_persist_end(&lb.rec) - 1);
	for (cpu = 0; cpu < nr_cpus; cpu++)
		lb_check_cpu(cpu, (struct rb_desc_cpu *)(desc->data + cpu *
				  rb_desc_cpu_size(lb.rec.nr_pages)), scratch,
			     kept_map);
	hyp_printf("\n");
	hyp_mem_free_to(mark);
	lb.desc_size = size;
	lb.present = true;
}

/* Where the last boot's pages are, while they are kept */
bool last_boot_span(u64 *base, u64 *end)
{
	bool present;

	spin_lock(&lb_lock);
	present = lb.present;
	*base = lb.rec.desc;
	*end = trace_persist_end(&lb.rec);
	spin_unlock(&lb_lock);
	return present;
}

/* Under lb_lock: the reader's next kept page */
static s64 lb_swap_reader(unsigned int cpu)
{
	struct rb_meta *meta = (struct rb_meta *)lb_meta(cpu);

	if (lb.reader[cpu] + 1 >= lb.kept[cpu])
		return HYPTRACE_RET_AGAIN;
	lb.reader[cpu]++;
	arch_store_once_u64(&meta->reader.lost_events, 0);
	arch_store_release_u32(&meta->reader.read, 0);
	arch_store_release_u32(&meta->reader.id, lb.reader[cpu]);
	return HYPTRACE_RET_SUCCESS;
}

/* HYPTRACE_CALL_TRACE_LAST_BOOT (a RELEASE's record: vendor_hyp.c) */
s64 last_boot_call(u64 op, u64 cpu, u64 *res)
{
	s64 ret = HYPTRACE_RET_SUCCESS;

	if (op > HYPTRACE_LAST_BOOT_RELEASE ||
	    (op == HYPTRACE_LAST_BOOT_SWAP && cpu >= hyp_layout.nr_cpus))
		return HYPTRACE_RET_INVALID;
	spin_lock(&lb_lock);
	switch (op) {
	case HYPTRACE_LAST_BOOT_QUERY:
		res[0] = lb.present ? lb.rec.desc : 0;
		res[1] = lb.present ? lb.desc_size : 0;
		res[2] = lb.present ? lb.dropped : 0;
		break;
	case HYPTRACE_LAST_BOOT_SWAP:
		ret = lb.present ? lb_swap_reader(cpu) :
				   HYPTRACE_RET_NOT_LOADED;
		break;
	default:
		if (!lb.present) {
			ret = HYPTRACE_RET_NOT_LOADED;
			break;
		}
		lb.present = false;
		break;
	}
	spin_unlock(&lb_lock);
	return ret;
}
