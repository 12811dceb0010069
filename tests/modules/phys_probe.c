// SPDX-License-Identifier: GPL-2.0
/*
 * phys_probe: EL1 reads and writes of physical addresses the hypervisor's
 * stage 2 has an opinion about, for tests/boot/41-fw-memory and the Pi's
 * spin table (48-raspi3b):
 *
 *   insmod phys_probe.ko
 *   echo "r 0x9030fe0" > /sys/kernel/debug/phys_probe	# registers (ioremap)
 *   echo "m 0x4a000000" > /sys/kernel/debug/phys_probe	# memory (memremap WB)
 *   echo "w 0xf0" > /sys/kernel/debug/phys_probe	# a write (memremap WB)
 *
 * "r" loads 32 bits through a Device mapping, as a driver reads a
 * register; "m" loads 64 bits through a write-back mapping, as a driver
 * reads memory it shares with firmware (a no-map reserved region); "w"
 * stores 64 bits through one, as Linux's smp_spin_table.c writes a
 * cpu-release-addr (with a value no CPU could run: it must never get
 * there). Each prints what it read or wrote. Where stage 2 keeps the address from Linux the load
 * is a synchronous external abort, which kills only the writing process
 * (the access runs from a debugfs write, as in hyp_poke).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/smp.h>

#define PROBE_WRITE_VALUE	0xbadc0ffee0ddf00dULL

static ssize_t phys_probe_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	char buf[32], op;
	unsigned long long addr;
	phys_addr_t page, off;
	void __iomem *io;
	void *mem;

	if (count >= sizeof(buf) || copy_from_user(buf, ubuf, count))
		return -EINVAL;
	buf[count] = '\0';
	if (sscanf(buf, "%c %llx", &op, &addr) != 2 ||
	    (op != 'r' && op != 'm' && op != 'w') ||
	    addr % 8)
		return -EINVAL;
	page = addr & PAGE_MASK;
	off = addr & ~PAGE_MASK;
	pr_info("CPU %d: %s %#llx (%s)\n", raw_smp_processor_id(),
		op == 'w' ? "writing" : "reading", addr,
		op == 'r' ? "device" : "write-back");
	if (op == 'r') {
		io = ioremap(page, PAGE_SIZE);
		if (!io)
			return -ENOMEM;
		pr_info("read %#x at %#llx\n", readl(io + off), addr);
		iounmap(io);
	} else {
		mem = memremap(page, PAGE_SIZE, MEMREMAP_WB);
		if (!mem)
			return -ENOMEM;
		if (op == 'w') {
			WRITE_ONCE(*(u64 *)(mem + off), PROBE_WRITE_VALUE);
			pr_info("wrote at %#llx\n", addr);
		} else {
			pr_info("read %#llx at %#llx\n",
				(unsigned long long)READ_ONCE(*(u64 *)(mem + off)),
				addr);
		}
		memunmap(mem);
	}
	return count;
}

static const struct file_operations phys_probe_fops = {
	.owner = THIS_MODULE,
	.write = phys_probe_write,
};

static int __init phys_probe_init(void)
{
	struct dentry *d = debugfs_create_file(KBUILD_MODNAME, 0200, NULL, NULL,
					       &phys_probe_fops);

	return PTR_ERR_OR_ZERO(d);
}

module_init(phys_probe_init);

MODULE_DESCRIPTION("hyptrace test: EL1 loads and stores at physical addresses");
MODULE_LICENSE("GPL");
