/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bring-up: head.S calls hyp_boot_prepare() on the boot CPU, then every
 * CPU, however it came, hyp_cpu_start() (setup.c), which leaves for Linux
 * through hyp_enter_el1() (enter_el1.S).
 */
#ifndef HYP_BOOT_H
#define HYP_BOOT_H

#include "types.h"

unsigned int hyp_boot_prepare(phys_addr_t dtb, u64 entry_count);
void __noreturn hyp_cpu_start(unsigned int idx, unsigned int entry_kind);

/* EL1h at @pc, @x0 its argument, DAIF masked, no register of ours left */
void __noreturn hyp_enter_el1(u64 pc, u64 x0);

#endif /* HYP_BOOT_H */
