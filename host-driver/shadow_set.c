// SPDX-License-Identifier: GPL-2.0
/*
 * The meta pages trace_remote reads, for either remote: our own copies,
 * never the shared ones, in a descriptor of our own (why: shadow.c). The
 * live buffer's (shadow.c) and the last boot's (last_boot_remote.c) differ
 * only in the values they put in them; the pages, the descriptor that
 * points trace_remote at them, and the hand-over of a reader page at a
 * swap are here, once.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "hyptrace.h"
#include "shadow.h"

/**
 * hyptrace_shadow_set_alloc() - the descriptor trace_remote gets
 * @desc:	the hypervisor's, checked (buffer.c, last_boot.c)
 * @len:	its bytes
 *
 * A copy of @desc whose meta pages are ours, each a copy of the
 * hypervisor's as it is now with the reader on page 0; the caller sets
 * their counters, and may reorder the copy's pages (@cpu[].page_va).
 *
 * Return: the set, or NULL when there is no memory for it.
 */
struct hyptrace_shadow_set *hyptrace_shadow_set_alloc(const struct rb_trace_desc *desc,
						      size_t len)
{
	unsigned int cpu, nr = desc->nr_cpus;
	struct hyptrace_shadow_set *set;

	set = kzalloc(struct_size(set, cpu, nr), GFP_KERNEL);
	if (!set)
		return NULL;
	set->nr = nr;
	set->desc = kvmemdup(desc, len, GFP_KERNEL);
	if (!set->desc)
		goto fail;
	for (cpu = 0; cpu < nr; cpu++) {
		struct rb_desc_cpu *e = rb_desc_checked_entry(set->desc, cpu);
		struct hyptrace_shadow *s = &set->cpu[cpu];

		s->meta = (struct rb_meta *)get_zeroed_page(GFP_KERNEL);
		if (!s->meta)
			goto fail;
		raw_spin_lock_init(&s->lock);
		s->shared = hyptrace_meta(e);
		s->nr_pages = e->nr_page_va;
		s->page_va = e->page_va;
		memcpy(s->meta, s->shared, sizeof(*s->meta));
		s->meta->reader.id = 0;
		e->meta_va = (unsigned long)s->meta;
	}
	return set;

fail:
	hyptrace_shadow_set_free(set);
	return NULL;
}

/**
 * hyptrace_shadow_set_free() - free what hyptrace_shadow_set_alloc() made
 * @set:	the set, or NULL
 */
void hyptrace_shadow_set_free(struct hyptrace_shadow_set *set)
{
	unsigned int cpu;

	if (!set)
		return;
	for (cpu = 0; cpu < set->nr; cpu++)
		free_page((unsigned long)set->cpu[cpu].meta);
	kvfree(set->desc);
	kfree(set);
}

/**
 * hyptrace_shadow_page() - a data page as trace_remote numbers them
 * @s:		the CPU's shadow
 * @id:		below @s->nr_pages
 *
 * Return: the page, in the carve-out mapping.
 */
struct rb_data_page *hyptrace_shadow_page(const struct hyptrace_shadow *s,
					  u32 id)
{
	return (struct rb_data_page *)(unsigned long)s->page_va[id];
}

/**
 * hyptrace_shadow_hand() - give trace_remote's reader of @cpu page @id
 * @s:		the CPU's shadow
 * @cpu:	the CPU
 * @id:		the new reader page, checked by the caller: one of the
 *		buffer's, not the one being given back
 * @done:	the events on the page given back, counted before the swap
 *		(the writer may reuse it after)
 * @reader:	names the reader in a damage report
 *
 * The page is cut at any damage first: the kernel reads it in place,
 * trusting every length.
 */
void hyptrace_shadow_hand(struct hyptrace_shadow *s, unsigned int cpu, u32 id,
			  u64 done, const char *reader)
{
	hyptrace_page_guard(cpu, reader, hyptrace_shadow_page(s, id));
	s->handed_back += done;
	s->meta->reader.id = id;
}
