/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hypervisor-wide state: the memory layout decided at boot and the per-CPU
 * data every CPU finds through TPIDR_EL2.
 */
#ifndef HYP_HYP_H
#define HYP_HYP_H

#include "fw_optee.h"
#include "layout.h"
#include "mem_ranges.h"
#include "types.h"
#include "uart.h"
#include "shared/ring_buffer.h"

#define HYP_VERSION		"0.1"
#define HYP_STACK_SIZE		(1UL << HYP_STACK_SHIFT)
/*
 * Reserved for the hypervisor: its image, then its private memory
 * (hyp_mem.c), then the log of what it printed (hyp_log.c), and in its
 * last page the record of the loaded trace buffer that the next boot reads
 * (trace_persist.c). Stage 2 hides all of it from
 * the host.
 */
#define HYP_REGION_SIZE		(1UL << HYP_REGION_SHIFT)
#define HYP_PERSIST_SIZE	SZ_4K
/* Just below it, the log (hyp_log.c), for the next boot too */
#define HYP_LOG_SIZE		(2 * SZ_4K)
#define HYP_CARVEOUT_DEFAULT	(32UL << 20)
#define HYP_MAX_MEM_RANGES	8	/* merged (dt_mem.c) */
/* Debug and trace register windows stage 2 keeps from EL1 (dt_mem.c) */
#define HYP_MAX_DEBUG_WINDOWS	32
/* The EL2 map's input (and so output) addresses: three levels from 1 */
#define HYP_EL2_VA_BITS		39

/* One SMCCC_ARCH_WORKAROUND_n's calls on one CPU since its last summary */
struct fw_workaround_sum {
	u32 count;
	u32 max_ns;		/* saturates at 4 s */
	u64 total_ns;
	u64 since_ns;		/* the first call counted */
};

#define FW_NR_WORKAROUNDS	3

/* A CPU's firmware-call decoding state (fw_trace.c, fw_trace.h) */
struct fw_cpu {
	bool timed;		/* firmware_call() adds its time to ns */
	bool suspend_pending;	/* a traced CPU_SUSPEND may wake elsewhere */
	u64 ns;
	u64 suspend_at_ns;
	u64 suspend_state;	/* CPU_SUSPEND's power_state (x1) */
	struct fw_workaround_sum wa[FW_NR_WORKAROUNDS];
	struct fw_optee_span optee;
};

/* A CPU's maintenance window (maint_window.c): only this CPU touches it */
struct maint_cpu {
	u64 deadline;		/* CNTVCT value it closes at; 0: closed */
	u64 first, last;	/* the run's first and last operand */
	u64 first_ns, last_ns;	/* when they came */
	u32 count;		/* operations in the run; 0: no run */
	u16 op;			/* the run's MAINT_OPS encoding */
	bool stepping;		/* one operation let through, its step due */
	u64 masks;		/* SPSR's I, F, A before that step */
	u64 mdcr, mdscr;	/* MDCR_EL2, MDSCR_EL1 before it */
};

/* Where a CPU enters Linux once the hypervisor is set up on it */
struct el1_entry {
	u64 pc;
	u64 x0;
};

struct hyp_cpu {
	/*
	 * This CPU's trace buffer writer; its pages are in the carve-out.
	 * First, so that TPIDR_EL2 points straight at it from every trace
	 * site.
	 */
	struct rb_cpu trace_rb;
	/*
	 * Bit n: event id n is recorded on this CPU (wanted, and tracing
	 * on). The one word every trace site tests, beside the writer it
	 * writes with; set under the trace lock (trace.c).
	 */
	u64 trace_events;
	/*
	 * hyp_clock_cur, one load from the same pointer: every CPU's is
	 * set with it (trace_clock_publish()), and at TRACE_LOAD.
	 */
	const struct hyp_clock *trace_clock;
	unsigned int idx;		/* Linux's logical number (dt.c) */
	u64 mpidr;			/* affinity, or HYPTRACE_MPIDR_NONE */
	/*
	 * CPU_ON arguments, owned by whoever on_state says (psci_relay.c):
	 * the caller of CPU_ON claims them, the target frees them once it
	 * has read them; on_started_at is when firmware accepted the start.
	 */
	u32 on_state;
	struct el1_entry on_entry;
	u64 on_started_at;
	/* CPU_SUSPEND arguments: only the CPU itself writes them */
	struct el1_entry suspend_entry;
	/*
	 * The hypervisor's own PSCI (psci_local.c): the spin table's
	 * cpu-release-addr or 0 (dt_cpus.c), and PARK_* below; on_entry is
	 * the CPU_ON slot, owned by whoever moved the state to CLAIMED.
	 */
	u64 release_addr;
	u32 park_state;
	/* Firmware-call decoding (fw_trace.c): only this CPU touches it */
	struct fw_cpu fw;
	/* The TLBI and DC/IC by VA window (maint_window.c) */
	struct maint_cpu maint;
};

