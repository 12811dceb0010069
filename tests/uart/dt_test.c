// SPDX-License-Identifier: GPL-2.0
/*
 * hyp/platform/dt_console.c on the host, with the system's libfdt, on
 * dt/boards.dts: /chosen/stdout-path is set to each case in turn, and the
 * console found (driver, translated base, reg-shift, reg-io-width) or its
 * absence is checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>
#include <libfdt.h>
#include "dt_console.h"
#include "dt_tree.h"
#include "hyp_mem.h"
#include "panic.h"
#include "check.h"

/* uart.c is linked for its driver table; nothing here touches a device */
u64 fake_read_cntfrq_el0(void)
{
	return 1;
}

u64 fake_read_cntpct_el0(void)
{
	return 0;
}

u32 fake_mmio_read(phys_addr_t addr, unsigned int width)
{
	(void)addr;
	(void)width;
	abort();
}

void fake_mmio_write(phys_addr_t addr, unsigned int width, u32 val)
{
	(void)addr;
	(void)width;
	(void)val;
	abort();
}

/* dt_tree.c's index lives in the hypervisor's boot memory; here, the heap */
void *hyp_mem_alloc_boot(u64 size, u64 align, const char *what)
{
	void *p;

	(void)what;
	if (posix_memalign(&p, align, size))
		abort();
	return p;
}

void hyp_panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("Bail out! hyp_panic: ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	exit(1);
}

struct dt_case {
	const char *stdout_path;	/* NULL: no property */
	const struct uart_driver *drv;	/* NULL: no console */
	u64 base;
	unsigned int shift, width;
	const char *what;
};

static const struct dt_case cases[] = {
	{ "serial0", &uart_pl011, 0x9000000, 0, 4, "an alias" },
	{ "serial0:115200n8", &uart_pl011, 0x9000000, 0, 4,
	  "an alias with options" },
	{ "/pl011@9000000:115200n8", &uart_pl011, 0x9000000, 0, 4,
	  "a path with options" },
	{ "/sbsa@9010000", &uart_pl011, 0x9010000, 0, 4, "an SBSA UART" },
	{ "serial1", &uart_bcm2835aux, 0xfe215040, 2, 4,
	  "Pi 4 mini-UART through /soc ranges, reg-shift 2 by default" },
	{ "serial2:1500000n8", &uart_8250, 0xfe301000, 2, 4,
	  "dw-apb-uart through ranges of two buses" },
	{ "/soc/apb/serial@1000", &uart_8250, 0xfe301000, 2, 4,
	  "the same by its path" },
	{ "rk", &uart_8250, 0xff1a0000, 2, 4,
	  "RK3399: reg-shift 2, reg-io-width 4" },
	{ "/serial@30890000", &uart_imx, 0x30890000, 0, 4,
	  "i.MX8MP, fsl,imx*-uart" },
	{ "/serial@ff000000", &uart_cdns, 0xff000000, 0, 4, "ZynqMP Cadence" },
	{ "/serial@e0000000", &uart_cdns, 0xe0000000, 0, 4,
	  "Zynq Cadence, xlnx,xuartps first" },
	{ "/serial@10000000", &uart_8250, 0x10000040, 0, 1,
	  "ns16550a with reg-offset, byte registers" },
	{ "/serial@10002000", &uart_pl011, 0x10002000, 0, 4,
	  "a PL011 ignores reg-shift and reg-io-width" },
	{ "/soc/serial@7e202000", NULL, 0, 0, 0, "unknown compatible" },
	{ "/serial@30a60000", NULL, 0, 0, 0,
	  "fsl,imx8mp-uartx is not fsl,imx*-uart" },
	{ "/soc/serial@7e201000", NULL, 0, 0, 0, "a disabled UART" },
	{ "/soc/serial@7f900000", NULL, 0, 0, 0, "reg outside the bus's ranges" },
	{ "/serial@10001000", NULL, 0, 0, 0, "reg-io-width 3" },
	{ "/nonexistent", NULL, 0, 0, 0, "a path to no node" },
	{ "serial9", NULL, 0, 0, 0, "an alias that does not exist" },
	{ "", NULL, 0, 0, 0, "an empty stdout-path" },
	{ NULL, NULL, 0, 0, 0, "no stdout-path" },
};


static void *load(const char *file, size_t room)
{
	FILE *f = fopen(file, "rb");
	static char raw[1 << 16];
	size_t n;
	void *fdt;

	if (!f) {
		perror(file);
		exit(2);
	}
	n = fread(raw, 1, sizeof(raw), f);
	fclose(f);
	fdt = malloc(n + room);
	if (!fdt || fdt_open_into(raw, fdt, n + room)) {
		fprintf(stderr, "%s: not a device tree\n", file);
		exit(2);
	}
	return fdt;
}

static void run(void *fdt, const struct dt_case *c, const char *prop)
{
	int chosen = fdt_path_offset(fdt, "/chosen");
	struct dt_console con;
	const char *why;
	int ok;

	fdt_delprop(fdt, chosen, "stdout-path");
	fdt_delprop(fdt, chosen, "linux,stdout-path");
	if (c->stdout_path &&
	    fdt_setprop_string(fdt, chosen, prop, c->stdout_path)) {
		fprintf(stderr, "cannot set %s\n", prop);
		exit(2);
	}
	/* the boot indexes the tree as the loader left it: after the edits */
	dt_tree_build(fdt);
	why = dt_console_find(&con);
	if (c->drv)
		ok = !why && con.uart.drv == c->drv && con.uart.base == c->base &&
		     con.uart.reg_shift == c->shift &&
		     con.uart.io_width == c->width;
	else
		ok = why && !con.uart.drv;
	ck_begin();
	if (why)
		printf("# no console: %s\n", why);
	else
		printf("# %s at 0x%llx, reg-shift %u, reg-io-width %u\n",
		       con.uart.drv->name, (unsigned long long)con.uart.base,
		       con.uart.reg_shift, con.uart.io_width);
	EXPECT(ok, "not the console expected");
	ck_end("%s \"%s\" (%s)", prop, c->stdout_path ?: "none", c->what);
}

int main(int argc, char **argv)
{
	void *fdt;
	size_t i;

	if (argc != 2) {
		fprintf(stderr, "usage: dt_test boards.dtb\n");
		return 2;
	}
	fdt = load(argv[1], 4096);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run(fdt, &cases[i], "stdout-path");
	/* The property's older name, as Linux still reads it */
	run(fdt, &cases[0], "linux,stdout-path");
	return ck_exit();
}
