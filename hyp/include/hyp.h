/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hypervisor-wide state: the memory layout decided at boot and the per-CPU
 * data every CPU finds through TPIDR_EL2.
 */
#ifndef HYP_HYP_H
#define HYP_HYP_H

#include "cpus.h"
#include "hyp_layout.h"
#include "types.h"

#define HYP_VERSION		"0.1"

/* enter_el1.S */
void __noreturn hyp_enter_el1(u64 pc, u64 x0);
/* cache.S */
void dcache_clean_range(u64 start, u64 end);

/* setup.c */
unsigned int hyp_boot_prepare(phys_addr_t dtb, u64 entry_count);
void __noreturn hyp_cpu_start(unsigned int idx, unsigned int entry_kind);

/* el2_regs.c */
void el2_setup_cpu(void);

/* mmu.c: the EL2 map, and what head.S's el2_mmu_on loads to turn it on */
struct hyp_mmu_regs {
	u64 mair;
	u64 tcr;
	u64 ttbr0;
	u64 sctlr;
};
extern struct hyp_mmu_regs hyp_mmu;
void mmu_build_tables(u64 loader_fdt, u64 fdt_size);

/* stage2.c; HYP_STAGE2=0 builds without it, the baseline `make bench` uses */
#ifndef HYP_STAGE2
#define HYP_STAGE2 1
#endif
void stage2_build(void);
void stage2_enable(void);
u64 stage2_fault_ipa(u64 far);

/* hyp_mem.c */
void hyp_mem_init(void);
void *hyp_mem_alloc(u64 size, u64 align);
void *hyp_mem_alloc_boot(u64 size, u64 align, const char *what);
u64 hyp_mem_mark(void);
u64 hyp_mem_end(void);
void hyp_mem_free_to(u64 mark);
void hyp_mem_canary_fill(void);
bool hyp_mem_canary_intact(u64 *bad_addr);

/* psci_relay.c */
void psci_lose_first_start(unsigned int idx, bool stall);
struct el1_entry psci_cpu_on_arrived(struct hyp_cpu *cpu);

/* psci_local.c, spin_table.c */
struct el1_entry psci_local_park(struct hyp_cpu *cpu);
void spin_table_release(void);
/* Call @fn for each page holding a release address, once each */
void spin_table_pages(void (*fn)(void *ctx, u64 page), void *ctx);

/* dt.c, dt_cpus.c */
void dt_parse(const void *fdt);
void dt_prepare_for_linux(const void *fdt);
void dt_parse_cpus(const void *fdt);
int dt_cpus_for_linux(void *copy);

/* dt_mem.c */
void dt_parse_memory(const void *fdt);
void dt_parse_debug_windows(const void *fdt);
void dt_check_kept(const void *fdt);

/* hyp_log.c */
u64 hyp_log_last_boot_size(void);
void hyp_log_init(char *keep);
void hyp_log_putc(char c);
void hyp_log_panic(void);
bool hyp_log_last_boot_kept(void);
s64 hyp_log_call(u64 which, u64 pos, u64 *res);

/* canary.c */
void canary_fill_range(u64 start, u64 end);
bool canary_intact_range(u64 start, u64 end, u64 *bad_addr);
u64 image_sum(u64 *len);
u64 fnv1a_words(const u64 *p, const u64 *end);

#endif /* HYP_HYP_H */
