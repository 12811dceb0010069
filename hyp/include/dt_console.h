/* SPDX-License-Identifier: GPL-2.0 */
/* The console the device tree names (dt_console.c) */
#ifndef HYP_DT_CONSOLE_H
#define HYP_DT_CONSOLE_H

#include <libfdt.h>
#include "types.h"
#include "uart.h"

struct dt_console {
	const char *path;	/* /chosen/stdout-path; NULL if none */
	int path_len;		/* without its ":options" */
	const char *compatible;	/* the node's first compatible, or NULL */
	struct uart uart;	/* drv NULL unless it can be driven */
};

/*
 * Find and describe the console into @c: NULL if it can be driven, else
 * why not, for a log line (@c then says as much as was found).
 */
const char *dt_console_find(struct dt_console *c);

#endif /* HYP_DT_CONSOLE_H */
