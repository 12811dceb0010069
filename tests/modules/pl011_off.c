// SPDX-License-Identifier: GPL-2.0
/*
 * pl011_off: disable the PL011 the hypervisor prints to, as a kernel that
 * shuts its UART down (or a bug) would, so that a test can check that the
 * hypervisor's printing (SYSTEM_OFF's line) cannot hang the machine.
 *
 *   insmod pl011_off.ko
 *
 * clears UARTCR's UARTEN and TXE on the first "arm,pl011" node in the
 * device tree and prints the control register before and after. Linux's
 * own PL011 console turns the UART back on around each of its writes and
 * restores the register after, so the kernel's lines still come out.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bits.h>
#include <linux/init.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/of_address.h>

#define UART_CR		0x30		/* control register */
#define UART_CR_UARTEN	BIT(0)		/* UART enable */
#define UART_CR_TXE	BIT(8)		/* transmit enable */

static int __init pl011_off_init(void)
{
	struct device_node *np;
	void __iomem *base;
	u32 before, after;

	np = of_find_compatible_node(NULL, NULL, "arm,pl011");
	if (!np)
		return -ENODEV;
	base = of_iomap(np, 0);
	of_node_put(np);
	if (!base)
		return -ENOMEM;
	before = readl(base + UART_CR);
	writel(before & ~(UART_CR_UARTEN | UART_CR_TXE), base + UART_CR);
	after = readl(base + UART_CR);
	pr_info("UARTCR 0x%x -> 0x%x: %s\n", before, after,
		after & (UART_CR_UARTEN | UART_CR_TXE) ? "still on" : "off");
	iounmap(base);
	return 0;
}

module_init(pl011_off_init);

MODULE_DESCRIPTION("hyptrace test: disable the PL011 the hypervisor prints to");
MODULE_LICENSE("GPL");
