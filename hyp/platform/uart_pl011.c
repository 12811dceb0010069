// SPDX-License-Identifier: GPL-2.0
/*
 * Arm PL011 and the SBSA generic UART (a PL011 subset that must be accessed
 * 32 bits at a time): the data register to send, the flag register to see
 * whether the transmit FIFO has room. Their registers are fixed by the
 * TRMs: reg-shift and reg-io-width do not apply.
 */
#include "uart.h"

#define PL011_DR	0x00		/* data register: write to send */
#define PL011_FR	0x18		/* flag register */
#define PL011_FR_TXFF	BIT(5)		/* transmit FIFO full */

static const char *const pl011_compatible[] = {
	"arm,pl011", "arm,sbsa-uart", NULL
};

const struct uart_driver uart_pl011 = {
	.name = "pl011",
	.compatible = pl011_compatible,
	.status_reg = PL011_FR,
	.data_reg = PL011_DR,
	.status_mask = PL011_FR_TXFF,
	.status_room = 0,
	.reg_shift = 0,
	.io_width = 4,
};
