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

static const char *const cdns_compatible[] = {
	"cdns,uart-r1p12", "xlnx,xuartps", "cdns,uart-r1p8", NULL
};

const struct uart_driver uart_cdns = {
	.name = "cdns",
	.compatible = cdns_compatible,
	.status_reg = CDNS_UART_SR,
	.data_reg = CDNS_UART_FIFO,
	.status_mask = CDNS_UART_SR_TXFULL,
	.status_room = 0,
	.reg_shift = 0,
	.io_width = 4,
};
