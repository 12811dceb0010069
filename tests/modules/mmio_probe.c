// SPDX-License-Identifier: GPL-2.0
/*
 * mmio_probe: known accesses to a device the hypervisor traces, for
 * tests/boot/93-mmio-trace.sh.
 *
 *   insmod mmio_probe.ko op=seq	the PL031 RTC: a readl/readb/readw/
 *					writel sequence, between two selftest
 *					markers (ids 0x6d6d01 and 0x6d6d02)
 *   insmod mmio_probe.ko op=ldp	accesses without a syndrome, between
 *					two markers (0x6d6d03, 0x6d6d04): an
 *					ldp of two PL031 ID registers, a
 *					post-indexed ldr, a pre-indexed
 *					ldrsb, a pre-indexed stp
 *					of CR and IMSC as they were, a
 *					post-indexed ldp with SP as its
 *					base; then a SIMD load, which stays
 *					unhandled
 *   insmod mmio_probe.ko op=call	HYPTRACE_CALL_MMIO_REGION with what
 *					it must refuse, and a good add/remove
 *
 * Each prints its results as "mmio_probe: @key=value" lines. The sequence
 * runs with interrupts off on one CPU, so that the trace of that CPU
 * between the markers holds exactly its accesses. The module never stays
 * loaded (init fails with ECANCELED after the work), so it can be run again.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/arm-smccc.h>
#include <linux/io.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/gfp.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/of_address.h>
#include <linux/smp.h>
#include <asm/simd.h>

#include "hyptrace_abi.h"

static char *op = "seq";
module_param(op, charp, 0);

#define RTC_MR		0x04	/* match register: read/write, no effect */
#define RTC_DR		0x00	/* data register: the time, read only */
#define RTC_PERIPH_ID0	0xfe0	/* 0x31 */
#define RTC_PERIPH_ID1	0xfe4	/* 0x10 */
#define RTC_CELL_ID0	0xff0	/* 0x0d */
#define RTC_CELL_ID3	0xffc	/* 0xb1: negative as a signed byte */
#define RTC_CR		0x0c	/* control: read/write */
#define RTC_IMSC	0x10	/* interrupt mask: read/write */
#define MARK_START	0x6d6d01
#define MARK_END	0x6d6d02
#define MARK_LDP_START	0x6d6d03
#define MARK_LDP_END	0x6d6d04

static long hcall(u32 fid, u64 a1, u64 a2, u64 a3, u64 a4,
		  struct arm_smccc_res *res)
{
	arm_smccc_1_1_hvc(fid, a1, a2, a3, a4, res);
	return (long)res->a0;
}

static void mark(u64 id)
{
	struct arm_smccc_res res;

	hcall(HYPTRACE_CALL_TRACE_WRITE_EVENT, id, 0, 0, 0, &res);
}

static int seq(void __iomem *rtc)
{
	u32 id0, mr, mr_back, dr;
	u8 id1;
	u16 cell0;
	unsigned long flags;
	int cpu;

	local_irq_save(flags);
	cpu = smp_processor_id();
	mark(MARK_START);
	id0 = readl(rtc + RTC_PERIPH_ID0);
	id1 = readb(rtc + RTC_PERIPH_ID1);
	cell0 = readw(rtc + RTC_CELL_ID0);
	mr = readl(rtc + RTC_MR);
	writel(0x12345678, rtc + RTC_MR);
	mr_back = readl(rtc + RTC_MR);
	writel(mr, rtc + RTC_MR);
	dr = readl(rtc + RTC_DR);
	mark(MARK_END);
	local_irq_restore(flags);
	pr_info("@cpu=%d @id0=0x%x @id1=0x%x @cell0=0x%x @mr=0x%x @mr_back=0x%x @dr=0x%x\n",
		cpu, id0, id1, cell0, mr, mr_back, dr);
	return 0;
}

/*
 * ESR_EL2.ISV is 0 for each of these: the hypervisor decodes them. CR and
 * IMSC are written back as they were, so the device stays as it was.
 */
