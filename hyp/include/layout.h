/* SPDX-License-Identifier: GPL-2.0 */
/* Constants shared by the C code and the assembly entry paths. */
#ifndef HYP_LAYOUT_H
#define HYP_LAYOUT_H

#define HYP_MAX_CPUS		16
#define HYP_REGION_SHIFT	21	/* the hypervisor's 2 MiB region */
#define HYP_STACK_SHIFT		14	/* 16 KiB per CPU */

/* How a CPU arrived in the hypervisor */
#define CPU_ENTRY_BOOT		0	/* the boot CPU, from the loader */
#define CPU_ENTRY_ON		1	/* a secondary, from a relayed CPU_ON */
#define CPU_ENTRY_RESUME	2	/* waking from a relayed CPU_SUSPEND */
#define CPU_ENTRY_PARK		3	/* a spin-table CPU to park (psci_local.c) */

/* arm64 Image header flags (Documentation/arch/arm64/booting.rst) */
#define IMAGE_FLAG_LE		(0 << 0)	/* little-endian */
#define IMAGE_FLAG_PAGE_4K	(1 << 1)	/* 4 KiB pages */
#define IMAGE_FLAG_ANYWHERE	(1 << 3)	/* any 2 MiB-aligned base */

/* struct trap_frame size, see trap.h */
#define TRAP_FRAME_SIZE		288

/* ELF relocation type the self-relocation understands */
#define R_AARCH64_RELATIVE	1027

#endif /* HYP_LAYOUT_H */
