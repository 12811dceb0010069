// SPDX-License-Identifier: GPL-2.0
/*
 * carveout_scribble: random writes into every page the hypervisor shares
 * with Linux, from every online CPU at once, while the hypervisor writes
 * events there.
 *
 *   insmod carveout_scribble.ko [seconds=10] [targets=7] [events=1] [seed=N]
 *				  [stray=1]
 *
 * With a buffer loaded (tracing on), it finds the trace carve-out as
 * hyptrace.ko does (the device tree's /reserved-memory node), reads the
 * descriptor the hypervisor left at its start and so learns which pages are
 * in use: the descriptor, every CPU's meta page and data pages. Every other
 * byte of the carve-out (the descriptor page's tail, the pages beyond the
 * loaded ones) is a guard: filled with an address-dependent pattern first,
 * checked last. The hypervisor must never write there, nor into its own
 * image (IMAGE_SUM before and after, ABI 1.3) or the canary behind it.
 *
 * Then for @seconds one kthread per online CPU writes random 8-byte values
 * (anything, small numbers, the edges of a page) at random places of the
 * targets (@targets: 1 the descriptor, 2 the meta pages, 4 the data pages),
 * and, with @events, makes TRACE_WRITE_EVENT hypercalls between bursts, so
 * that every CPU traces at full rate into the pages being scribbled on.
 * hyptrace.ko's own readers (trace_pipe_raw, stats) may meanwhile give
 * errors or nonsense, never an oops. The kernel's remote ring buffer
 * (trace, trace_pipe) trusts these pages and does oops: see
 * tests/boot/58-scribble.sh.
 *
 * Afterwards every online CPU must answer a hypercall (none is stuck at
 * EL2). The last line is
 *
 *   carveout_scribble: result seconds=S cpus=C seed=X targets=T writes=N
 *	desc_writes=.. meta_writes=.. data_writes=.. events=.. pages=..
 *	guard_bytes=.. guard=intact|CHANGED sum=same|... canary=intact|...
 *	cpus_alive=C
 *
 * Loading fails with -EIO when a check failed, after printing the line;
 * stray=1 writes into the carve-out's last guard word to show it does.
 * Test use only: it corrupts the trace on purpose.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "hyptrace_abi_linux.h"
#include "crew.h"
#include "hostile.h"

#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/vmalloc.h>

#include "region.h"

/* The hypervisor's own descriptor checks, compiled in unchanged */
#include "trace_desc.c"

static uint seconds = 10;
module_param(seconds, uint, 0444);
MODULE_PARM_DESC(seconds, "how long to scribble");

static uint targets = 7;
module_param(targets, uint, 0444);
MODULE_PARM_DESC(targets, "what to scribble on: 1 descriptor, 2 meta pages, 4 data pages");

static bool events = true;
module_param(events, bool, 0444);
MODULE_PARM_DESC(events, "write selftest events between bursts");

/* Tests the test: a guard write the checks must report */
static bool stray;
module_param(stray, bool, 0444);
MODULE_PARM_DESC(stray, "also write one word into a guard area (must fail)");

static ulong seed;
module_param(seed, ulong, 0444);
MODULE_PARM_DESC(seed, "random seed (0: pick one; the result line shows it)");

#define T_DESC		1U
#define T_META		2U
#define T_DATA		4U
#define BURST		64

/* What the threads scribble on: kernel addresses in the carve-out mapping */
static void *carveout;
static u64 desc_len;
static void **meta_pages, **data_pages;
static unsigned int nr_meta, nr_data;

struct scribbler {
	struct task_struct *task;
	u64 rng;
	unsigned long desc_writes, meta_writes, data_writes, events;
};

static struct scribbler *scribblers;
static struct crew crew;
static unsigned long deadline;

static u64 rnd(struct scribbler *s)
{
	return hostile_rnd(&s->rng);
}

/* Values that make a reader's checks matter: ids, lengths, page edges */
static u64 rnd_value(struct scribbler *s)
{
	switch (rnd(s) % 6) {
	case 0:
		return rnd(s) % 16;
	case 1:
		return PAGE_SIZE - 16 + rnd(s) % 32;
	case 2:
		return ~0ULL - rnd(s) % 4;
	case 3:
		return rnd(s) & 0xffffffff;
	default:
		return rnd(s);
	}
}

/* The guard pattern: where it was read tells where it was written */
static u64 guard_word(u64 offset)
{
	return 0x7363726962626c65ULL ^ (offset * 0x9e3779b97f4a7c15ULL);
}

static void scribble_page(struct scribbler *s, void *page)
{
	u64 *word = page + (rnd(s) % (PAGE_SIZE / 8)) * 8;

	WRITE_ONCE(*word, rnd_value(s));
}

