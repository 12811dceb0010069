// SPDX-License-Identifier: GPL-2.0
/*
 * The console, polled, whatever its driver (uart.h).
 *
 * Linux may disable the UART, or leave its FIFO full and never draining: a
 * wait for room would then never end, under the print lock, and
 * SYSTEM_OFF, a panic and every CPU that prints would hang. So a character
 * waits at most UART_WAIT_DIV-th of a second by the architected counter;
 * once one has timed out, the rest of that print goes only where the FIFO
 * has room at once, so that a dead UART costs one wait per print. What is
 * dropped is counted, and reported at the start of the next line that gets
 * through. All of this is here, once, for every driver: a driver only says
 * where its status and data registers are (uart.h).
 */
#include "io.h"
#include "print.h"
#include "sysregs.h"
#include "uart.h"

/* 1 ms per character: over 10 characters' time at 115200 baud */
#define UART_WAIT_DIV	1000
/* If CNTFRQ_EL0 reads 0 (a firmware bug): as if it were 62.5 MHz */
#define UART_WAIT_TICKS_DEFAULT	62500

const struct uart_driver *const uart_drivers[] = {
	&uart_pl011, &uart_8250, &uart_bcm2835aux, &uart_cdns, &uart_imx, NULL
};

static struct uart console;	/* console.drv NULL: no console */
static u64 uart_wait_ticks;

/* All below under the print lock (or before there are other CPUs) */
static u64 uart_dropped;	/* bytes given up on, not yet reported */
static bool uart_stuck;		/* this print has timed out once */
static bool uart_line_start = true;

static phys_addr_t reg_addr(const struct uart *u, u32 reg)
{
	return u->base + ((phys_addr_t)reg << u->reg_shift);
}

static u32 uart_reg_read(const struct uart *u, u32 reg)
{
	phys_addr_t a = reg_addr(u, reg);

	switch (u->io_width) {
	case 1:
		return mmio_read8(a);
	case 2:
		return mmio_read16(a);
	default:
		return mmio_read32(a);
	}
}

static void uart_reg_write(const struct uart *u, u32 reg, u32 val)
{
	phys_addr_t a = reg_addr(u, reg);

	switch (u->io_width) {
	case 1:
		mmio_write8(a, (u8)val);
		break;
	case 2:
		mmio_write16(a, (u16)val);
		break;
	default:
		mmio_write32(a, val);
		break;
	}
}

u64 uart_span(const struct uart *u)
{
	u32 last = max(u->drv->status_reg, u->drv->data_reg);

	return ((u64)last << u->reg_shift) + u->io_width;
}

/* The transmit FIFO (or holding register) has no room */
static bool uart_tx_full(const struct uart *u)
{
	const struct uart_driver *d = u->drv;

	return (uart_reg_read(u, d->status_reg) & d->status_mask) !=
	       d->status_room;
}

void uart_init(const struct uart *u)
{
	u64 freq = read_sysreg(cntfrq_el0);

	uart_wait_ticks = freq ? freq / UART_WAIT_DIV : UART_WAIT_TICKS_DEFAULT;
	console.drv = NULL;
	if (u && u->drv)
		console = *u;
}

/* Room in the FIFO within the wait, or at once after a timeout */
static bool uart_room(void)
{
	u64 start;

	if (!uart_tx_full(&console))
		return true;
	if (uart_stuck)
		return false;
	start = read_sysreg(cntpct_el0);
	while (uart_tx_full(&console)) {
		if (read_sysreg(cntpct_el0) - start >= uart_wait_ticks) {
			uart_stuck = true;
			return false;
		}
	}
	return true;
}

static void uart_put(char c)
{
	if (uart_room())
		uart_reg_write(&console, console.drv->data_reg, (u8)c);
	else
		uart_dropped++;
}

void uart_putc(char c)
{
	if (!console.drv)
		return;
	if (c == '\n')
		uart_put('\r');
	uart_put(c);
	uart_line_start = c == '\n';
}

static void uart_puts(const char *s)
{
	while (*s)
		uart_putc(*s++);
}

/*
 * A print starts: a stuck FIFO gets a new wait, and bytes dropped before
 * are reported on a line of their own. If that line loses bytes too, the
 * count stays for the next time.
 */
void uart_begin(void)
{
	u64 n = uart_dropped;
	char digits[21];
	unsigned int i = sizeof(digits) - 1;

	uart_stuck = false;
	if (!n || !uart_line_start || !console.drv)
		return;
	digits[i] = '\0';
	do {
		digits[--i] = '0' + n % 10;
		n /= 10;
	} while (n);
	n = uart_dropped;
	uart_dropped = 0;
	uart_puts("hyptrace: console dropped ");
	uart_puts(&digits[i]);
	uart_puts(" bytes\n");
	if (uart_dropped)
		uart_dropped = n;
}
