/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every library call that can fail says why in one line, written into a
 * buffer the caller owns, so that a command prints exactly one line.
 */
#ifndef HYPTRACE_TOOLS_ERRMSG_H
#define HYPTRACE_TOOLS_ERRMSG_H

#include <stddef.h>

#include "compiler.h"

/* Format the reason into @err (if @errlen) and return -1. */
int errmsg(char *err, size_t errlen, const char *fmt, ...) __printf(3, 4);

#endif /* HYPTRACE_TOOLS_ERRMSG_H */
