/* SPDX-License-Identifier: GPL-2.0 */
/* Linux's command line, where the hypervisor's options are (bootargs.c) */
#ifndef HYP_BOOTARGS_H
#define HYP_BOOTARGS_H

#include "types.h"

/* The value of "@name" (ending in '=') in @args, as [*@val, *@end) */
bool find_bootarg(const char *args, int len, const char *name,
		  const char **val, const char **end);

#endif /* HYP_BOOTARGS_H */
