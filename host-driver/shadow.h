/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The meta pages trace_remote reads instead of the shared ones:
 * shadow_set.c makes them for either remote, shadow.c keeps the live
 * buffer's counters in them, last_boot_remote.c the last boot's.
 */
#ifndef HYPTRACE_HOST_SHADOW_H
#define HYPTRACE_HOST_SHADOW_H

#include <linux/spinlock.h>

#include "ring_buffer.h"
#include "trace_desc.h"

/**
 * struct hyptrace_shadow - one CPU's meta page as trace_remote reads it
 * @meta:	ours: what trace_remote reads
 * @shared:	the hypervisor's
 * @page_va:	the data pages as trace_remote numbers them (its descriptor)
 * @lock:	orders the copies of the live counters into @meta (shadow.c):
 *		the last to publish must be the last to load
 * @nr_pages:	reader ids are below this
 * @handed_back: data events on the pages read and swapped back since a reset
 * @live:	the live buffer's (shadow.c): @hyp the counters as last
 *		copied from @shared, @offset on entries for the reader's count,
 *		@guess where the search for it started, @misses swaps in a row
 *		that could not answer
 * @lb:		the last boot's (last_boot_remote.c): @base the hypervisor's
 *		id of trace_remote's page 0, @kept pages from 0 hold events,
 *		@total events on them
 */
struct hyptrace_shadow {
	struct rb_meta *meta;
	const struct rb_meta *shared;
	raw_spinlock_t lock;
	u64 *page_va;
	u32 nr_pages;
	u64 handed_back;
	union {
		struct {
			struct rb_counters hyp;
			s64 offset, guess;
			u32 misses;
		} live;
		struct {
			u32 base, kept;
			u64 total;
		} lb;
	};
};

/**
 * struct hyptrace_shadow_set - every CPU's, and the descriptor for them
 * @desc:	what trace_remote gets: the hypervisor's, with our meta pages
 * @nr:		CPUs
 * @cpu:	each CPU's
 */
struct hyptrace_shadow_set {
	struct rb_trace_desc *desc;
	unsigned int nr;
	struct hyptrace_shadow cpu[] __counted_by(nr);
};

/* shadow_set.c */
struct hyptrace_shadow_set *hyptrace_shadow_set_alloc(const struct rb_trace_desc *desc,
						      size_t len);
void hyptrace_shadow_set_free(struct hyptrace_shadow_set *set);
void hyptrace_shadow_init(struct hyptrace_shadow *s, const u64 *hyp_page_va,
			  u32 base, const struct rb_counters *c);
void hyptrace_shadow_publish(struct hyptrace_shadow *s,
			     const struct rb_counters *c);
struct rb_data_page *hyptrace_shadow_page(const struct hyptrace_shadow *s,
					  u32 id);
void hyptrace_shadow_hand(struct hyptrace_shadow *s, unsigned int cpu, u32 id,
			  u64 done, const char *reader);

/* shadow.c: the live buffer's */
struct rb_trace_desc *hyptrace_shadow_alloc(struct rb_trace_desc *desc,
					    size_t len);
void hyptrace_shadow_free(void);
int hyptrace_shadow_swap(unsigned int cpu, int (*hyp_swap)(unsigned int cpu));
void hyptrace_shadow_reset(unsigned int cpu);
void hyptrace_shadow_lost(void);
void hyptrace_shadow_refresh(void);
void hyptrace_shadow_guard_all(void);

/* remote_readers.c: trace and trace_pipe copy the counters as they open */
struct dentry;
int hyptrace_remote_hook_readers(struct dentry *remote, unsigned int nr_cpus);

#endif /* HYPTRACE_HOST_SHADOW_H */
