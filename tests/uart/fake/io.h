/* SPDX-License-Identifier: GPL-2.0 */
/* uart_test: the hypervisor's MMIO accessors, on a fake UART */
#ifndef HYP_IO_H
#define HYP_IO_H

#include "types.h"

u32 fake_mmio_read(phys_addr_t addr, unsigned int width);
void fake_mmio_write(phys_addr_t addr, unsigned int width, u32 val);

#define mmio_read8(a)		((u8)fake_mmio_read(a, 1))
#define mmio_read16(a)		((u16)fake_mmio_read(a, 2))
#define mmio_read32(a)		fake_mmio_read(a, 4)
#define mmio_write8(a, v)	fake_mmio_write(a, 1, v)
#define mmio_write16(a, v)	fake_mmio_write(a, 2, v)
#define mmio_write32(a, v)	fake_mmio_write(a, 4, v)

#endif /* HYP_IO_H */
