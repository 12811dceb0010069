/* SPDX-License-Identifier: GPL-2.0 */
/* tests/mem: hyp_panic(), which pgtable_test.c turns into a longjmp */
#ifndef HYP_PRINT_H
#define HYP_PRINT_H

#include "types.h"

__printf(1, 2) void __noreturn hyp_panic(const char *fmt, ...);

#endif /* HYP_PRINT_H */
