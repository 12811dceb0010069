// SPDX-License-Identifier: GPL-2.0
/*
 * Cadence UART (Xilinx Zynq and ZynqMP): the channel status register to see
 * whether the transmit FIFO has room, the FIFO register to send. 32-bit
 * registers at fixed offsets.
 */
#include "uart.h"

#define CDNS_UART_SR		0x2c	/* channel status register */
#define CDNS_UART_SR_TXFULL	BIT(4)	/* transmit FIFO full */
#define CDNS_UART_FIFO		0x30	/* transmit and receive FIFO */

static bool cdns_tx_full(const struct uart *u)
{
	return uart_reg_read(u, CDNS_UART_SR) & CDNS_UART_SR_TXFULL;
}

static void cdns_tx(const struct uart *u, u8 c)
{
	uart_reg_write(u, CDNS_UART_FIFO, c);
}

static const char *const cdns_compatible[] = {
	"cdns,uart-r1p12", "xlnx,xuartps", "cdns,uart-r1p8", NULL
};

const struct uart_driver uart_cdns = {
	.name = "cdns",
	.compatible = cdns_compatible,
	.tx_full = cdns_tx_full,
	.tx = cdns_tx,
	.last_reg = CDNS_UART_FIFO,
	.reg_shift = 0,
	.io_width = 4,
};
