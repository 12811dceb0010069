// SPDX-License-Identifier: GPL-2.0
/*
 * undef_probe: execute at EL1 an instruction that the hypervisor traps but
 * does not handle, and let Linux show what it got.
 *
 *   insmod undef_probe.ko
 *   echo 1 > /sys/kernel/debug/undef_probe	# in a process that may die
 *
 * Each write reads ACTLR_EL1 on the writer's CPU. hyptrace traps that
 * register on every CPU model (HCR_EL2.TACR: it is IMPLEMENTATION DEFINED
 * and Linux never touches it), even on QEMU 7.2's cortex-a57, where nothing
 * else an EL1 kernel does reaches EL2 unasked, and it has no handler for
 * it. So the read is UNDEFINED at EL1, as an access the CPU does not allow
 * would be without EL2: Linux says "Internal error: Oops - Undefined
 * instruction" with its pc in undef_probe_write(), kills the writing
 * process and goes on. Without such a hypervisor the read works and the
 * module prints what it read.
 *
 * The probe runs from a debugfs write rather than from module init: the
 * oops kills the task that runs it, and a module whose init died can never
 * be loaded again, while the file can be written once per CPU. Nothing holds
 * a lock across the read that a second writer would wait for. There is no
 * module_exit: the file stays until the guest stops.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/smp.h>
#include <asm/sysreg.h>

static ssize_t undef_probe_write(struct file *file, const char __user *buf,
				 size_t count, loff_t *ppos)
{
	u64 actlr;

	pr_info("CPU %d: reading ACTLR_EL1\n", raw_smp_processor_id());
	actlr = read_sysreg(actlr_el1);
	pr_info("CPU %d: ACTLR_EL1 is 0x%llx: the read was not trapped\n",
		raw_smp_processor_id(), actlr);
	return count;
}

static const struct file_operations undef_probe_fops = {
	.owner = THIS_MODULE,
	.write = undef_probe_write,
};

static int __init undef_probe_init(void)
{
	struct dentry *d;

	d = debugfs_create_file(KBUILD_MODNAME, 0200, NULL, NULL,
				&undef_probe_fops);
	if (IS_ERR(d))
		return PTR_ERR(d);
	pr_info("write to /sys/kernel/debug/" KBUILD_MODNAME " to read ACTLR_EL1\n");
	return 0;
}

module_init(undef_probe_init);

MODULE_DESCRIPTION("hyptrace test: an instruction the hypervisor traps and does not handle");
MODULE_LICENSE("GPL");
