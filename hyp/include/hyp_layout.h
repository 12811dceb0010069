/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memory layout the boot CPU decides before any other CPU runs
 * (hyp_layout.c holds it; setup.c and the device tree's parsers fill it),
 * and the fixed sizes of the hypervisor's region it is built from.
 */
#ifndef HYP_HYP_LAYOUT_H
#define HYP_HYP_LAYOUT_H

#include "layout.h"
#include "mem_ranges.h"
#include "types.h"
#include "uart.h"

#define HYP_STACK_SIZE		(1UL << HYP_STACK_SHIFT)
/*
 * Reserved for the hypervisor: its image, then its private memory
 * (hyp_mem.c), then the boot stack, the log of what it printed (hyp_log.c),
 * and in its last page the record of the loaded trace buffer that the next
 * boot reads (trace_persist.c): layout.h. Stage 2 hides all of it from
 * the host.
 */
#define HYP_REGION_SIZE		(1UL << HYP_REGION_SHIFT)
#define HYP_CARVEOUT_DEFAULT	(32UL << 20)
#define HYP_MAX_MEM_RANGES	8	/* merged (dt_mem.c) */
/* Debug and trace register windows stage 2 keeps from EL1 (dt_mem.c) */
#define HYP_MAX_DEBUG_WINDOWS	32
/* The EL2 map's input (and so output) addresses: three levels from 1 */
#define HYP_EL2_VA_BITS		39

/* The layout the boot CPU decides before any other CPU runs */
struct hyp_layout {
	phys_addr_t hyp_base;		/* HYP_REGION_SIZE, no-map for Linux */
	phys_addr_t carveout_base;	/* trace carve-out, no-map for Linux */
	u64 carveout_size;
	phys_addr_t dtb_base;		/* Linux's copy of the device tree */
	u64 dtb_room;
	phys_addr_t kernel;		/* Linux Image to enter */
	struct uart console;		/* drv NULL: none (dt.c) */
	struct mem_range mem[HYP_MAX_MEM_RANGES];	/* sorted, merged */
	unsigned int nr_mem;
	struct mem_range debug[HYP_MAX_DEBUG_WINDOWS];	/* sorted, merged */
	unsigned int nr_debug;
	bool allow_debug;		/* hyptrace.allow_debug (dt.c) */
	unsigned int nr_cpus;
	/* hyptrace.early= (dt.c): events (bit n = id n), bytes per CPU */
	u64 early_events;
	u64 early_size;
	bool panic_reset;		/* panic=N, N != 0 (dt.c) */
	bool test_panic;		/* hyptrace.test_panic=before-linux */
	/* PSCI is the hypervisor's for spin-table CPUs (dt_cpus.c) */
	bool psci_local;
};

extern struct hyp_layout hyp_layout;

/* No /psci: firmware_smc() answers NOT_SUPPORTED without an SMC */
extern bool hyp_no_firmware;

/* Linker-script symbols bounding the image */
extern char __hyp_start[], __text_end[], __rodata_end[], __hyp_end[];

#endif /* HYP_HYP_LAYOUT_H */
