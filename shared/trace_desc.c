// SPDX-License-Identifier: GPL-2.0
/*
 * Filling and checking the page descriptor of trace_desc.h. The hypervisor
 * fills it from its per-CPU writers; the host module checks what it got
 * before trusting any of it.
 */
#include "trace_desc.h"
#include "ring_buffer.h"

/*
 * Describe @nr_cpus writers, entry i being cpus[i] (whose cpu id must be i).
 * Addresses are the writer's pointers, which are physical addresses in the
 * hypervisor's identity map. Returns 0, or -RB_EINVAL if @size is too small
 * or the writers disagree on the page count.
 */
int rb_desc_fill(struct rb_trace_desc *desc, u64 size,
		 struct rb_cpu *const *cpus, u32 nr_cpus)
{
	u32 nr_pages, i, id;
	u8 *p;

	if (!nr_cpus || nr_cpus > 0x7fffffffU)
		return -RB_EINVAL;
	nr_pages = cpus[0]->nr_slots + 1;
	if (size < rb_desc_size(nr_cpus, nr_pages))
		return -RB_EINVAL;

	desc->nr_cpus = (s32)nr_cpus;
	desc->__pad = 0;
	desc->struct_len = rb_desc_size(nr_cpus, nr_pages);
	p = desc->data;
	for (i = 0; i < nr_cpus; i++) {
		struct rb_desc_cpu *e = (struct rb_desc_cpu *)p;
		const struct rb_cpu *c = cpus[i];

		if (c->cpu != i || c->nr_slots + 1 != nr_pages)
			return -RB_EINVAL;
		e->cpu = (s32)i;
		e->nr_page_va = nr_pages;
		e->meta_va = (u64)(unsigned long)c->meta;
		for (id = 0; id < nr_pages; id++)
			e->page_va[id] = (u64)(unsigned long)c->pages[id].page;
		p += rb_desc_cpu_size(nr_pages);
	}
	return 0;
}

/*
 * What the kernel will assume (§1.3, §2.8): entries in CPU order with
 * cpu == index, equal nr_page_va >= 3, struct_len within @size and exact,
 * page-aligned non-zero addresses. The CPU count is bounded by @max_cpus
 * (what the checker was told elsewhere) before anything is walked, and the
 * walk is one pass.
 */
int rb_desc_check(struct rb_trace_desc *desc, u64 size, u32 max_cpus)
{
	u64 off = sizeof(*desc), len;
	struct rb_desc_cpu *e;
	u32 nr_pages = 0, i, id;

	if (size < sizeof(*desc) || desc->nr_cpus <= 0 ||
	    (u32)desc->nr_cpus > max_cpus || desc->struct_len > size)
		return -RB_EINVAL;
	len = desc->struct_len;
	for (i = 0; i < (u32)desc->nr_cpus; i++) {
		e = (struct rb_desc_cpu *)((u8 *)desc + off);
		/* off <= len, and an entry is at most 16 + 8 * 2^32 bytes */
		if (off + sizeof(*e) > len ||
		    off + rb_desc_cpu_size(e->nr_page_va) > len ||
		    e->cpu != (s32)i)
			return -RB_EINVAL;
		if (!i)
			nr_pages = e->nr_page_va;
		if (e->nr_page_va != nr_pages || nr_pages < RB_MIN_PAGES ||
		    nr_pages > RB_MAX_PAGES)
			return -RB_EINVAL;
		if (!e->meta_va || (e->meta_va & (RB_PAGE_SIZE - 1)))
			return -RB_EINVAL;
		for (id = 0; id < nr_pages; id++) {
			if (!e->page_va[id] ||
			    (e->page_va[id] & (RB_PAGE_SIZE - 1)))
				return -RB_EINVAL;
		}
		off += rb_desc_cpu_size(nr_pages);
	}
	if (desc->struct_len != rb_desc_size((u32)desc->nr_cpus, nr_pages))
		return -RB_EINVAL;
	return 0;
}
