/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The previous boot's buffer (ABI 1.5, HYPTRACE_CALL_TRACE_LAST_BOOT):
 * last_boot.c finds and checks it, and is the source (source.h) of what
 * both front ends show, with the release file; last_boot_remote.c or
 * last_boot_fallback.c show it, read-only.
 */
#ifndef HYPTRACE_HOST_LAST_BOOT_H
#define HYPTRACE_HOST_LAST_BOOT_H

#include <linux/mutex.h>
#include <linux/types.h>

#include "source.h"
#include "trace_desc.h"

struct file_operations;
struct hyptrace;

/* What last_boot.c found on one CPU's pages, in the hypervisor's order */
struct hyptrace_lb_cpu {
	u32 kept;		/* page_va[0..kept-1] are the pages kept */
	/*
	 * Their commits as checked at load, cut at any damage found since:
	 * the readers walk up to these, never to what the shared page says
	 * now (READ_ONCE/WRITE_ONCE: a reader may cut one while another walks)
	 */
	u32 *commit;
	u64 events;		/* data events on them, as the module counted */
	u64 pages_lost;		/* pages of this CPU the hypervisor dropped */
	u64 hyp_entries;	/* what the hypervisor's meta page said */
	u32 taken;		/* pages the text readers took (fallback) */
};

/*
 * The last boot, once checked. @lock orders the release against the
 * readers: the raw files (@raw_open) and the front end's (@frontend_busy).
 */
struct hyptrace_last_boot {
	struct hyptrace *ht;
	struct rb_trace_desc *desc;	/* the checked copy, carve-out VAs */
	size_t desc_len;
	unsigned int nr_cpus;
	u64 dropped;			/* QUERY's x3: pages dropped, all CPUs */
	u64 kept;			/* pages kept, all CPUs */
	struct hyptrace_lb_cpu *cpu;

	struct mutex lock;
	unsigned int raw_open;		/* trace_pipe_raw files open */
	bool frontend_busy;		/* the front end holds the pages */
	bool released;			/* given back: nothing to show */
	struct hyptrace_source src;	/* what the readers read */
};

/* last_boot.c */
int hyptrace_last_boot_init(struct hyptrace *ht);
void hyptrace_panic_notifier_init(struct hyptrace *ht);
struct hyptrace_last_boot *hyptrace_last_boot(struct hyptrace_source *src);
extern const struct file_operations hyptrace_lb_release_fops;

#endif /* HYPTRACE_HOST_LAST_BOOT_H */
