// SPDX-License-Identifier: GPL-2.0
/*
 * hyp_poke: reach from EL1 into the hypervisor's own memory, as a buggy or
 * hostile kernel could, and let Linux show what it got.
 *
 *   insmod hyp_poke.ko
 *   echo "w 0x1400" > /sys/kernel/debug/hyp_poke	# in a process that may die
 *   echo "r 0x0" > /sys/kernel/debug/hyp_poke
 *
 * The region is the /reserved-memory node the hypervisor adds for itself
 * (HYPTRACE_HYP_MEM_COMPATIBLE), mapped write-back as any driver could map
 * no-map memory. "w OFFSET" stores 8 bytes of 0xbad... at OFFSET (0x1400 is
 * the hypervisor's vector for synchronous exceptions from EL1: the store
 * that would give EL1 code execution at EL2), "r OFFSET" loads 8 bytes.
 * With stage 2, either access is a synchronous external abort: Linux says
 * "Internal error: synchronous external abort", kills the writing process
 * and goes on. Without it the access works and the module says so.
 *
 * As in undef_probe, the access runs from a debugfs write, so that the oops
 * kills only the writer and the file can be written again.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/of_reserved_mem.h>
#include <linux/smp.h>
#include "hyptrace_abi.h"

#define POKE_VALUE	0xbadc0ffee0ddf00dULL

static void *region;
static phys_addr_t region_base;
static phys_addr_t region_size;

static ssize_t hyp_poke_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char buf[32], op;
	unsigned long long off;
	u64 *p;

	if (count >= sizeof(buf) || copy_from_user(buf, ubuf, count))
		return -EINVAL;
	buf[count] = '\0';
	if (sscanf(buf, "%c %llx", &op, &off) != 2 || (op != 'r' && op != 'w') ||
	    off > region_size - sizeof(u64) || off % sizeof(u64))
		return -EINVAL;

	p = region + off;
	pr_info("CPU %d: %s 8 bytes at %pa + %#llx\n", raw_smp_processor_id(),
		op == 'w' ? "writing" : "reading", &region_base, off);
	if (op == 'w') {
		WRITE_ONCE(*p, POKE_VALUE);
		pr_info("CPU %d: wrote %#llx: the hypervisor's memory is writable\n",
			raw_smp_processor_id(), POKE_VALUE);
	} else {
		pr_info("CPU %d: read %#llx: the hypervisor's memory is readable\n",
			raw_smp_processor_id(), READ_ONCE(*p));
	}
	return count;
}

static const struct file_operations hyp_poke_fops = {
	.owner = THIS_MODULE,
	.write = hyp_poke_write,
};

static int __init hyp_poke_init(void)
{
	struct reserved_mem *rmem;
	struct device_node *np;
	struct dentry *d;

	np = of_find_compatible_node(NULL, NULL, HYPTRACE_HYP_MEM_COMPATIBLE);
	if (!np)
		return -ENODEV;
	rmem = of_reserved_mem_lookup(np);
	of_node_put(np);
	if (!rmem)
		return -ENODEV;
	region_base = rmem->base;
	region_size = rmem->size;
	region = memremap(region_base, region_size, MEMREMAP_WB);
	if (!region)
		return -ENOMEM;

	d = debugfs_create_file(KBUILD_MODNAME, 0200, NULL, NULL,
				&hyp_poke_fops);
	if (IS_ERR(d))
		return PTR_ERR(d);
	pr_info("the hypervisor's region is %pa, %pa bytes\n", &region_base,
		&region_size);
	return 0;
}

module_init(hyp_poke_init);

MODULE_DESCRIPTION("hyptrace test: EL1 loads and stores into the hypervisor's memory");
MODULE_LICENSE("GPL");
