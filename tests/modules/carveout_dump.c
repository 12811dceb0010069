// SPDX-License-Identifier: GPL-2.0
/*
 * carveout_dump: print one CPU's trace pages, raw, for a host-side decoder.
 *
 *   insmod carveout_dump.ko cpu=N
 *
 * Reads the descriptor the hypervisor keeps at the start of the trace
 * carve-out (shared/trace_desc.h) while a buffer is loaded and prints every
 * data page of CPU N, reader page first, as lines
 *
 *   carveout_dump: page <id> <offset> <32 bytes in hex>
 *
 * Loading always fails with -EAGAIN after printing, so that it can be run
 * again. Test use only: it trusts the descriptor as far as bounds checks
 * against the carve-out allow, nothing more.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hex.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "hyptrace_abi.h"
#include "region.h"
/* The hypervisor's own descriptor checks, compiled in unchanged */
#include "trace_desc.c"

static uint cpu;
module_param(cpu, uint, 0444);
MODULE_PARM_DESC(cpu, "CPU whose pages to print");

#define DUMP_LINE	32

static void dump_trace_page(u32 id, const u8 *page)
{
	char hex[DUMP_LINE * 2 + 1];
	u32 off;

	for (off = 0; off < PAGE_SIZE; off += DUMP_LINE) {
		bin2hex(hex, page + off, DUMP_LINE);
		hex[DUMP_LINE * 2] = '\0';
		pr_info("page %u %u %s\n", id, off, hex);
	}
}

static int __init carveout_dump_init(void)
{
	struct rb_trace_desc *desc;
	struct rb_desc_cpu *e;
	struct resource res;
	void *base;
	u32 id;
	int err;

	base = test_map_region(HYPTRACE_CARVEOUT_COMPATIBLE, &res);
	if (IS_ERR(base))
		return PTR_ERR(base);

	desc = base;
	err = -EINVAL;
	/* Any count TRACE_QUERY can express */
	if (rb_desc_check(desc, resource_size(&res), HYPTRACE_QUERY_NR_CPUS(~0UL)))
		goto out;
	e = rb_desc_entry(desc, desc->struct_len, cpu);
	if (!e)
		goto out;
	for (id = 0; id < e->nr_page_va; id++) {
		u64 pa = e->page_va[id];

		if (pa < res.start || pa + PAGE_SIZE > res.end + 1)
			goto out;
		dump_trace_page(id, base + (pa - res.start));
	}
	pr_info("done cpu=%u pages=%u\n", cpu, e->nr_page_va);
	err = -EAGAIN;
out:
	memunmap(base);
	return err;
}

module_init(carveout_dump_init);

MODULE_DESCRIPTION("hyptrace test: print one CPU's raw trace pages");
MODULE_LICENSE("GPL");
