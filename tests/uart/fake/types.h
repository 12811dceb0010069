/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uart_test: what hyp/platform/uart*.c and dt_console.c use of the
 * hypervisor's types.h, for libc
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
#define __noreturn		__attribute__((__noreturn__))
#define max(a, b)		((a) > (b) ? (a) : (b))
#define __printf(a, b)		__attribute__((__format__(printf, a, b)))

#endif /* HYP_TYPES_H */
