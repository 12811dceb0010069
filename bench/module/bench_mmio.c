// SPDX-License-Identifier: GPL-2.0
/*
 * bench_mmio: instructions per access to a device register, untraced and
 * traced by the hypervisor (bench/guest/mmio_bench.sh runs it both ways).
 *
 *   insmod bench_mmio.ko n=20000 trace=1
 *
 * times n readl()s of the PL031's PERIPH_ID0 (a syndrome-described load:
 * the hypervisor's fast path), n ldp of two ID registers (no syndrome:
 * decoded and performed at EL2) and n SIMD loads of PERIPH_ID0 (not
 * decoded: let through under a software step) with interrupts off, and
 * prints "@bench mmio traced=T readl_ns=R ldp_ns=L simd_ns=S" with the
 * times per access.
 * Under -icount shift=0 a nanosecond is an instruction. trace=1 has the
 * hypervisor trace the PL031's page for the measurement
 * (HYPTRACE_CALL_MMIO_REGION), and stop after it; whether events are
 * recorded is the trace directory's business (mmio_read's enable,
 * tracing_on). The module stays loaded: rmmod it to run again.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/arm-smccc.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/of_address.h>
#include <asm/simd.h>

#include "bench_time.h"
#include "hyptrace_abi.h"

static unsigned int n = 20000;
module_param(n, uint, 0);
static bool trace;
module_param(trace, bool, 0);

#define RTC_PERIPH_ID0	0xfe0

static void readl_once(void *reg)
{
	readl((void __force __iomem *)reg);
}

static void ldp_once(void *reg)
{
	u32 a, b;

	asm volatile("ldp %w0, %w1, [%2]"
		     : "=&r" (a), "=&r" (b) : "r" (reg) : "memory");
}

static void simd_once(void *reg)
{
	asm volatile("ldr s0, [%0]" : : "r" (reg) : "memory");
}

static u64 time_simd(void __iomem *reg)
{
	u64 ns = 0;

	/* Interrupts go off inside: kernel_neon_begin() wants them on */
	scoped_ksimd()
		ns = bench_time_loop(n, simd_once, (void __force *)reg);
	return ns;
}

static long region(unsigned long op, phys_addr_t base)
{
	struct arm_smccc_res res;

	arm_smccc_1_1_hvc(HYPTRACE_CALL_MMIO_REGION, op, base, PAGE_SIZE,
			  HYPTRACE_MMIO_R | HYPTRACE_MMIO_W, &res);
	return (long)res.a0;
}

static int __init bench_mmio_init(void)
{
	struct device_node *np = of_find_compatible_node(NULL, NULL,
							 "arm,pl031");
	struct resource res;
	void __iomem *rtc;
	u64 t_readl, t_ldp, t_simd;
	long ret;

	if (!np || of_address_to_resource(np, 0, &res) || !n) {
		of_node_put(np);
		return -ENODEV;
	}
	of_node_put(np);
	rtc = ioremap(res.start, PAGE_SIZE);
	if (!rtc)
		return -ENOMEM;
	if (trace) {
		ret = region(HYPTRACE_MMIO_ADD, res.start);
		if (ret) {
			pr_err("MMIO_REGION add answered %ld\n", ret);
			iounmap(rtc);
			return -EIO;
		}
	}
	t_readl = bench_time_loop(n, readl_once,
				  (void __force *)(rtc + RTC_PERIPH_ID0));
	t_ldp = bench_time_loop(n, ldp_once,
				(void __force *)(rtc + RTC_PERIPH_ID0));
	t_simd = time_simd(rtc + RTC_PERIPH_ID0);
	if (trace)
		region(HYPTRACE_MMIO_REMOVE, res.start);
	iounmap(rtc);
	pr_info("@bench mmio traced=%d readl_ns=%llu ldp_ns=%llu simd_ns=%llu n=%u\n",
		trace, t_readl / n, t_ldp / n, t_simd / n, n);
	return 0;
}
module_init(bench_mmio_init);

static void __exit bench_mmio_exit(void)
{
}
module_exit(bench_mmio_exit);

MODULE_DESCRIPTION("Instructions per traced MMIO access, for make bench");
MODULE_LICENSE("GPL");
