/* SPDX-License-Identifier: GPL-2.0 */
#ifndef HYP_PRINT_H
#define HYP_PRINT_H

#include <stdarg.h>
#include "types.h"

void uart_init(phys_addr_t base);
void uart_putc(char c);

/* printf subset: %c %s %d %u %x %p, with l/ll and zero-padded widths */
void hyp_vprintf(const char *fmt, va_list ap);
void hyp_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Every line the hypervisor prints starts with this, so logs are greppable */
#define hyp_info(fmt, ...)	hyp_printf("hyptrace: " fmt, ##__VA_ARGS__)

struct trap_frame;
void __noreturn hyp_panic(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
void __noreturn hyp_panic_frame(struct trap_frame *frame, const char *what);

#endif /* HYP_PRINT_H */
