// SPDX-License-Identifier: GPL-2.0
/*
 * hvc_probe: issue one SMCCC call with HVC #0 from EL1 and print the answer.
 *
 *   insmod hvc_probe.ko fid=0x8600ff01 [a1=..] [a2=..] [a3=..] [a4=..]
 *
 * prints
 *
 *   hvc_probe: fid=0x8600ff01 ret=<x0 as signed> a1=0x<x1> a2=0x<x2> a3=0x<x3>
 *
 * With clock=1 the call is a TRACE_UPDATE_CLOCK anchored now: x1, x2 the
 * counter's mult and shift from CNTFRQ_EL0 (unless a1 is given), x3 this
 * moment's CLOCK_BOOTTIME plus offset_ns, x4 the counter's value at it, so
 * that a test can step the hypervisor's clock by a chosen amount.
 *
 * Loading always succeeds, so that a test can rmmod and probe again. The
 * boot tests use it to check what the hypervisor answers to its own calls
 * and to IDs it does not know.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "hyptrace_abi_linux.h"

#include <linux/clocksource.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/timekeeping.h>

#include <asm/arch_timer.h>

static ulong fid = HYPTRACE_CALL_VERSION;
module_param(fid, ulong, 0444);
MODULE_PARM_DESC(fid, "SMCCC function ID (default: HYPTRACE_CALL_VERSION)");

static ulong a1;
module_param(a1, ulong, 0444);
MODULE_PARM_DESC(a1, "first argument, in x1");

static ulong a2;
module_param(a2, ulong, 0444);
MODULE_PARM_DESC(a2, "second argument, in x2");

static ulong a3;
module_param(a3, ulong, 0444);
MODULE_PARM_DESC(a3, "third argument, in x3");

static ulong a4;
module_param(a4, ulong, 0444);
MODULE_PARM_DESC(a4, "fourth argument, in x4");

static bool clock;
module_param(clock, bool, 0444);
MODULE_PARM_DESC(clock, "a clock update anchored now (see the top)");

static long offset_ns;
module_param(offset_ns, long, 0444);
MODULE_PARM_DESC(offset_ns, "with clock=1, added to CLOCK_BOOTTIME in x3");

static void clock_args(void)
{
	unsigned long flags;
	u32 mult, shift;

	/* As hyptrace.ko's clock: 10 minutes before a product overflows */
	clocks_calc_mult_shift(&mult, &shift, arch_timer_get_cntfrq(),
			       NSEC_PER_SEC, 600);
	if (!a1) {
		a1 = mult;
		a2 = shift;
	}
	local_irq_save(flags);
	a4 = __arch_counter_get_cntvct();
	a3 = ktime_get_boottime_ns() + offset_ns;
	local_irq_restore(flags);
}

static int __init hvc_probe_init(void)
{
	struct arm_smccc_res res;

	if (clock)
		clock_args();
	arm_smccc_1_1_hvc(fid, a1, a2, a3, a4, &res);
	pr_info("fid=0x%08lx ret=%ld a1=0x%lx a2=0x%lx a3=0x%lx\n",
		fid, (long)res.a0, res.a1, res.a2, res.a3);
	return 0;
}

static void __exit hvc_probe_exit(void)
{
}

module_init(hvc_probe_init);
module_exit(hvc_probe_exit);

MODULE_DESCRIPTION("hyptrace test: issue one SMCCC HVC and print the result");
MODULE_LICENSE("GPL");
