// SPDX-License-Identifier: GPL-2.0
/* One-line failure reasons (errmsg.h). */
#include <stdarg.h>
#include <stdio.h>

#include "hyptrace/errmsg.h"

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

char *errmsg_printable(char *dst, size_t len, const void *src, size_t n)
{
	const unsigned char *s = src;
	size_t i;

	if (!len)
		return dst;
	for (i = 0; i < n && i < len - 1; i++)
		dst[i] = s[i] >= 0x20 && s[i] <= 0x7e ? s[i] : '?';
	dst[i] = '\0';
	return dst;
}
