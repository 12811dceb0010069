/* SPDX-License-Identifier: GPL-2.0 */
/* tests/mem: what hyp/arch/pgtable.c uses of hyp.h, from pgtable_test.c */
#ifndef HYP_HYP_H
#define HYP_HYP_H

#include "types.h"

void *hyp_mem_alloc_boot(u64 size, u64 align, const char *what);

#endif /* HYP_HYP_H */
