/* SPDX-License-Identifier: GPL-2.0 */
/* Data cache maintenance by VA (cache.S) */
#ifndef HYP_CACHE_H
#define HYP_CACHE_H

#include "types.h"

/* [@start, @end): clean to the point of coherency, for readers with caches off */
void dcache_clean_range(u64 start, u64 end);

#endif /* HYP_CACHE_H */
