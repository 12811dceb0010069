/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every library call that can fail says why in one line, written into a
 * buffer the caller owns, so that a command prints exactly one line.
 */
#ifndef HYPTRACE_TOOLS_ERRMSG_H
#define HYPTRACE_TOOLS_ERRMSG_H

#include <stddef.h>

#include "hyptrace/compiler.h"

/* Format the reason into @err (if @errlen) and return -1. */
int errmsg(char *err, size_t errlen, const char *fmt, ...) __printf(3, 4);

/*
 * @n bytes of a peer's text at @src, made printable ('?' for a newline or
 * any other byte outside ASCII's printable ones) and cut to @len - 1, into
 * @dst; returns @dst. What a reason quotes must not break its one line.
 */
char *errmsg_printable(char *dst, size_t len, const void *src, size_t n);

#endif /* HYPTRACE_TOOLS_ERRMSG_H */
