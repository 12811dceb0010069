// SPDX-License-Identifier: GPL-2.0
/*
 * Loading the hypervisor's buffers and describing them to the kernel.
 *
 * TRACE_LOAD leaves a descriptor of every CPU's meta and data pages at the
 * start of the carve-out, in physical addresses. The readers (trace_remote's,
 * whose struct trace_buffer_desc has the same layout, and the module's own)
 * want it in kernel virtual addresses, unchanged for as long as the buffer
 * is loaded. So the module copies it out of the carve-out first (what it
 * checks is then what the readers read, even if the hypervisor's copy
 * changes), checks it with the hypervisor's own checker, then rewrites each
 * address into the carve-out mapping, refusing any that points elsewhere:
 * the readers will dereference every one of them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/ratelimit.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "hyptrace.h"

bool hyptrace_carveout_holds(const struct hyptrace *ht, u64 pa, u64 len)
{
	return pa >= ht->carveout_base && len <= ht->carveout_size &&
	       pa - ht->carveout_base <= ht->carveout_size - len;
}

/* Rewrite the page address *@addr into the carve-out mapping. */
static int translate(const struct hyptrace *ht, u64 *addr)
{
	if (!PAGE_ALIGNED(*addr) || !hyptrace_carveout_holds(ht, *addr, PAGE_SIZE))
		return -EINVAL;
	*addr = (unsigned long)ht->carveout + (*addr - ht->carveout_base);
	return 0;
}

/*
 * What the hypervisor needs for @size bytes per CPU, by the rule it uses
 * itself (shared/trace_desc.h), so that a user who asked for too much
 * learns how much the carve-out can take. Every figure is exact, however
 * absurd @size, and one line per interval is enough: a script that retries
 * in a loop must not flood the log.
 */
static void report_no_memory(const struct hyptrace *ht, unsigned long size)
{
	static DEFINE_RATELIMIT_STATE(rs, DEFAULT_RATELIMIT_INTERVAL, 1);
	u64 pages = rb_load_pages(ht->nr_cpus,
				  rb_nr_data_pages(size, RB_PAGE_CAPACITY),
				  PAGE_SIZE);
	size_t holds = ht->carveout_size >> PAGE_SHIFT;

	if (!__ratelimit(&rs))
		return;
	if (pages == RB_LOAD_PAGES_OVERFLOW)
		pr_err("buffer_size_kb %lu needs more than %llu pages for %u CPUs and the carve-out holds %zu\n",
		       size >> 10, pages, ht->nr_cpus, holds);
	else if (pages > holds)
		pr_err("buffer_size_kb %lu needs %llu pages for %u CPUs and the carve-out holds %zu\n",
		       size >> 10, pages, ht->nr_cpus, holds);
	else
		pr_err("buffer_size_kb %lu needs %llu pages for %u CPUs; the carve-out holds %zu, but the hypervisor cannot track that many\n",
		       size >> 10, pages, ht->nr_cpus, holds);
}

/*
 * Check the copy @desc of @len bytes and point it at the carve-out mapping:
 * the live buffer's, and the last boot's (last_boot.c).
 */
int hyptrace_import_desc(const struct hyptrace *ht, struct rb_trace_desc *desc,
			 u64 len, const char *what)
{
	unsigned int last_cpu = cpumask_last(cpu_possible_mask);
	struct rb_desc_cpu *e;
	u32 i, id;

	/*
	 * The CPU count first: the check walks every entry, and the count is
	 * the hypervisor's word until it is held to what TRACE_QUERY said.
	 */
	if (desc->nr_cpus <= 0 || (u32)desc->nr_cpus > ht->nr_cpus) {
		pr_err("%s: the hypervisor's buffer descriptor has %d CPUs, TRACE_QUERY said %u\n",
		       what, desc->nr_cpus, ht->nr_cpus);
		return -EPROTO;
	}
	if (rb_desc_check(desc, len, ht->nr_cpus)) {
		pr_err("%s: the hypervisor's buffer descriptor is malformed\n",
		       what);
		return -EPROTO;
	}
	/* The kernel looks up every possible CPU's pages when it comes online */
	if (last_cpu >= (u32)desc->nr_cpus) {
		pr_err("%s: the hypervisor describes %d CPUs, Linux may run CPU %u\n",
		       what, desc->nr_cpus, last_cpu);
		return -EPROTO;
	}
	for (i = 0; i < (u32)desc->nr_cpus; i++) {
		struct rb_meta *meta;

		e = rb_desc_checked_entry(desc, i);
		if (translate(ht, &e->meta_va))
			goto outside;
		for (id = 0; id < e->nr_page_va; id++) {
			if (translate(ht, &e->page_va[id]))
				goto outside;
		}
		/* The kernel takes page_va[0] as the reader, reader.id says so */
		meta = hyptrace_meta(e);
		if (READ_ONCE(meta->reader.id)) {
			pr_err("%s: CPU %u's buffer starts with reader page %u, not 0\n",
			       what, i, READ_ONCE(meta->reader.id));
			return -EPROTO;
		}
	}
	return 0;

outside:
	pr_err("%s: CPU %u's buffer has a page outside the carve-out\n", what,
	       i);
	return -EPROTO;
}

