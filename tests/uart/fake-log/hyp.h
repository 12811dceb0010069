/* SPDX-License-Identifier: GPL-2.0 */
/* log_test: what hyp/core/hyp_log.c uses of the hypervisor's hyp.h */
#ifndef HYP_HYP_H
#define HYP_HYP_H

#include "types.h"

#define SZ_4K			0x1000UL
#define HYP_REGION_SIZE		(1UL << 21)
#define HYP_PERSIST_SIZE	SZ_4K
#define HYP_LOG_SIZE		(2 * SZ_4K)

#define READ_ONCE(x)		(*(const volatile typeof(x) *)&(x))
#define min(a, b)		((a) < (b) ? (a) : (b))

struct hyp_layout {
	u64 hyp_base;
};
extern struct hyp_layout hyp_layout;

void *hyp_mem_alloc(u64 size, u64 align);
void dcache_clean_range(u64 start, u64 end);

void hyp_log_init(void);
void hyp_log_putc(char c);
void hyp_log_panic(void);
bool hyp_log_last_boot_kept(void);
s64 hyp_log_call(u64 which, u64 pos, u64 *res);

#endif /* HYP_HYP_H */
