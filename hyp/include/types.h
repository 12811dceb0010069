/* SPDX-License-Identifier: GPL-2.0 */
#ifndef HYP_TYPES_H
#define HYP_TYPES_H

/*
 * One self-contained image: every symbol, declared or defined, is local to
 * it, so data is reached PC-relative rather than through the GOT
 * (-fvisibility=hidden covers only definitions).
 */
#pragma GCC visibility push(hidden)

/* u8..s64, as the code shared with the host module spells them */
#include "shared/rb_types.h"

typedef u64 phys_addr_t;

#define BIT(n)			(1UL << (n))
#define GENMASK(h, l)		((~0UL << (l)) & (~0UL >> (63 - (h))))
/* Extract or place a field given its mask */
#define FIELD_GET(mask, val)	(((val) & (mask)) >> __builtin_ctzl(mask))
#define FIELD_PREP(mask, val)	(((u64)(val) << __builtin_ctzl(mask)) & (mask))

#define SZ_4K			0x1000UL
#define SZ_64K			0x10000UL
#define SZ_2M			0x200000UL
#define SZ_1G			0x40000000UL

#define ALIGN_DOWN(x, a)	((x) & ~((u64)(a) - 1))
#define ALIGN_UP(x, a)		ALIGN_DOWN((x) + (a) - 1, a)
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define min(a, b)		((a) < (b) ? (a) : (b))
#define max(a, b)		((a) > (b) ? (a) : (b))
#define U32_MAX			0xffffffffU

#define __noreturn		__attribute__((__noreturn__))
#define noinline		__attribute__((__noinline__))
#define __always_inline		__attribute__((__always_inline__))
/* Rare: built for size even in an object built for speed (hyp/Makefile) */
#define __cold			__attribute__((__cold__))
#define __aligned(x)		__attribute__((__aligned__(x)))
#define __printf(a, b)		__attribute__((__format__(printf, a, b)))
#define unreachable()		__builtin_unreachable()

#define READ_ONCE(x)		(*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile typeof(x) *)&(x) = (v))

/*
 * (a * mul) >> shift without losing the product's top bits: the kernel's
 * <linux/math64.h> helper, a 128-bit product (mul and umulh on arm64).
 */
static inline __always_inline u64 mul_u64_u64_shr(u64 a, u64 mul,
						 unsigned int shift)
{
	return (u64)(((__uint128_t)a * mul) >> shift);
}

#endif /* HYP_TYPES_H */
