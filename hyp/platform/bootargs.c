// SPDX-License-Identifier: GPL-2.0
/*
 * Linux's command line (/chosen/bootargs), where the hypervisor's own
 * options are (dt.c, dt_mmio.c): one argument's value found.
 */
#include <string.h>
#include "bootargs.h"

/*
 * The value of "@name" (which ends in '=') on the command line @args of
 * @len bytes, as [*@val, *@end); false if it is not there.
 */
bool find_bootarg(const char *args, int len, const char *name,
		  const char **val, const char **end)
{
	size_t n = strlen(name);
	const char *p = args, *stop = args + strnlen(args, len);

	for (; p + n <= stop; p++) {
		const char *e;

		if ((p != args && p[-1] != ' ') || strncmp(p, name, n))
			continue;
		for (e = p + n; e < stop && *e != ' '; e++)
			;
		*val = p + n;
		*end = e;
		return true;
	}
	return false;
}
