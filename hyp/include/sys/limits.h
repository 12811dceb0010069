/* SPDX-License-Identifier: GPL-2.0 */
/* GCC's own limits.h wants a C library behind it; this is all libfdt needs. */
#ifndef HYP_SYS_LIMITS_H
#define HYP_SYS_LIMITS_H

#define CHAR_BIT	8
#define INT_MAX		__INT_MAX__
#define INT_MIN		(-INT_MAX - 1)
#define UINT_MAX	(INT_MAX * 2U + 1U)
#define LONG_MAX	__LONG_MAX__
#define ULONG_MAX	(LONG_MAX * 2UL + 1UL)
#define SIZE_MAX	__SIZE_MAX__

#endif /* HYP_SYS_LIMITS_H */
