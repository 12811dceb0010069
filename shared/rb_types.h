/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fixed-width types for the files in shared/ that both the hypervisor
 * (freestanding, no libc), the host test programs and the host kernel module
 * compile. In the kernel the types come from <linux/types.h>; everywhere else
 * from the compiler's own freestanding <stdint.h>.
 */
#ifndef HYPTRACE_SHARED_RB_TYPES_H
#define HYPTRACE_SHARED_RB_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
#endif

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the kernel ring-buffer layout is only encoded for little-endian here"
#endif

#if __SIZEOF_LONG__ != 8 || __SIZEOF_POINTER__ != 8
#error "the shared layouts assume LP64 (arm64 hypervisor, arm64/x86_64 host)"
#endif

#endif /* HYPTRACE_SHARED_RB_TYPES_H */
