// SPDX-License-Identifier: GPL-2.0
/*
 * The 8250/16550 family: the transmit holding register to send, the line
 * status register to see whether it has room. Their SoC versions space
 * the registers out (reg-shift) and may need 32-bit accesses
 * (reg-io-width), both from the device tree: Synopsys DesignWare APB UARTs
 * (RK3399, RK3588, Allwinner), and the Raspberry Pi's mini-UART, whose node
 * points at AUX_MU_IO and whose registers are 32 bits apart.
 */
#include "uart.h"

#define UART_8250_THR		0	/* transmit holding register (write) */
#define UART_8250_LSR		5	/* line status register */
#define UART_8250_LSR_THRE	BIT(5)	/* holding register (or FIFO) has room */

static const char *const uart_8250_compatible[] = {
	"ns16550a", "ns16550", "snps,dw-apb-uart", NULL
};

/* Byte registers, one after the other, unless the device tree says */
const struct uart_driver uart_8250 = {
	.name = "8250",
	.compatible = uart_8250_compatible,
	.status_reg = UART_8250_LSR,
	.data_reg = UART_8250_THR,
	.status_mask = UART_8250_LSR_THRE,
	.status_room = UART_8250_LSR_THRE,
	.reg_shift = 0,
	.io_width = 1,
	.dt_layout = true,
};

static const char *const bcm2835aux_compatible[] = {
	"brcm,bcm2835-aux-uart", NULL
};

/*
 * Linux's 8250_bcm2835aux sets 32-bit registers 4 bytes apart itself, and
 * the Pi's device trees do not say so: the same defaults here.
 */
const struct uart_driver uart_bcm2835aux = {
	.name = "bcm2835-aux",
	.compatible = bcm2835aux_compatible,
	.status_reg = UART_8250_LSR,
	.data_reg = UART_8250_THR,
	.status_mask = UART_8250_LSR_THRE,
	.status_room = UART_8250_LSR_THRE,
	.reg_shift = 2,
	.io_width = 4,
	.dt_layout = true,
};