static void scribble_burst(struct scribbler *s)
{
	unsigned int i, kind;

	for (i = 0; i < BURST; i++) {
		kind = 1U << (rnd(s) % 3);
		if (!(targets & kind))
			continue;
		if (kind == T_DESC) {
			u64 *word = carveout + (rnd(s) % (desc_len / 8)) * 8;

			WRITE_ONCE(*word, rnd_value(s));
			s->desc_writes++;
		} else if (kind == T_META) {
			scribble_page(s, meta_pages[rnd(s) % nr_meta]);
			s->meta_writes++;
		} else {
			scribble_page(s, data_pages[rnd(s) % nr_data]);
			s->data_writes++;
		}
	}
}

static int scribble_thread(void *data)
{
	struct scribbler *s = data;
	struct arm_smccc_res res;
	unsigned int i;

	while (time_before(jiffies, deadline) && !kthread_should_stop()) {
		scribble_burst(s);
		for (i = 0; events && i < BURST / 4; i++) {
			arm_smccc_1_1_hvc(HYPTRACE_CALL_TRACE_WRITE_EVENT,
					  rnd(s), 0, 0, 0, &res);
			s->events++;
		}
		/* The readers and the module's clock work share our CPU */
		cond_resched();
	}
	return crew_member_exit(&crew);
}

/*
 * Learn the pages in use from a copy of the descriptor (the threads will
 * scribble on the original) and mark them in @used, one bit a page.
 */
static int find_pages(u64 base, u64 size, unsigned long *used)
{
	struct rb_trace_desc *desc;
	struct rb_desc_cpu *e;
	u64 len, pa;
	u32 cpu, id;
	int err = -EINVAL;

	len = READ_ONCE(((struct rb_trace_desc *)carveout)->struct_len);
	if (len < sizeof(*desc) || len > size) {
		pr_err("no buffer loaded (descriptor length %llu): turn tracing on first\n",
		       len);
		return -ENODATA;
	}
	desc = kvmalloc(len, GFP_KERNEL);
	if (!desc)
		return -ENOMEM;
	memcpy(desc, carveout, len);
	if (rb_desc_check(desc, len, nr_cpu_ids)) {
		pr_err("the descriptor is malformed: is a buffer loaded?\n");
		goto out;
	}
	desc_len = len;
	nr_meta = desc->nr_cpus;
	e = rb_desc_entry(desc, desc->struct_len, 0);
	nr_data = nr_meta * e->nr_page_va;
	meta_pages = kcalloc(nr_meta, sizeof(void *), GFP_KERNEL);
	data_pages = kcalloc(nr_data, sizeof(void *), GFP_KERNEL);
	err = -ENOMEM;
	if (!meta_pages || !data_pages)
		goto out;
	err = -EINVAL;
	bitmap_set(used, 0, DIV_ROUND_UP(len, PAGE_SIZE));
	nr_data = 0;
	for (cpu = 0; cpu < nr_meta; cpu++) {
		e = rb_desc_entry(desc, desc->struct_len, cpu);
		for (id = 0; id <= e->nr_page_va; id++) {
			pa = id ? e->page_va[id - 1] : e->meta_va;
			if (pa < base || pa - base > size - PAGE_SIZE ||
			    !PAGE_ALIGNED(pa)) {
				pr_err("CPU %u page %u at %#llx is outside the carve-out\n",
				       cpu, id, pa);
				goto out;
			}
			__set_bit((pa - base) >> PAGE_SHIFT, used);
			if (id)
				data_pages[nr_data++] = carveout + (pa - base);
			else
				meta_pages[cpu] = carveout + (pa - base);
		}
	}
	err = 0;
out:
	kvfree(desc);
	return err;
}

/* Fill (or, with @check, verify) every guard word; returns the bad offset */
static u64 guard_pass(u64 size, const unsigned long *used, bool check,
		 u64 *bytes)
{
	u64 off, page, *word;

	*bytes = 0;
	for (off = ALIGN(desc_len, 8); off < size; off += 8) {
		page = off >> PAGE_SHIFT;
		/* the descriptor's last page is a guard beyond its end */
		if (test_bit(page, used) && off >= PAGE_ALIGN(desc_len)) {
			off = ((page + 1) << PAGE_SHIFT) - 8;
			continue;
		}
		word = carveout + off;
		if (check && READ_ONCE(*word) != guard_word(off))
			return off;
		if (!check)
			WRITE_ONCE(*word, guard_word(off));
		*bytes += 8;
		if (!(off & (SZ_1M - 1)))
			cond_resched();
	}
	return ~0ULL;
}

static atomic_t alive;

static void answer(void *unused)
{
	struct arm_smccc_res res;

	arm_smccc_1_1_hvc(HYPTRACE_CALL_VERSION, 0, 0, 0, 0, &res);
	if ((long)res.a0 == HYPTRACE_RET_SUCCESS)
		atomic_inc(&alive);
}

