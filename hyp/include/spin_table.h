/* SPDX-License-Identifier: GPL-2.0 */
/* CPUs a spin table holds, released into the hypervisor (spin_table.c) */
#ifndef HYP_SPIN_TABLE_H
#define HYP_SPIN_TABLE_H

#include "types.h"

void spin_table_release(void);
/* Call @fn for each page holding a release address, once each */
void spin_table_pages(void (*fn)(void *ctx, u64 page), void *ctx);

#endif /* HYP_SPIN_TABLE_H */