static int ldp(void __iomem *rtc)
{
	void __iomem *p = rtc + RTC_PERIPH_ID0, *q = rtc + RTC_IMSC;
	void __iomem *r = rtc + RTC_CELL_ID3 + 4, *s = rtc + RTC_PERIPH_ID0;
	u32 a, b, c, cr, imsc, simd, d, e;
	unsigned long sp;
	unsigned long flags;
	u64 sb;
	int cpu;

	local_irq_save(flags);
	cpu = smp_processor_id();
	cr = readl(rtc + RTC_CR);
	imsc = readl(rtc + RTC_IMSC);
	mark(MARK_LDP_START);
	asm volatile("ldp %w0, %w1, [%2]" : "=&r" (a), "=&r" (b) : "r" (p));
	asm volatile("ldr %w0, [%1], #4" : "=&r" (c), "+r" (p));
	asm volatile("ldrsb %0, [%1, #-4]!" : "=r" (sb), "+r" (r));
	asm volatile("stp %w1, %w2, [%0, #-4]!"
		     : "+r" (q) : "r" (cr), "r" (imsc) : "memory");
	/*
	 * Register 31 as a base is SP (SP_EL1 here): pointed at the device
	 * (16-byte aligned) for one post-indexed ldp, with interrupts off
	 * and no memory access of ours in between, then put back
	 */
	asm volatile("mov	%2, sp\n\t"
		     "mov	sp, %3\n\t"
		     "ldp	%w0, %w1, [sp], #8\n\t"
		     "mov	%3, sp\n\t"
		     "mov	sp, %2"
		     : "=&r" (d), "=&r" (e), "=&r" (sp), "+r" (s));
	mark(MARK_LDP_END);
	local_irq_restore(flags);
	/* A SIMD&FP load: not decoded, let through and still performed */
	scoped_ksimd()
		asm volatile("ldr s0, [%1]\n\tfmov %w0, s0"
			     : "=r" (simd) : "r" (rtc + RTC_PERIPH_ID0));
	pr_info("@ldp_cpu=%d @ldp0=0x%x @ldp1=0x%x @post=0x%x @post_next=%s @sb=0x%llx @sb_base=%s @cr=0x%x @imsc=0x%x @stp_base=%s @sp0=0x%x @sp1=0x%x @sp_base=%s @simd=0x%x\n",
		cpu, a, b, c, p == rtc + RTC_PERIPH_ID1 ? "ok" : "wrong", sb,
		r == rtc + RTC_CELL_ID3 ? "ok" : "wrong", cr, imsc,
		q == rtc + RTC_CR ? "ok" : "wrong", d, e,
		s == rtc + RTC_PERIPH_ID0 + 8 ? "ok" : "wrong", simd);
	return 0;
}

static void call_one(const char *what, u64 a1, u64 a2, u64 a3, u64 a4)
{
	struct arm_smccc_res res;

	pr_info("@%s=%ld\n", what,
		hcall(HYPTRACE_CALL_MMIO_REGION, a1, a2, a3, a4, &res));
}

static int calls(phys_addr_t rtc)
{
	unsigned long page = __get_free_page(GFP_KERNEL);
	struct device_node *np;
	struct resource hyp;

	if (!page)
		return -ENOMEM;
	/* A page of Linux's own RAM */
	call_one("ram", HYPTRACE_MMIO_ADD, virt_to_phys((void *)page), 0x1000,
		 HYPTRACE_MMIO_R);
	free_page(page);
	np = of_find_compatible_node(NULL, NULL, HYPTRACE_HYP_MEM_COMPATIBLE);
	if (np && !of_address_to_resource(np, 0, &hyp))
		call_one("hyp", HYPTRACE_MMIO_ADD, hyp.start, 0x1000,
			 HYPTRACE_MMIO_R | HYPTRACE_MMIO_W);
	of_node_put(np);
	call_one("zero_size", HYPTRACE_MMIO_ADD, rtc, 0, HYPTRACE_MMIO_R);
	call_one("wrap", HYPTRACE_MMIO_ADD, ~0xfffULL, 0x2000,
		 HYPTRACE_MMIO_R);
	call_one("bad_mode", HYPTRACE_MMIO_ADD, rtc, 0x1000, 4);
	call_one("bad_op", 7, rtc, 0x1000, HYPTRACE_MMIO_R);
	call_one("traced", HYPTRACE_MMIO_ADD, rtc, 0x1000, HYPTRACE_MMIO_R);
	call_one("remove_none", HYPTRACE_MMIO_REMOVE, rtc + 0x100000, 0x1000,
		 0);
	return 0;
}

static int __init mmio_probe_init(void)
{
	struct device_node *np = of_find_compatible_node(NULL, NULL,
							 "arm,pl031");
	struct resource res;
	void __iomem *rtc;
	int ret = -EINVAL;

	if (!np || of_address_to_resource(np, 0, &res)) {
		of_node_put(np);
		pr_err("no arm,pl031 node\n");
		return -ENODEV;
	}
	of_node_put(np);
	if (!strcmp(op, "call"))
		return calls(res.start);
	rtc = ioremap(res.start, resource_size(&res));
	if (!rtc)
		return -ENOMEM;
	if (!strcmp(op, "seq"))
		ret = seq(rtc);
	else if (!strcmp(op, "ldp"))
		ret = ldp(rtc);
	iounmap(rtc);
	return ret;
}
module_init(mmio_probe_init);

static void __exit mmio_probe_exit(void)
{
}
module_exit(mmio_probe_exit);

MODULE_DESCRIPTION("Known accesses to a traced device, for hyptrace's tests");
MODULE_LICENSE("GPL");
