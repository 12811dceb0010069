/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The console UART: one small driver per family (hyp/platform/uart_*.c),
 * each a struct uart_driver that says where its registers are, and the
 * common part (uart.c) that polls and writes them and owns the bounded
 * wait and the count of dropped bytes, so that every driver gets them.
 * Every UART here works the same way for sending: a status register says
 * whether the transmit FIFO (or holding register) has room, and a byte
 * written to a data register is sent. The hypervisor only ever sends: Linux owns the UART's input, its
 * interrupt and its setup (baud rate, enables), which the firmware or boot
 * loader already did.
 *
 * Which UART, where, and how its registers are spaced comes from the
 * device tree (dt_console.c); there is no fixed address anywhere.
 */
#ifndef HYP_UART_H
#define HYP_UART_H

#include "types.h"

struct uart_driver {
	const char *name;
	/*
	 * The compatible strings it drives, NULL-terminated; one '*' in a
	 * string stands for any run of characters ("fsl,imx*-uart").
	 */
	const char *const *compatible;
	/* Registers, as numbers that reg-shift spaces out */
	u32 status_reg;		/* says whether there is room to send */
	u32 data_reg;		/* a byte written here is sent */
	/* Room to send when (status & status_mask) == status_room */
	u32 status_mask;
	u32 status_room;
	/* Register spacing and access width when the device tree is silent */
	u8 reg_shift;
	u8 io_width;
	/* Whether reg-shift and reg-io-width apply (the 8250 family's) */
	bool dt_layout;
};

/* One UART, as the device tree describes it */
struct uart {
	const struct uart_driver *drv;	/* NULL: no console */
	phys_addr_t base;		/* CPU physical address, translated */
	u8 reg_shift;			/* register n is at base + (n << shift) */
	u8 io_width;			/* bytes per access: 1, 2 or 4 */
};

/* Every driver, NULL-terminated, in the order compatibles are tried */
extern const struct uart_driver *const uart_drivers[];

extern const struct uart_driver uart_pl011;
extern const struct uart_driver uart_8250;
extern const struct uart_driver uart_bcm2835aux;
extern const struct uart_driver uart_cdns;
extern const struct uart_driver uart_imx;

/* Bytes from @u->base that its driver touches, for the EL2 map */
u64 uart_span(const struct uart *u);

/* The console from now on; NULL (or a NULL driver): none */
void uart_init(const struct uart *u);

#endif /* HYP_UART_H */
