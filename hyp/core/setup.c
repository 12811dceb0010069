// SPDX-License-Identifier: GPL-2.0
/*
 * Bring-up. The boot CPU first decides the memory layout (hyp_boot_prepare,
 * MMU off); then every CPU, the boot CPU included, takes the same path
 * through head.S's MMU-on and hyp_cpu_start(): per-CPU pointer, EL2 registers,
 * stage 2, and the return to Linux at EL1.
 *
 * Rule for CPUs whose MMU is still off: everything they read was written
 * before the boot CPU turned its MMU on, so it is in memory, not only in a
 * cache. Only the boot CPU runs C with its MMU off (hyp_boot_prepare(),
 * which builds the tables); every CPU, the boot CPU too, enters
 * hyp_cpu_start() with its MMU already on (head.S).
 */
#include <libfdt.h>
#include "boot.h"
#include "cpus.h"
#include "dt.h"
#include "el2_regs.h"
#include "fw_trace.h"
#include "hyp_layout.h"
#include "hyp_log.h"
#include "hyp_mem.h"
#include "layout.h"
#include "mmu.h"
#include "panic.h"
#include "print.h"
#include "psci.h"
#include "spin_table.h"
#include "stage2.h"
#include "sysregs.h"
#include "trace.h"
#include "trace_persist.h"
#include "trap.h"
#include "shared/hyptrace_abi.h"
#include "shared/hyptrace_version.h"

static const void *loader_fdt;
/* Counter value at the hypervisor's first instruction */
static u64 boot_entry_count;

unsigned int hyp_boot_prepare(phys_addr_t dtb, u64 entry_count)
{
	u64 kept;

	boot_entry_count = entry_count;
	hyp_layout.hyp_base = (u64)__hyp_start;
	loader_fdt = (const void *)dtb;
	hyp_mem_init();
	/* Zeroed, as the bss it was in; before anything looks a CPU up */
	hyp_cpus = hyp_mem_alloc_boot(HYP_MAX_CPUS * sizeof(*hyp_cpus), SZ_4K,
				      "the CPUs' state");
	/* The log is below the allocator: its caller gives it memory */
	kept = hyp_log_last_boot_size();
	hyp_log_init(kept ? hyp_mem_alloc(kept, SZ_4K) : NULL);
	if (hyp_log_last_boot_kept())
		hyp_info("the last boot panicked: its log (%lu bytes) is kept for the host\n",
			 kept);
	dt_parse(loader_fdt);
	/* Private memory, MMU off: secondaries read it with theirs off too */
	hyp_stacks.base = (u64)hyp_mem_alloc_boot(hyp_layout.nr_cpus *
						  HYP_STACK_SIZE, SZ_4K,
						  "CPU stacks");
	hyp_stacks.count = hyp_layout.nr_cpus;
	mmu_build_tables(dtb, fdt_totalsize(loader_fdt));
	stage2_build();
	/* As in Linux, the boot CPU is CPU 0 (dt.c, parse_cpus()). */
	return 0;
}

/*
 * Time from the hypervisor's first instruction to now. Under QEMU with
 * -icount shift=0 a nanosecond is one instruction, which is how `make bench`
 * reads the figure.
 */
static u64 boot_time_ns(void)
{
	u64 ticks = read_sysreg(cntpct_el0) - boot_entry_count;

	/* A boot lasts far less than the 2^64 / 10^9 ticks this can hold. */
	return ticks * 1000000000UL / read_sysreg(cntfrq_el0);
}

/*
 * hyptrace.early= (dt.c): load and start the early buffer before Linux
 * runs, so that its first SMCCC call is the first event. The same load a
 * host's TRACE_LOAD makes, from the same carve-out; a failure costs only
 * the early capture.
 */
static void early_capture_start(void)
{
	const struct hyp_layout *l = &hyp_layout;
	unsigned int id;
	s64 ret;

	if (!l->early_events)
		return;
	ret = trace_early_start(l->early_events, l->early_size);
	if (ret) {
		hyp_info("%s: cannot load %lu KiB per CPU in the %lu MiB carve-out (%ld): no early capture\n",
			 HYPTRACE_EARLY_BOOTARG, l->early_size >> 10,
			 l->carveout_size >> 20, ret);
		return;
	}
	hyp_info("early capture of");
	for (id = 1; id <= HYP_NR_EVENTS; id++)
		if (l->early_events & (1ULL << id))
			hyp_printf(" %s", trace_event_name(id));
	/* The entry on the early clock: the first event counts from it */
	hyp_printf(", %lu KiB per CPU, from %lu ns after hypervisor entry (early clock at entry: %lu ns)\n",
		   l->early_size >> 10, boot_time_ns(),
		   boot_entry_count * 1000000000UL / read_sysreg(cntfrq_el0));
}

