/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The descriptor of every CPU's meta and data pages that the hypervisor
 * exports and the host module hands to the kernel: byte for byte the
 * kernel's struct trace_buffer_desc followed by packed struct
 * ring_buffer_desc entries (include/linux/ring_buffer.h, reference §1.3).
 *
 * The hypervisor fills it with physical addresses (its VA == PA); the host
 * module rewrites each address into a kernel virtual address before giving
 * the descriptor to the kernel. Entry i describes CPU i; every entry has the
 * same nr_page_va, page_va[0] is the initial reader page.
 */
#ifndef HYPTRACE_SHARED_TRACE_DESC_H
#define HYPTRACE_SHARED_TRACE_DESC_H

#include "rb_types.h"

struct ring_buffer_desc;
struct rb_cpu;

/* struct ring_buffer_desc */
struct rb_desc_cpu {
	s32 cpu;
	u32 nr_page_va;		/* data pages including the reader page */
	u64 meta_va;
	u64 page_va[];		/* index == page id == meta reader.id */
};

/* struct trace_buffer_desc */
struct rb_trace_desc {
	s32 nr_cpus;
	u32 __pad;
	u64 struct_len;		/* whole descriptor, header included */
	u8 data[];		/* nr_cpus packed struct rb_desc_cpu */
};

_Static_assert(sizeof(struct rb_desc_cpu) == 16, "ring_buffer_desc header");
_Static_assert(sizeof(struct rb_trace_desc) == 16, "trace_buffer_desc header");

static inline u64 rb_desc_cpu_size(u32 nr_pages)
{
	return sizeof(struct rb_desc_cpu) + 8ULL * nr_pages;
}

static inline u64 rb_desc_size(u32 nr_cpus, u32 nr_pages)
{
	return sizeof(struct rb_trace_desc) +
	       (u64)nr_cpus * rb_desc_cpu_size(nr_pages);
}

/*
 * Data pages per CPU for @size bytes, the reader page included: the rule of
 * the kernel's own descriptor sizing (__calc_nr_pages_ring_buffer_desc).
 * Exact for every @size: nothing here can wrap.
 */
static inline u64 rb_nr_data_pages(u64 size, u64 page_capacity)
{
	u64 pages = size / page_capacity + (size % page_capacity != 0);

	return (pages > 2 ? pages : 2) + 1;
}

/* What rb_load_pages() answers when the count does not fit in 64 bits */
#define RB_LOAD_PAGES_OVERFLOW	(~0ULL)

/*
 * Pages of @page_size a load of @nr_pages data pages per CPU takes from the
 * carve-out: the descriptor, then per CPU a meta page and the data pages.
 * Any @nr_pages, so that a refusal can say what an absurd size needs.
 */
static inline u64 rb_load_pages(u32 nr_cpus, u64 nr_pages, u64 page_size)
{
	u64 entry, desc, data;

	if (__builtin_mul_overflow(nr_pages, sizeof(u64), &entry) ||
	    __builtin_add_overflow(entry, sizeof(struct rb_desc_cpu), &entry) ||
	    __builtin_mul_overflow(entry, (u64)nr_cpus, &desc) ||
	    __builtin_add_overflow(desc, sizeof(struct rb_trace_desc) +
				   page_size - 1, &desc) ||
	    __builtin_add_overflow(nr_pages, 1, &data) ||
	    __builtin_mul_overflow(data, (u64)nr_cpus, &data) ||
	    __builtin_add_overflow(desc / page_size, data, &data))
		return RB_LOAD_PAGES_OVERFLOW;
	return data;
}

/* Entry @index, or NULL if it lies outside the @size bytes of @desc. */
static inline struct rb_desc_cpu *rb_desc_entry(struct rb_trace_desc *desc,
						u64 size, u32 index)
{
	u8 *p = desc->data;
	u64 off = sizeof(*desc);
	u32 i;

	for (i = 0; ; i++) {
		struct rb_desc_cpu *e = (struct rb_desc_cpu *)p;

		if (off + sizeof(*e) > size ||
		    off + rb_desc_cpu_size(e->nr_page_va) > size)
			return (struct rb_desc_cpu *)0;
		if (i == index)
			return e;
		off += rb_desc_cpu_size(e->nr_page_va);
		p += rb_desc_cpu_size(e->nr_page_va);
	}
}

/*
 * Entry @index of a descriptor rb_desc_check() accepted, where every entry
 * has the first one's size: no walk.
 */
static inline struct rb_desc_cpu *rb_desc_checked_entry(struct rb_trace_desc *desc,
							u32 index)
{
	const struct rb_desc_cpu *first = (const struct rb_desc_cpu *)desc->data;

	return (struct rb_desc_cpu *)(desc->data + (u64)index *
				      rb_desc_cpu_size(first->nr_page_va));
}

int rb_desc_fill(struct rb_trace_desc *desc, u64 size,
		 struct rb_cpu *const *cpus, u32 nr_cpus);
int rb_desc_check(struct rb_trace_desc *desc, u64 size, u32 max_cpus);

#endif /* HYPTRACE_SHARED_TRACE_DESC_H */
