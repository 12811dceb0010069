// SPDX-License-Identifier: GPL-2.0
/*
 * setway_probe: data-cache maintenance by set/way at EL1, on every online
 * CPU: DC ISW, DC CSW and DC CISW of level 1, set 0, way 0.
 *
 *   insmod setway_probe.ko
 *
 * An invalidate by set/way would discard whatever that line holds dirty,
 * the hypervisor's data included; hyptrace traps all three (HCR_EL2.TSW)
 * and performs each as a clean and invalidate (hyp/arch/setway.c), so
 * each shows in its trace as a trap with EC 0x18 and the instruction
 * completes at EL1, nothing injected. Without such a hypervisor they run
 * at EL1 untrapped. QEMU models no caches: what this shows is the trap
 * and its handling, not the cache's contents.
 *
 * Linux never does this itself; test use only. The last line is
 *   setway_probe: 3 set/way operations on each of N CPUs
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/module.h>
#include <linux/smp.h>

static void setway_ops(void *unused)
{
	u64 setway = 0;		/* level 1 (field 0), set 0, way 0 */

	asm volatile("dc isw, %0\n\t"
		     "dc csw, %0\n\t"
		     "dc cisw, %0\n\t"
		     "dsb sy" : : "r" (setway) : "memory");
}

static int __init setway_probe_init(void)
{
	on_each_cpu(setway_ops, NULL, 1);
	pr_info("3 set/way operations on each of %u CPUs\n", num_online_cpus());
	return 0;
}

module_init(setway_probe_init);

MODULE_DESCRIPTION("hyptrace test: cache maintenance by set/way from EL1");
MODULE_LICENSE("GPL");
