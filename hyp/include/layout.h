/* SPDX-License-Identifier: GPL-2.0 */
/* Constants shared by the C code and the assembly entry paths. */
#ifndef HYP_LAYOUT_H
#define HYP_LAYOUT_H

#define HYP_MAX_CPUS		16
#define HYP_REGION_SHIFT	21	/* the hypervisor's 2 MiB region */
#define HYP_STACK_SHIFT		14	/* 16 KiB per CPU */

/*
 * The top of the region, where neither the image nor the allocator
 * reaches (hyp_mem.c), from the top down: the persist record, in the last
 * page (trace_persist.c), then the log (hyp_log.c), both for the next boot;
 * then the boot stack, whose top is the log's bottom. It grows down, away
 * from both: no depth of call can write over them.
 */
#define HYP_PERSIST_SIZE	0x1000
#define HYP_LOG_SIZE		0x2000
/*
 * The boot stack, used by the boot CPU with its MMU off until it has its
 * own (head.S), and kept from the allocator until then (hyp_mem.c), which
 * checks that its lowest bytes were not reached. Its deepest use, painted
 * and read back on QEMU's virt board: 1,728 bytes over the whole boot, and
 * 992 for a panic by exception from hyp_boot_prepare() (the trap frame, the
 * register dump): under 3 KiB for a panic at the deepest point. The boot
 * path does not recurse.
 */
#define HYP_BOOT_STACK_SIZE	0x2000
/*
 * Its lowest bytes, which carry the canary pattern while it is in use:
 * more than the largest frame of the boot path (stage2_build()'s 1.2 KiB),
 * so that a frame reaching below the stack cannot skip them all
 */
#define HYP_BOOT_STACK_GUARD	0x800

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
