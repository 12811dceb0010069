/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every subcommand's command line needs (lib/cmdline.c): the exit
 * statuses, number and size arguments, and the one-line error message.
 */
#ifndef HYPTRACE_CMDLINE_H
#define HYPTRACE_CMDLINE_H

#include <stdbool.h>

#include "hyptrace/compiler.h"

/* Exit statuses every subcommand uses */
#define HT_EXIT_OK		0
#define HT_EXIT_FAIL		1	/* the work failed: bad file, I/O, ... */
#define HT_EXIT_USAGE		2	/* bad command line */

/* @arg as a plain decimal in [@min, @max] into *@out, or false */
bool cmdline_parse_ulong(const char *arg, unsigned long min, unsigned long max,
		    unsigned long *out);
/*
 * @arg as a size in bytes, plain decimal with an optional K, M or G
 * (KiB, MiB, GiB), into *@out, or false
 */
bool cmdline_parse_size(const char *arg, unsigned long long *out);
/* "hyptrace SUBCOMMAND: " then the message and a newline, on stderr */
void cmdline_err(const char *sub, const char *fmt, ...)
	__printf(2, 3);

#endif /* HYPTRACE_CMDLINE_H */
