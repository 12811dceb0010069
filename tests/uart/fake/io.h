/* SPDX-License-Identifier: GPL-2.0 */
/* uart_test: the hypervisor's MMIO accessors, on a fake PL011 */
#ifndef HYP_IO_H
#define HYP_IO_H

#include "types.h"

u32 fake_mmio_read32(phys_addr_t addr);
void fake_mmio_write32(phys_addr_t addr, u32 val);

#define mmio_read32(a)		fake_mmio_read32(a)
#define mmio_write32(a, v)	fake_mmio_write32(a, v)

#endif /* HYP_IO_H */
