// SPDX-License-Identifier: GPL-2.0
/* hyp_panic() as a longjmp back into the test: see panic_catch.h */
#include <stdarg.h>
#include <stdio.h>

#include "panic.h"
#include "panic_catch.h"

jmp_buf panic_jmp;
char panic_msg[256];

void hyp_panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(panic_msg, sizeof(panic_msg), fmt, ap);
	va_end(ap);
	longjmp(panic_jmp, 1);
}
