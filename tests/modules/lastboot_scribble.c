// SPDX-License-Identifier: GPL-2.0
/*
 * lastboot_scribble: break a few data pages of the loaded buffer on purpose,
 * just before a panic, so that the next boot must drop them and keep the
 * rest (tests/boot/89-last-boot.sh).
 *
 *   insmod lastboot_scribble.ko [cpu=1] [pages=2]
 *
 * With a buffer loaded and written, it reads the descriptor the hypervisor
 * left at the start of the carve-out and takes, on CPU @cpu, the @pages
 * oldest data pages that hold events, never the newest (the writer's).
 * Each gets its own kind of damage, in turn: a commit past the end of the
 * page; a first record whose length runs past the commit; a record of an
 * unknown type. The last line is
 *
 *   lastboot_scribble: result cpu=C pages=P records=R
 *
 * with R the records (events and time stamps) those pages held. Loading
 * fails with -ENODATA when the CPU has fewer pages to spare. Test use only.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "hyptrace_abi_linux.h"

#include <linux/io.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include "region.h"
#include "ring_buffer.h"

/* The hypervisor's own descriptor checks, compiled in unchanged */
#include "trace_desc.c"

static uint cpu = 1;
module_param(cpu, uint, 0444);
MODULE_PARM_DESC(cpu, "the CPU whose pages to break");

static uint pages = 2;
module_param(pages, uint, 0444);
MODULE_PARM_DESC(pages, "how many of its pages to break");

/* Records on a page, as far as they are well formed */
static u64 page_records(const struct rb_data_page *p)
{
	u64 commit = p->commit, n = 0;
	u32 off = 0, hdr, type, len;

	while (commit <= RB_PAGE_CAPACITY && off + 8 <= commit) {
		hdr = *(const u32 *)(p->data + off);
		type = hdr & 31;
		if (type == RB_TYPE_PADDING)
			break;
		if (type == 0)
			len = 4 + *(const u32 *)(p->data + off + 4);
		else if (type <= RB_TYPE_DATA_MAX)
			len = 4 + 4 * type;
		else
			len = RB_TS_EXTEND_SIZE;
		off += len;
		n++;
	}
	return n;
}

static void damage(struct rb_data_page *p, unsigned int kind)
{
	u32 *w = (u32 *)p->data;

	switch (kind % 3) {
	case 0:		/* commit past the page */
		WRITE_ONCE(p->commit, RB_PAGE_CAPACITY + 8);
		break;
	case 1:		/* a type-0 record longer than the commit */
		w[1] = 0xfff0;
		w[0] = 0;
		break;
	default:	/* a padding record over the page's end */
		w[1] = RB_PAGE_CAPACITY * 2;
		w[0] = RB_TYPE_PADDING | (1U << RB_TYPE_LEN_BITS);
		break;
	}
}

static int __init lastboot_scribble_init(void)
{
	struct rb_data_page *chosen[8];
	struct rb_trace_desc *desc;
	struct rb_desc_cpu *e;
	void *carveout;
	u64 base, size, len, pa, records = 0;
	unsigned int i, j, n = 0;
	int err = -EINVAL;

	if (!pages || pages > ARRAY_SIZE(chosen))
		return -EINVAL;
	carveout = test_map_carveout(&base, &size);
	if (IS_ERR(carveout))
		return PTR_ERR(carveout);
	desc = carveout;
	len = READ_ONCE(desc->struct_len);
	if (len < sizeof(*desc) || len > size ||
	    rb_desc_check(desc, len, nr_cpu_ids) || cpu >= desc->nr_cpus) {
		pr_err("no buffer loaded with CPU %u: turn tracing on first\n",
		       cpu);
		goto out;
	}
	e = rb_desc_entry(desc, len, cpu);
	/* The @pages oldest pages with events, and one newer left alone */
	for (;;) {
		struct rb_data_page *best = NULL, *p;
		u64 newest = 0;

		for (i = 0; i < e->nr_page_va; i++) {
			pa = e->page_va[i];
			if (pa < base || pa - base > size - PAGE_SIZE)
				goto out;
			p = carveout + (pa - base);
			if (!p->commit || p->commit > RB_PAGE_CAPACITY)
				continue;
			newest = max(newest, p->time_stamp);
			for (j = 0; j < n && chosen[j] != p; j++)
				;
			if (j == n && (!best || p->time_stamp < best->time_stamp))
				best = p;
		}
		if (!best || best->time_stamp == newest)
			break;
		chosen[n++] = best;
		if (n == pages)
			break;
	}
	if (n < pages) {
		pr_err("CPU %u has %u pages with events besides the newest, %u asked for\n",
		       cpu, n, pages);
		err = -ENODATA;
		goto out;
	}
	for (i = 0; i < n; i++) {
		records += page_records(chosen[i]);
		damage(chosen[i], i);
	}
	/* HOST_PANIC cleans the buffer, these pages too, to RAM */
	pr_info("result cpu=%u pages=%u records=%llu\n", cpu, n, records);
	err = 0;
out:
	memunmap(carveout);
	return err;
}
module_init(lastboot_scribble_init);

static void __exit lastboot_scribble_exit(void)
{
}
module_exit(lastboot_scribble_exit);

MODULE_DESCRIPTION("hyptrace test: break data pages before a panic");
MODULE_LICENSE("GPL");
