// SPDX-License-Identifier: GPL-2.0
/*
 * Spin-table CPUs (booting.rst, enable-method "spin-table"): the firmware
 * leaves each secondary at EL2 with its MMU off, polling its
 * cpu-release-addr between wfe's until it holds an address to jump to.
 * The boot CPU releases them itself into the hypervisor's entry (head.S,
 * hyp_spin_entry), which sets the CPU up for EL2 and parks it
 * (psci_local.c), and waits until they have parked; Linux then starts them
 * with PSCI CPU_ON. The pages of
 * the release addresses are left out of stage 2 (stage2.c), so that Linux
 * cannot release a CPU behind the hypervisor's back.
 */
#include "cache.h"
#include "cpus.h"
#include "hyp_layout.h"
#include "layout.h"
#include "pgtable.h"
#include "print.h"
#include "spin_table.h"
#include "sysregs.h"

/*
 * How long the boot CPU waits for the released CPUs to park: microseconds
 * on a board, but QEMU's CPUs on a loaded host can take seconds. One that
 * comes later still parks, and CPU_ON works from then on.
 */
#define SPIN_ARRIVE_MS		10000UL

/*
 * Each released CPU's MPIDR at its index, the others' an impossible value:
 * hyp_spin_entry finds its index there once its MMU is on
 */
u64 spin_mpidr[HYP_MAX_CPUS];
_Static_assert(MPIDR_HWID_MASK == 0xff00ffffffUL,
	       "hyp_spin_entry (head.S) masks MPIDR_EL1 with the same value");

void spin_table_pages(void (*fn)(void *ctx, u64 page), void *ctx)
{
	unsigned int i, j;

	/* With firmware's PSCI, Linux starts every CPU through the relay */
	if (!hyp_layout.psci_local)
		return;
	for (i = 1; i < hyp_layout.nr_cpus; i++) {
		u64 page = ALIGN_DOWN(hyp_cpus[i].release_addr, SZ_4K);

		if (!hyp_cpus[i].release_addr)
			continue;
		for (j = 1; j < i; j++)
			if (hyp_cpus[j].release_addr &&
			    ALIGN_DOWN(hyp_cpus[j].release_addr, SZ_4K) == page)
				break;
		if (j == i)
			fn(ctx, page);
	}
}

/* Whether @cpu reached its park within SPIN_ARRIVE_MS of @start */
static bool arrived(const struct hyp_cpu *cpu, u64 start)
{
	u64 wait = read_sysreg(cntfrq_el0) * SPIN_ARRIVE_MS / 1000;

	while (__atomic_load_n(&cpu->park_state, __ATOMIC_ACQUIRE) ==
	       PARK_ABSENT)
		if (read_sysreg(cntpct_el0) - start > wait)
			return false;
	return true;
}

/* On the boot CPU, its MMU on (mmu.c maps the release pages) */
void spin_table_release(void)
{
	unsigned int i, released = 0, parked = 0;
	u64 start;

	if (!hyp_layout.psci_local)
		return;
	hyp_cpus[0].park_state = PARK_ON;
	for (i = 0; i < HYP_MAX_CPUS; i++)
		spin_mpidr[i] = ~0UL;	/* no MPIDR has bits 63:40 set */
	for (i = 1; i < hyp_layout.nr_cpus; i++) {
		u64 *release = (u64 *)hyp_cpus[i].release_addr;

		if (!release)
			continue;
		WRITE_ONCE(spin_mpidr[i], hyp_cpus[i].mpidr);
		/* booting.rst: little-endian, as the hypervisor is */
		WRITE_ONCE(*release, hyp_entries.spin);
		/*
		 * The CPU polls with its MMU off, so reads memory, not our
		 * cache: clean the line to the point of coherency (Arm ARM,
		 * "Data cache maintenance instructions": after a clean by VA
		 * to the PoC, a write is visible to non-cacheable reads), as
		 * Linux's smp_spin_table.c does; it also invalidates, which
		 * nothing here needs, as no other observer writes the line.
		 * dcache_clean_range() ends with dsb sy: the clean and the
		 * MPIDR above complete before the event, which no dmb would
		 * order (Arm ARM, "Wait for Event and Send Event").
		 */
		dcache_clean_range((u64)release, (u64)(release + 1));
		asm volatile("sev" : : : "memory");
		released++;
	}
	/* Parked before Linux asks for them, or Linux's CPU_ON fails */
	start = read_sysreg(cntpct_el0);
	for (i = 1; i < hyp_layout.nr_cpus; i++) {
		if (!hyp_cpus[i].release_addr)
			continue;
		if (arrived(&hyp_cpus[i], start))
			parked++;
		else
			hyp_info("CPU %u: no answer to its spin-table release at 0x%lx\n",
				 i, hyp_cpus[i].release_addr);
	}
	hyp_info("%u of %u spin-table CPUs parked at EL2; PSCI for Linux by HVC\n",
		 parked, released);
}
