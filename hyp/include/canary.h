/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What shows a stray write: the pattern free memory carries, and a sum of
 * the image (canary.c)
 */
#ifndef HYP_CANARY_H
#define HYP_CANARY_H

#include "types.h"

void canary_fill_range(u64 start, u64 end);
bool canary_intact_range(u64 start, u64 end, u64 *bad_addr);
/* HYPTRACE_CALL_IMAGE_SUM: the sum of text and read-only data, *@len bytes */
u64 image_sum(u64 *len);
u64 fnv1a_words(const u64 *p, const u64 *end);

#endif /* HYP_CANARY_H */
