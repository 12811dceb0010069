/* SPDX-License-Identifier: GPL-2.0 */
/* uart_test: the counter registers, from the test */
#ifndef HYP_SYSREGS_H
#define HYP_SYSREGS_H

#include "types.h"

u64 fake_read_cntfrq_el0(void);
u64 fake_read_cntpct_el0(void);

#define read_sysreg(r)		fake_read_##r()

#endif /* HYP_SYSREGS_H */
