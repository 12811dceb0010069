/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hypervisor's types.h for its code compiled on the host (tests/mem,
 * tests/uart), over the C library: force-included (-include), so that its
 * guard keeps the real one out of the code under test.
 */
#ifndef HYP_TYPES_H
#define HYP_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;
typedef u64 phys_addr_t;

#define BIT(n)			(1UL << (n))
#define GENMASK(h, l)		((~0UL << (l)) & (~0UL >> (63 - (h))))
#define SZ_4K			0x1000UL
#define SZ_2M			0x200000UL
#define ALIGN_DOWN(x, a)	((x) & ~((u64)(a) - 1))
#define ALIGN_UP(x, a)		ALIGN_DOWN((x) + (a) - 1, a)
#define min(a, b)		((a) < (b) ? (a) : (b))
#define max(a, b)		((a) > (b) ? (a) : (b))
#define __noreturn		__attribute__((__noreturn__))
#define __printf(a, b)		__attribute__((__format__(printf, a, b)))
#define READ_ONCE(x)		(*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile typeof(x) *)&(x) = (v))

#endif /* HYP_TYPES_H */
