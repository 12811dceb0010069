// SPDX-License-Identifier: GPL-2.0
/*
 * maint_probe: a known storm of TLB and cache maintenance on one CPU, for
 * hyptrace's maintenance window (hyp/arch/maint_window.c).
 *
 *   insmod maint_probe.ko		the storm (below), then
 *   insmod maint_probe.ko op=call	HYPTRACE_CALL_MAINT_WINDOW with a bad
 *					operation and a duration too long
 *
 * The storm, with interrupts off so that nothing else on this CPU comes
 * between, over a buffer of PAGES pages:
 *   DC CVAC of its first line (ends any run before),
 *   DC CIVAC of each of its lines,
 *   TLBI VAALE1IS of each of its pages (operand VA[55:12]), DSB ISH,
 *   DC CVAC of its first line (ends the TLBI run).
 * The window records the middle two as one maint_run each: dc civac with
 * count = lines, first = the buffer, last = its last line; tlbi vaale1is
 * with count = PAGES, first and last the operands of its first and last
 * page. Its lines say what it did:
 *   maint_probe: @cpu=C buf=0xVA lines=N line=L pages=P tlbi_first=0x..
 *   tlbi_last=0x..
 * Without the window the same instructions simply run at EL1.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/arm-smccc.h>
#include <linux/gfp.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <asm/cache.h>
#include <asm/sysreg.h>

#include "hyptrace_abi.h"

#define PAGES		16
#define PAGES_ORDER	4
#define TLBI_VA(va)	(((va) >> 12) & GENMASK_ULL(43, 0))

static char *op = "storm";
module_param(op, charp, 0);

static unsigned long dline_size(void)
{
	/* CTR_EL0.DminLine: log2 of the smallest line, in 4-byte words */
	return 4UL << ((read_sysreg(ctr_el0) >> 16) & 0xf);
}

static int storm(void)
{
	unsigned long buf, line = dline_size(), va, flags;
	unsigned int lines = PAGES * PAGE_SIZE / line, cpu;

	buf = __get_free_pages(GFP_KERNEL, PAGES_ORDER);
	if (!buf)
		return -ENOMEM;
	memset((void *)buf, 0x5a, PAGES * PAGE_SIZE);
	local_irq_save(flags);
	cpu = smp_processor_id();
	asm volatile("dc cvac, %0" : : "r" (buf) : "memory");
	for (va = buf; va < buf + PAGES * PAGE_SIZE; va += line)
		asm volatile("dc civac, %0" : : "r" (va) : "memory");
	asm volatile("dsb ish" : : : "memory");
	for (va = buf; va < buf + PAGES * PAGE_SIZE; va += PAGE_SIZE)
		asm volatile("tlbi vaale1is, %0" : : "r" (TLBI_VA(va)) : "memory");
	asm volatile("dsb ish\n\tisb" : : : "memory");
	asm volatile("dc cvac, %0" : : "r" (buf) : "memory");
	asm volatile("dsb ish" : : : "memory");
	local_irq_restore(flags);
	pr_info("@cpu=%u buf=0x%lx lines=%u line=%lu pages=%u tlbi_first=0x%llx tlbi_last=0x%llx\n",
		cpu, buf, lines, line, PAGES, TLBI_VA(buf),
		TLBI_VA(buf + (PAGES - 1) * PAGE_SIZE));
	free_pages(buf, PAGES_ORDER);
	return 0;
}

static long maint_call(unsigned long op_arg, unsigned long ns)
{
	struct arm_smccc_res res;

	arm_smccc_1_1_hvc(HYPTRACE_CALL_MAINT_WINDOW, op_arg, ns, &res);
	return (long)res.a0;
}

static int calls(void)
{
	pr_info("@bad_op=%ld\n", maint_call(HYPTRACE_MAINT_QUERY + 1, 0));
	pr_info("@too_long=%ld\n",
		maint_call(HYPTRACE_MAINT_ARM, HYPTRACE_MAINT_MAX_NS + 1));
	pr_info("@query=%ld\n", maint_call(HYPTRACE_MAINT_QUERY, 0));
	return 0;
}

static int __init maint_probe_init(void)
{
	if (!strcmp(op, "storm"))
		return storm();
	if (!strcmp(op, "call"))
		return calls();
	return -EINVAL;
}

static void __exit maint_probe_exit(void)
{
}

module_init(maint_probe_init);
module_exit(maint_probe_exit);

MODULE_DESCRIPTION("hyptrace test: a known TLBI and DC by VA storm");
MODULE_LICENSE("GPL");
