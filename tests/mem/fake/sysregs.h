/* SPDX-License-Identifier: GPL-2.0 */
/* tests/mem: the barriers stage2_change.c uses, recorded (s2_change_test.c) */
#ifndef HYP_SYSREGS_H
#define HYP_SYSREGS_H

#include "types.h"

void fake_barrier(const char *what);

static inline void isb(void)
{
	fake_barrier("isb");
}

static inline void dsb_ish(void)
{
	fake_barrier("dsb ish");
}

#endif /* HYP_SYSREGS_H */
