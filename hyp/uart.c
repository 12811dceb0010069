// SPDX-License-Identifier: GPL-2.0
/*
 * PL011 output, polled. The hypervisor only ever writes: Linux owns the
 * UART's input and its interrupt.
 */
#include "io.h"
#include "print.h"

#define UART_DR		0x00		/* data register */
#define UART_FR		0x18		/* flag register */
#define UART_FR_TXFF	BIT(5)		/* transmit FIFO full */

static phys_addr_t uart_base;

void uart_init(phys_addr_t base)
{
	uart_base = base;
}

void uart_putc(char c)
{
	if (!uart_base)
		return;
	if (c == '\n')
		uart_putc('\r');
	while (mmio_read32(uart_base + UART_FR) & UART_FR_TXFF)
		;
	mmio_write32(uart_base + UART_DR, (u8)c);
}
