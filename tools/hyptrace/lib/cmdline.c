// SPDX-License-Identifier: GPL-2.0
/*
 * What every subcommand uses on its command line and for its one-line
 * errors (hyptrace/cmdline.h), in the library so that a test or a fuzzer can
 * link a subcommand's code without the others.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyptrace/cmdline.h"

void cmdline_err(const char *sub, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "hyptrace %s: ", sub);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

bool cmdline_parse_ulong(const char *arg, unsigned long min, unsigned long max,
		    unsigned long *out)
{
	unsigned long v;
	char *end;

	/* strtoul() takes a sign and whitespace: a count here has neither */
	if (!isdigit((unsigned char)arg[0]))
		return false;
	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

bool cmdline_parse_size(const char *arg, unsigned long long *out)
{
	static const char units[] = "KMG";
	size_t len = strlen(arg);
	const char *unit = len ? strchr(units, arg[len - 1]) : NULL;
	unsigned int shift = unit ? 10 * (unit - units + 1) : 0;
	char digits[24];
	unsigned long v;

	if (unit)
		len--;
	if (len >= sizeof(digits))
		return false;
	memcpy(digits, arg, len);
	digits[len] = '\0';
	if (!cmdline_parse_ulong(digits, 0, ULONG_MAX >> shift, &v))
		return false;
	*out = (unsigned long long)v << shift;
	return true;
}
