/* SPDX-License-Identifier: GPL-2.0 */
#ifndef HYP_PRINT_H
#define HYP_PRINT_H

#include <stdarg.h>
#include "types.h"

void uart_putc(char c);
/* A print begins (under the print lock): reports what was dropped before */
void uart_begin(void);

/* Called once the MMU is on: from then on CPUs print under a lock. */
void print_enable_locking(void);

/* printf subset: %c %s %d %u %x %p, with l/ll and zero-padded widths */
void hyp_vprintf(const char *fmt, va_list ap);
__printf(1, 2) void hyp_printf(const char *fmt, ...);

/* Every line the hypervisor prints starts with this, so logs are greppable */
#define hyp_info(fmt, ...)	hyp_printf("hyptrace: " fmt, ##__VA_ARGS__)

#endif /* HYP_PRINT_H */
