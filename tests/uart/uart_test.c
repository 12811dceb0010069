// SPDX-License-Identifier: GPL-2.0
/*
 * hyp/platform/uart.c and every driver behind it (uart_*.c) on the host,
 * against a fake UART and a fake counter that ticks once per read. For
 * each driver, at the register spacing and width it is given:
 *  - every byte is sent, '\n' as "\r\n", by accesses of the right width at
 *    the right addresses and nowhere else;
 *  - a transmit FIFO that never drains costs one bounded wait per print,
 *    and nothing is written while it is full;
 *  - what was dropped is counted and reported on the next line that gets
 *    through, once;
 *  - a FIFO that drains within the wait loses nothing.
 * And no console (uart_init(NULL)) touches no register.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io.h"
#include "print.h"
#include "uart.h"
#include "check.h"

#define BASE		0x9000000UL
#define FREQ		1000000ULL	/* 1 MHz: a 1 ms wait is 1000 ticks */

/* The device the fake MMIO plays: where its status and data registers are */
struct fake_uart {
	const char *what;
	struct uart uart;	/* as the driver is given it */
	phys_addr_t status;	/* the register that says "full" */
	u32 full;		/* its value when full ... */
	u32 room;		/* ... and when there is room */
	phys_addr_t data;	/* the register a byte is written to */
	unsigned int width;	/* bytes per access, both registers */
	u64 span;		/* uart_span() */
};

static const struct fake_uart fakes[] = {
	{ "pl011", { &uart_pl011, BASE, 0, 4 },
	  BASE + 0x18, 1U << 5, 0, BASE, 4, 0x1c },
	{ "8250, byte registers", { &uart_8250, BASE, 0, 1 },
	  BASE + 5, 0, 1U << 5, BASE, 1, 6 },
	{ "8250, reg-shift 2, reg-io-width 4 (dw-apb-uart)",
	  { &uart_8250, BASE, 2, 4 }, BASE + 0x14, 0, 1U << 5, BASE, 4, 0x18 },
	{ "8250, reg-shift 1, reg-io-width 2", { &uart_8250, BASE, 1, 2 },
	  BASE + 0xa, 0, 1U << 5, BASE, 2, 0xc },
	{ "bcm2835 mini-UART", { &uart_bcm2835aux, BASE + 0x40, 2, 4 },
	  BASE + 0x54, 0, 1U << 5, BASE + 0x40, 4, 0x18 },
	{ "cadence", { &uart_cdns, BASE, 0, 4 },
	  BASE + 0x2c, 1U << 4, 0, BASE + 0x30, 4, 0x34 },
	{ "i.MX", { &uart_imx, BASE, 0, 4 },
	  BASE + 0xb4, 1U << 4, 0, BASE + 0x40, 4, 0xb8 },
};

static const struct fake_uart *dev;
static char out[4096];
static size_t out_len;
static u64 counter;
static unsigned long status_reads;
static unsigned long stray;	/* accesses elsewhere, or of the wrong width */
static unsigned long writes_while_full;
static long full_for = -1;	/* "full" this many more reads; -1: forever */

u64 fake_read_cntfrq_el0(void)
{
	return FREQ;
}

u64 fake_read_cntpct_el0(void)
{
	return counter++;
}

u32 fake_mmio_read(phys_addr_t addr, unsigned int width)
{
	if (!dev || addr != dev->status || width != dev->width) {
		stray++;
		return 0;
	}
	status_reads++;
	if (full_for < 0)
		return dev->full;
	if (full_for > 0) {
		full_for--;
		return dev->full;
	}
	return dev->room;
}

void fake_mmio_write(phys_addr_t addr, unsigned int width, u32 val)
{
	if (!dev || addr != dev->data || width != dev->width) {
		stray++;
		return;
	}
	if (full_for < 0)
		writes_while_full++;
	if (out_len < sizeof(out) - 1)
		out[out_len++] = (char)val;
}

/* A print as hyp_vprintf makes it: uart_begin(), then the characters */
static void print(const char *s)
{
	uart_begin();
	while (*s)
		uart_putc(*s++);
}

/* One test point: @what, for the device under test */
static void expect(int ok, const char *what)
{
	ck_begin();
	EXPECT(ok, "%s", what);
	ck_end("%s%s%s", dev ? dev->what : "", dev ? ": " : "", what);
}

static void reset_out(void)
{
	memset(out, 0, sizeof(out));
	out_len = 0;
	status_reads = 0;
}

static void hung(int sig)
{
	static const char msg[] =
		"Bail out! uart_putc still waiting after 5 s on a FIFO that never drains\n";

	(void)sig;
	if (write(1, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(1);
}

static void test_driver(const struct fake_uart *f)
{
	dev = f;
	stray = 0;
	writes_while_full = 0;
	uart_init(&f->uart);
	expect(uart_span(&f->uart) == f->span,
	       "uart_span() covers its last register");

	reset_out();
	full_for = 0;
	print("hello\n");
	expect(!strcmp(out, "hello\r\n"), "a draining FIFO gets every byte, \\n as \\r\\n");

	/* Stuck: 7 bytes (\r included) dropped, one wait of 1000 ticks */
	reset_out();
	full_for = -1;
	counter = 0;
	print("stuck\n");
	expect(out_len == 0, "a full FIFO gets nothing");
	expect(counter >= 1000 && counter < 1100,
	       "one wait of 1 ms of counter for the whole print");
	expect(status_reads < counter + 16, "no polling after the timeout");

	/* A second print waits once more, and the FIFO stays dead */
	counter = 0;
	print("dead\n");
	expect(out_len == 0 && counter < 1100, "the next print waits once");
	expect(!writes_while_full, "nothing written while the FIFO is full");

	/* It drains: the report first (13 dropped), then the line */
	reset_out();
	full_for = 0;
	print("back\n");
	expect(!strcmp(out, "hyptrace: console dropped 13 bytes\r\nback\r\n"),
	       "the dropped count reported once, before the next line");
	reset_out();
	print("again\n");
	expect(!strcmp(out, "again\r\n"), "reported only once");

	/* Full for less than the wait: slow, not lost */
	reset_out();
	full_for = 500;
	counter = 0;
	print("slow\n");
	expect(!strcmp(out, "slow\r\n"), "a FIFO that drains within 1 ms loses nothing");
	expect(!stray, "no access to another register, or of another width");
}

int main(void)
{
	unsigned int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGALRM, hung);
	alarm(5);

	for (i = 0; i < sizeof(fakes) / sizeof(fakes[0]); i++)
		test_driver(&fakes[i]);

	dev = NULL;
	stray = 0;
	uart_init(NULL);
	print("nobody\n");
	expect(!stray, "no console: no register touched");

	return ck_exit();
}
