// SPDX-License-Identifier: GPL-2.0
/* One-line failure reasons (errmsg.h). */
#include <stdarg.h>
#include <stdio.h>

#include "errmsg.h"

int errmsg(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}