static void boot_cpu_finish(void)
{
	const struct hyp_layout *l = &hyp_layout;
	u64 boot_ns;

	print_enable_locking();
	hyp_mem_boot_stack_done();
	hyp_mem_canary_fill();
	/* Before anything is loaded over the last boot's pages */
	last_boot_find();
	early_capture_start();
	dt_prepare_for_linux(loader_fdt);
	spin_table_release();

	hyp_info("version %s, EL2, %u CPUs, %lu KiB image\n", HYPTRACE_VERSION,
		 l->nr_cpus, ((u64)__hyp_end - l->hyp_base) >> 10);
	hyp_info("hypervisor memory 0x%lx..0x%lx, trace carve-out 0x%lx..0x%lx (%lu MiB)\n",
		 l->hyp_base, l->hyp_base + HYP_REGION_SIZE - 1,
		 l->carveout_base, l->carveout_base + l->carveout_size - 1,
		 l->carveout_size >> 20);
	boot_ns = boot_time_ns();
	/*
	 * What HYPTRACE_CALL_CPU_MPIDR answers, for whoever reads the log;
	 * after boot_ns, which `make bench` compares across builds.
	 */
	hyp_info("CPU MPIDRs by Linux CPU number:");
	for (unsigned int i = 0; i < l->nr_cpus; i++) {
		if (hyp_cpus[i].mpidr == HYPTRACE_MPIDR_NONE)
			hyp_printf(" %u:none", i);
		else
			hyp_printf(" %u:0x%lx", i, hyp_cpus[i].mpidr);
	}
	hyp_printf("\n");
	hyp_info("entering Linux at 0x%lx at EL1, device tree at 0x%lx, %lu ns after hypervisor entry\n",
		 l->kernel, l->dtb_base, boot_ns);
}

static void __noreturn enter_linux(struct el1_entry entry)
{
	write_sysreg(SCTLR_EL1_ENTRY, sctlr_el1);
	cpu_state_window_open();
	maint_window_reenter();
	isb();
	hyp_enter_el1(entry.pc, entry.x0);
}

void hyp_cpu_start(unsigned int idx, unsigned int entry_kind)
{
	struct hyp_cpu *cpu = &hyp_cpus[idx];
	struct el1_entry entry;
	u32 fid;

	write_sysreg(cpu, tpidr_el2);
	el2_setup_cpu();
	stage2_enable();

	if (cpu->mpidr != (read_sysreg(mpidr_el1) & MPIDR_HWID_MASK))
		hyp_panic("entered as CPU %u, but MPIDR is 0x%lx", idx,
			  read_sysreg(mpidr_el1));

	switch (entry_kind) {
	case CPU_ENTRY_BOOT:
		boot_cpu_finish();
		/* A test's panic before Linux, once: the next boot goes on */
		if (hyp_layout.test_panic && !hyp_log_last_boot_kept())
			hyp_panic("hyptrace.test_panic=before-linux: a panic before Linux runs, as the command line asks");
		entry.pc = hyp_layout.kernel;
		entry.x0 = hyp_layout.dtb_base;
		enter_linux(entry);
	case CPU_ENTRY_ON:
		fid = PSCI_0_2_FN64_CPU_ON;
		entry = psci_cpu_on_arrived(cpu);
		break;
	case CPU_ENTRY_PARK:
		/* Traced as a relayed CPU_ON's arrival, once Linux's comes */
		fid = PSCI_0_2_FN64_CPU_ON;
		entry = psci_local_park(cpu);
		break;
	default:
		fid = PSCI_0_2_FN64_CPU_SUSPEND;
		entry = cpu->suspend_entry;
		fw_psci_resumed();
		break;
	}
	/* The CPU arrives from firmware or its park, goes on into Linux. */
	hyp_trace(hyp_enter, .reason = HYP_REASON_PSCI, .func_id = fid);
	hyp_trace(hyp_exit, .reason = HYP_REASON_PSCI, .func_id = fid);
	enter_linux(entry);
}