/*
 * The buffer just loaded is the early one the hypervisor has been writing
 * since its boot. Early capture ends here: writing stops, as a freshly
 * loaded buffer's is, so that tracing_on (0) tells the truth; writing 1 to
 * it goes on in the same buffer. Then the first clock update moves the
 * early stamps onto CLOCK_BOOTTIME, before any reader has seen a page.
 * Neither failure takes the buffer away: the events are still there.
 */
static void adopt_early(struct hyptrace *ht)
{
	if (hyptrace_call(HYPTRACE_CALL_TRACE_ENABLE, 0, 0, 0, 0, NULL, 0))
		pr_err("the early buffer: writing could not be stopped\n");
	if (hyptrace_clock_align())
		pr_err("the early buffer: its stamps stay on the hypervisor's boot clock (ns of counter since 0)\n");
}

/*
 * Load a buffer of @size bytes per CPU, with @ht->lock held: never NULL, an
 * ERR_PTR on failure (trace_remote would dereference NULL), and nothing left
 * loaded then. The front ends load through the live source
 * (hyptrace_live_load_locked()), which starts its readers' places over.
 */
struct rb_trace_desc *hyptrace_buffer_load_locked(struct hyptrace *ht,
						  unsigned long size)
{
	struct arm_smccc_res res;
	struct rb_trace_desc *desc;
	bool adopted;
	u64 pa, len;
	int ret;

	lockdep_assert_held(&ht->lock);
	if (ht->unload_deferred) {
		pr_info_ratelimited("the last buffer is still being read through trace_pipe_raw: close those files first\n");
		return ERR_PTR(-EBUSY);
	}
	if (WARN_ON(ht->desc))
		return ERR_PTR(-EBUSY);

	ret = hyptrace_call(HYPTRACE_CALL_TRACE_LOAD, size,
			    (ht->no_overwrite ? HYPTRACE_LOAD_NO_OVERWRITE : 0) |
			    (ht->early_pending ? HYPTRACE_LOAD_ADOPT : 0),
			    0, 0, &res, HYPTRACE_QUIET(HYPTRACE_RET_NO_MEMORY));
	if (ret == -ENOMEM)
		report_no_memory(ht, size);
	if (ret)
		return ERR_PTR(ret);

	pa = res.a1;
	len = res.a2;
	adopted = ht->early_pending && res.a3 == 1;
	ht->early_pending = false;
	if (len < sizeof(*desc) || !hyptrace_carveout_holds(ht, pa, len)) {
		pr_err("TRACE_LOAD put the descriptor at %#llx, %llu bytes, outside the carve-out\n",
		       pa, len);
		ret = -EPROTO;
		goto unload;
	}
	desc = kvmalloc(len, GFP_KERNEL);
	if (!desc) {
		ret = -ENOMEM;
		goto unload;
	}
	memcpy(desc, ht->carveout + (pa - ht->carveout_base), len);
	ret = hyptrace_import_desc(ht, desc, len, "TRACE_LOAD");
	if (ret) {
		kvfree(desc);
		goto unload;
	}
	ht->desc = desc;
	ht->desc_len = len;
	ht->lost = false;
	if (adopted)
		adopt_early(ht);
	return ht->desc;

unload:
	hyptrace_call(HYPTRACE_CALL_TRACE_UNLOAD, 0, 0, 0, 0, NULL, 0);
	return ERR_PTR(ret);
}

/*
 * trace_remote is done with the buffer: it has freed its reader, so nothing
 * of it points into the pages any more. The raw files may still be reading
 * them; then the last to close gives the pages back.
 */
void hyptrace_buffer_release(struct hyptrace *ht)
{
	mutex_lock(&ht->lock);
	if (ht->raw_open)
		ht->unload_deferred = true;
	else
		hyptrace_buffer_unload(ht);
	mutex_unlock(&ht->lock);
}

/* Nobody reads the pages any more: the hypervisor may have them back. */
void hyptrace_buffer_unload(struct hyptrace *ht)
{
	lockdep_assert_held(&ht->lock);
	/* A lost buffer is gone already (remote.c) */
	hyptrace_call(HYPTRACE_CALL_TRACE_UNLOAD, 0, 0, 0, 0, NULL,
		      ht->lost ? HYPTRACE_QUIET(HYPTRACE_RET_NOT_LOADED) : 0);
	kvfree(ht->desc);
	ht->desc = NULL;
	ht->unload_deferred = false;
}

/* @cpu's pages in the loaded buffer's descriptor */
struct rb_desc_cpu *hyptrace_desc_cpu(struct hyptrace *ht, unsigned int cpu)
{
	return rb_desc_checked_entry(ht->desc, cpu);
}
