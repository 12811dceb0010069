// SPDX-License-Identifier: GPL-2.0
/*
 * The meta pages trace_remote reads, for either remote: our own copies,
 * never the shared ones, in a descriptor of our own (why: shadow.c). The
 * live buffer's (shadow.c) and the last boot's (last_boot_remote.c) differ
 * only in the values they put in them; the pages, the descriptor that
 * points trace_remote at them, the meta page as trace_remote first reads
 * it (its page order, its reader and its counters) and the hand-over of
 * a reader page at a swap are here, once.
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
 * hypervisor's as it is now; the caller makes each CPU's what trace_remote
 * is to read with hyptrace_shadow_init() before it hands @desc over.
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
		e->meta_va = (unsigned long)s->meta;
	}
	return set;

fail:
	hyptrace_shadow_set_free(set);
	return NULL;
}

/**
 * hyptrace_shadow_init() - one CPU's meta page as trace_remote first reads it
 * @s:		the CPU's shadow (hyptrace_shadow_set_alloc())
 * @hyp_page_va: the hypervisor's data pages, in its order
 * @base:	the hypervisor's id of the page that becomes trace_remote's
 *		page 0: its reader page, where the kernel's reader starts
 *		(0 for the live buffer, which buffer.c checked starts there;
 *		the last boot's, wherever the hypervisor's reader stopped)
 * @c:		the counters to show
 *
 * The pages are turned so that @base comes first, and the reader is at the
 * start of page 0 with nothing lost: trace_remote reads every other field
 * of the meta page from the start, so nothing of the hypervisor's is left
 * in them.
 */
void hyptrace_shadow_init(struct hyptrace_shadow *s, const u64 *hyp_page_va,
			  u32 base, const struct rb_counters *c)
{
	u32 id;

	for (id = 0; id < s->nr_pages; id++)
		s->page_va[id] = hyp_page_va[(base + id) % s->nr_pages];
	s->meta->reader.id = 0;
	s->meta->reader.read = 0;
	s->meta->reader.lost_events = 0;
	s->meta->read = 0;
	hyptrace_shadow_publish(s, c);
}

/**
 * hyptrace_shadow_publish() - the counters trace_remote reads from @s
 * @s:		the CPU's shadow
 * @c:		entries, overrun, pages lost and touched; @c->read is the
 *		reader's own and is not written
 *
 * WRITE_ONCE: trace_remote reads them under no lock of ours.
 */
void hyptrace_shadow_publish(struct hyptrace_shadow *s,
			     const struct rb_counters *c)
{
	WRITE_ONCE(s->meta->entries, c->entries);
	WRITE_ONCE(s->meta->overrun, c->overrun);
	WRITE_ONCE(s->meta->pages_touched, c->pages_touched);
	WRITE_ONCE(s->meta->pages_lost, c->pages_lost);
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