#define PARK_ABSENT		0	/* never parked: cannot be started */
#define PARK_PARKED		1	/* at EL2, off for Linux */
#define PARK_CLAIMED		2	/* a CPU_ON fills on_entry */
#define PARK_GO			3	/* on_entry ready, not yet in Linux */
#define PARK_ON			4	/* in Linux */

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
/* HYP_MAX_CPUS of them, in private memory (setup.c) */
extern struct hyp_cpu *hyp_cpus;

static inline struct hyp_cpu *this_cpu(void)
{
	struct hyp_cpu *cpu;

	asm volatile("mrs %0, tpidr_el2" : "=r" (cpu));
	return cpu;
}

/* Each CPU's stack: base + (idx + 1) * HYP_STACK_SIZE, read by head.S */
struct hyp_stacks {
	u64 base;
	u64 count;
};
extern struct hyp_stacks hyp_stacks;

/* Linker-script symbols bounding the image */
extern char __hyp_start[], __text_end[], __rodata_end[], __hyp_end[];

/* head.S */
void hyp_secondary_entry(void);
void hyp_resume_entry(void);
void hyp_spin_entry(void);
void __noreturn hyp_cpu_park(unsigned int idx);
void __noreturn hyp_enter_el1(u64 pc, u64 x0);
void dcache_clean_range(u64 start, u64 end);

/* setup.c */
unsigned int hyp_boot_prepare(phys_addr_t dtb, u64 entry_count);
void __noreturn hyp_cpu_start(unsigned int idx, unsigned int entry_kind);
int hyp_cpu_index(u64 mpidr);
s64 hyp_cpu_mpidr(u64 idx, u64 *mpidr);

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
u64 hyp_mem_high_water(void);
void hyp_mem_free_to(u64 mark);

/* psci_relay.c */
void psci_lose_first_start(unsigned int idx, bool stall);
struct el1_entry psci_cpu_on_arrived(struct hyp_cpu *cpu);

/* psci_local.c, spin_table.c */
struct el1_entry psci_local_park(struct hyp_cpu *cpu);
void spin_table_release(void);
/* Call @fn for each page holding a release address, once each */
void spin_table_pages(void (*fn)(void *ctx, u64 page), void *ctx);

/* No /psci: firmware_smc() answers NOT_SUPPORTED without an SMC */
extern bool hyp_no_firmware;

/* dt.c, dt_cpus.c */
void dt_parse(const void *fdt);
/* The value of "@name" (ending in '=') in @args, as [*@val, *@end) */
bool find_bootarg(const char *args, int len, const char *name,
		  const char **val, const char **end);
void dt_prepare_for_linux(const void *fdt);
void dt_parse_cpus(const void *fdt);
int dt_cpus_for_linux(void *copy);

/* dt_mem.c */
void dt_parse_memory(const void *fdt);
void dt_parse_debug_windows(const void *fdt);
void dt_check_kept(const void *fdt);

/* hyp_log.c */
void hyp_log_init(void);
void hyp_log_putc(char c);
void hyp_log_panic(void);
bool hyp_log_last_boot_kept(void);
s64 hyp_log_call(u64 which, u64 pos, u64 *res);

/* canary.c */
void canary_fill(void);
void canary_fill_range(u64 start, u64 end);
bool canary_intact(u64 *bad_addr);
u64 image_sum(u64 *len);
u64 fnv1a_words(const u64 *p, const u64 *end);

#endif /* HYP_HYP_H */
