// SPDX-License-Identifier: GPL-2.0
/*
 * PL011 output, polled. The hypervisor only ever writes: Linux owns the
 * UART's input and its interrupt.
 */
#include "print.h"

#define UART_DR		0x00		/* data register */
#define UART_FR		0x18		/* flag register */
#define UART_FR_TXFF	(1U << 5)	/* transmit FIFO full */

static volatile u8 *uart_base;

void uart_init(phys_addr_t base)
{
	uart_base = (volatile u8 *)base;
}

void uart_putc(char c)
{
	volatile u32 *fr, *dr;

	if (!uart_base)
		return;
	fr = (volatile u32 *)(uart_base + UART_FR);
	dr = (volatile u32 *)(uart_base + UART_DR);
	if (c == '\n')
		uart_putc('\r');
	while (*fr & UART_FR_TXFF)
		;
	*dr = (u8)c;
}
