/* SPDX-License-Identifier: GPL-2.0 */
/* The log of what the hypervisor printed, for the host (hyp_log.c) */
#ifndef HYP_HYP_LOG_H
#define HYP_HYP_LOG_H

#include "types.h"

/* At boot: what keeping the last boot's log takes, then this boot's log */
u64 hyp_log_last_boot_size(void);
void hyp_log_init(char *keep);
void hyp_log_putc(char c);
void hyp_log_panic(void);
bool hyp_log_last_boot_kept(void);
/* HYPTRACE_CALL_HYP_LOG */
s64 hyp_log_call(u64 which, u64 pos, u64 *res);

#endif /* HYP_HYP_LOG_H */
