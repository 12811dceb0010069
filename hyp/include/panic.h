/* SPDX-License-Identifier: GPL-2.0 */
/* The end of the road: a message, the log kept, the machine off (panic.c) */
#ifndef HYP_PANIC_H
#define HYP_PANIC_H

#include "types.h"

struct trap_frame;

__printf(1, 2) void __noreturn hyp_panic(const char *fmt, ...);
void __noreturn hyp_panic_frame(struct trap_frame *frame, const char *what);

#endif /* HYP_PANIC_H */
