// SPDX-License-Identifier: GPL-2.0
/*
 * PL011 output, polled. The hypervisor only ever writes: Linux owns the
 * UART's input and its interrupt.
 *
 * Linux may also disable the UART, or leave its FIFO full and never
 * draining: a wait for room would then never end, under the print lock,
 * and SYSTEM_OFF, a panic and every CPU that prints would hang. So a
 * character waits at most UART_WAIT_DIV-th of a second by the architected
 * counter; once one has timed out, the rest of that print goes only where
 * the FIFO has room at once, so that a dead UART costs one wait per print.
 * What is dropped is counted, and reported at the start of the next line
 * that gets through.
 */
#include "io.h"
#include "print.h"
#include "sysregs.h"

#define UART_DR		0x00		/* data register */
#define UART_FR		0x18		/* flag register */
#define UART_FR_TXFF	BIT(5)		/* transmit FIFO full */

/* 1 ms per character: over 10 characters' time at 115200 baud */
#define UART_WAIT_DIV	1000
/* If CNTFRQ_EL0 reads 0 (a firmware bug): as if it were 62.5 MHz */
#define UART_WAIT_TICKS_DEFAULT	62500

static phys_addr_t uart_base;
static u64 uart_wait_ticks;

/* All below under the print lock (or before there are other CPUs) */
static u64 uart_dropped;	/* bytes given up on, not yet reported */
static bool uart_stuck;		/* this print has timed out once */
static bool uart_line_start = true;

void uart_init(phys_addr_t base)
{
	u64 freq = read_sysreg(cntfrq_el0);

	uart_wait_ticks = freq ? freq / UART_WAIT_DIV : UART_WAIT_TICKS_DEFAULT;
	uart_base = base;
}

static bool uart_tx_full(void)
{
	return mmio_read32(uart_base + UART_FR) & UART_FR_TXFF;
}

/* Room in the FIFO within the wait, or at once after a timeout */
static bool uart_room(void)
{
	u64 start;

	if (!uart_tx_full())
		return true;
	if (uart_stuck)
		return false;
	start = read_sysreg(cntpct_el0);
	while (uart_tx_full()) {
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
		mmio_write32(uart_base + UART_DR, (u8)c);
	else
		uart_dropped++;
}

void uart_putc(char c)
{
	if (!uart_base)
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
	if (!n || !uart_line_start || !uart_base)
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
