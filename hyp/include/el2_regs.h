/* SPDX-License-Identifier: GPL-2.0 */
/* This CPU's EL2 control registers, set before it enters Linux (el2_regs.c) */
#ifndef HYP_EL2_REGS_H
#define HYP_EL2_REGS_H

void el2_setup_cpu(void);

#endif /* HYP_EL2_REGS_H */
