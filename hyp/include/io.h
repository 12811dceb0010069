/* SPDX-License-Identifier: GPL-2.0 */
/* MMIO accessors: single, untorn, never merged or elided by the compiler. */
#ifndef HYP_IO_H
#define HYP_IO_H

#include "types.h"

static inline u8 mmio_read8(phys_addr_t addr)
{
	u8 val;

	asm volatile("ldrb %w0, [%1]" : "=r" (val) : "r" (addr) : "memory");
	return val;
}

static inline void mmio_write8(phys_addr_t addr, u8 val)
{
	asm volatile("strb %w0, [%1]" : : "rZ" (val), "r" (addr) : "memory");
}

static inline u16 mmio_read16(phys_addr_t addr)
{
	u16 val;

	asm volatile("ldrh %w0, [%1]" : "=r" (val) : "r" (addr) : "memory");
	return val;
}

static inline void mmio_write16(phys_addr_t addr, u16 val)
{
	asm volatile("strh %w0, [%1]" : : "rZ" (val), "r" (addr) : "memory");
}

static inline u32 mmio_read32(phys_addr_t addr)
{
	u32 val;

	asm volatile("ldr %w0, [%1]" : "=r" (val) : "r" (addr) : "memory");
	return val;
}

static inline void mmio_write32(phys_addr_t addr, u32 val)
{
	asm volatile("str %w0, [%1]" : : "rZ" (val), "r" (addr) : "memory");
}

#endif /* HYP_IO_H */
