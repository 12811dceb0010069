// SPDX-License-Identifier: GPL-2.0
/*
 * NXP i.MX UART (i.MX6, i.MX8M and the rest of the imx21-compatible line):
 * the test register's TXFULL to see whether the transmit FIFO has room,
 * the transmitter register to send. 32-bit registers at fixed offsets.
 */
#include "uart.h"

#define IMX_UART_UTXD		0x40	/* transmitter register */
#define IMX_UART_UTS		0xb4	/* test register */
#define IMX_UART_UTS_TXFULL	BIT(4)	/* transmit FIFO full */

/* fsl,imx21-uart, fsl,imx6q-uart, fsl,imx8mp-uart, ... */
static const char *const imx_compatible[] = { "fsl,imx*-uart", NULL };

const struct uart_driver uart_imx = {
	.name = "imx",
	.compatible = imx_compatible,
	.status_reg = IMX_UART_UTS,
	.data_reg = IMX_UART_UTXD,
	.status_mask = IMX_UART_UTS_TXFULL,
	.status_room = 0,
	.reg_shift = 0,
	.io_width = 4,
};
