// SPDX-License-Identifier: GPL-2.0
/*
 * impdef_probe: read an IMPLEMENTATION DEFINED register at EL1 on every
 * online CPU, twice: L2CTLR_EL1 (S3_1_C11_C0_2), which QEMU's Cortex-A57
 * model (and "max", built on it) implements as readable at EL1.
 *
 *   insmod impdef_probe.ko
 *
 * hyptrace traps IMPLEMENTATION DEFINED registers (HCR_EL2.TIDCP) as a
 * canary: the first access on a CPU is recorded (an impdef_sysreg event),
 * the trap comes off on that CPU and the access runs at EL1 as it would
 * without EL2 (hyp/arch/cpu_state.c). So each CPU's first read is one
 * event, its second none, and both read the same value. The last line is
 *   impdef_probe: L2CTLR_EL1 read twice on each of N CPUs, N reads agreed
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/smp.h>
#include <asm/sysreg.h>

static atomic_t agreed;

static void impdef_reads(void *unused)
{
	u64 first = read_sysreg_s(sys_reg(3, 1, 11, 0, 2));
	u64 second = read_sysreg_s(sys_reg(3, 1, 11, 0, 2));

	if (first == second)
		atomic_inc(&agreed);
}

static int __init impdef_probe_init(void)
{
	on_each_cpu(impdef_reads, NULL, 1);
	pr_info("L2CTLR_EL1 read twice on each of %u CPUs, %d reads agreed\n",
		num_online_cpus(), atomic_read(&agreed));
	return 0;
}

module_init(impdef_probe_init);

MODULE_DESCRIPTION("hyptrace test: an IMPLEMENTATION DEFINED register read at EL1");
MODULE_LICENSE("GPL");
