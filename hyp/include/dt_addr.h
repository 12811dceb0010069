/* SPDX-License-Identifier: GPL-2.0 */
/* Reading a device tree node's addresses (dt_addr.c) */
#ifndef HYP_DT_ADDR_H
#define HYP_DT_ADDR_H

#include <libfdt.h>
#include "types.h"

/* A big-endian number of @cells 32-bit cells (at most 2) at @p */
u64 dt_read_cells(const fdt32_t *p, int cells);

/* Whether @node's status is absent, "okay" or "ok", as Linux reads it */
bool dt_node_enabled(int node);

/*
 * @node's first reg entry: its address translated to the CPU's through
 * every parent bus's ranges, into *@addr, and its size into *@size unless
 * @size is NULL. NULL, or why not for a log line. The loader's tree only:
 * its buses come from the index (dt_tree.h).
 */
const char *dt_node_reg(int node, u64 *addr, u64 *size);

#endif /* HYP_DT_ADDR_H */