static int __init carveout_scribble_init(void)
{
	unsigned long desc_writes = 0, meta_writes = 0, data_writes = 0;
	unsigned long nr_events = 0, *used = NULL;
	u64 sum_before = 0, sum_after = 0, bad = 0, guard_bytes, guard_bad;
	bool have_sum, sum_ok, canary_ok;
	unsigned int cpu, nr = 0;
	struct resource res;
	u64 base, size;
	int err;

	carveout = test_map_region(HYPTRACE_CARVEOUT_COMPATIBLE, &res);
	if (IS_ERR(carveout))
		return PTR_ERR(carveout);
	base = res.start;
	size = resource_size(&res);
	used = bitmap_zalloc(size >> PAGE_SHIFT, GFP_KERNEL);
	err = -ENOMEM;
	if (!used)
		goto out;
	err = find_pages(base, size, used);
	if (err)
		goto out;
	if (!nr_data || !nr_meta) {
		err = -EINVAL;
		goto out;
	}
	guard_pass(size, used, false, &guard_bytes);
	have_sum = hostile_image_sum(&sum_before, &bad);
	if (!seed)
		seed = get_random_u64() | 1;

	cpus_read_lock();
	scribblers = kcalloc(nr_cpu_ids, sizeof(*scribblers), GFP_KERNEL);
	if (!scribblers) {
		cpus_read_unlock();
		err = -ENOMEM;
		goto out;
	}
	crew_init(&crew);
	deadline = jiffies + seconds * HZ;
	for_each_online_cpu(cpu) {
		struct scribbler *s = &scribblers[cpu];

		s->rng = seed * (2 * cpu + 1) ?: 1;
		s->task = kthread_create_on_cpu(scribble_thread, s, cpu,
						"scribble/%u");
		if (IS_ERR(s->task)) {
			s->task = NULL;
			crew_member_done(&crew);
		}
		nr++;
	}
	for_each_online_cpu(cpu) {
		if (scribblers[cpu].task)
			wake_up_process(scribblers[cpu].task);
	}
	crew_wait(&crew);
	for_each_online_cpu(cpu) {
		struct scribbler *s = &scribblers[cpu];

		if (s->task)
			kthread_stop(s->task);
		desc_writes += s->desc_writes;
		meta_writes += s->meta_writes;
		data_writes += s->data_writes;
		nr_events += s->events;
	}
	if (stray)
		WRITE_ONCE(*(u64 *)(carveout + size - 8), 0);
	/* Every CPU comes back from EL2: none hangs there */
	on_each_cpu(answer, NULL, 1);
	cpus_read_unlock();

	guard_bad = guard_pass(size, used, true, &guard_bytes);
	sum_ok = !have_sum;
	canary_ok = !have_sum;
	if (have_sum && hostile_image_sum(&sum_after, &bad)) {
		sum_ok = sum_after == sum_before;
		canary_ok = !bad;
	}
	pr_info("result seconds=%u cpus=%u seed=%#lx targets=%u writes=%lu desc_writes=%lu meta_writes=%lu data_writes=%lu events=%lu pages=%u guard_bytes=%llu guard=%s sum=%s canary=%s cpus_alive=%d\n",
		seconds, nr, seed, targets,
		desc_writes + meta_writes + data_writes, desc_writes,
		meta_writes, data_writes, nr_events, nr_meta + nr_data,
		guard_bytes, guard_bad == ~0ULL ? "intact" : "CHANGED",
		!have_sum ? "unsupported" : sum_ok ? "same" : "CHANGED",
		!have_sum ? "unknown" : canary_ok ? "intact" : "CORRUPTED",
		atomic_read(&alive));
	if (guard_bad != ~0ULL)
		pr_err("guard word at carve-out offset %#llx (%pa + %#llx) is %#llx, not %#llx\n",
		       guard_bad, &res.start, guard_bad,
		       *(u64 *)(carveout + guard_bad), guard_word(guard_bad));
	if (!sum_ok)
		pr_err("IMAGE_SUM %#llx before, %#llx after\n", sum_before,
		       sum_after);
	if (!canary_ok)
		pr_err("memory canary changed at %#llx\n", bad);
	err = guard_bad != ~0ULL || !sum_ok || !canary_ok ||
	      atomic_read(&alive) != nr ? -EIO : 0;
	kfree(scribblers);
out:
	kfree(meta_pages);
	kfree(data_pages);
	bitmap_free(used);
	memunmap(carveout);
	return err;
}

static void __exit carveout_scribble_exit(void)
{
}

module_init(carveout_scribble_init);
module_exit(carveout_scribble_exit);

MODULE_DESCRIPTION("hyptrace test: scribble on the shared trace pages");
MODULE_LICENSE("GPL");
