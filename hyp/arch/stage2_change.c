// SPDX-License-Identifier: GPL-2.0
/*
 * Changing the host's stage 2 after boot, while every CPU may be running
 * Linux through it: the one routine for it (later features, MMIO tracing
 * among them, unmap and remap device pages with it).
 *
 * Every change of a valid entry is break-before-make (Arm ARM, "Using
 * break-before-make when updating translation table entries"):
 * the entry is made invalid, every CPU's TLB entries for it invalidated,
 * and only then the new entry written. Without it, two CPUs could hold TLB
 * entries of different sizes or types for one address at once, which the
 * architecture leaves CONSTRAINED UNPREDICTABLE (TLB conflict aborts,
 * loss of coherency). A block is split into a table of the next level the
 * same way. The invalidation is pKVM's (arch/arm64/kvm/hyp/nvhe/tlb.c,
 * __kvm_tlb_flush_vmid_ipa): the IPA at stage 2, then all of stage 1 for
 * the VMID, broadcast to the Inner Shareable domain.
 *
 * Another CPU that touches the range between break and make takes a
 * stage-2 translation fault; traps.c asks stage2_fault_retry(), which
 * waits for the change to finish and lets the access run again rather
 * than take it for an access to memory stage 2 keeps from the host.
 *
 * Tables for splits come from a few spare ones taken at boot: after boot
 * the private memory's allocator belongs to the trace buffers (hyp_mem.c),
 * which give back everything above their mark when unloaded.
 */
#include <string.h>
#include "hyp_layout.h"
#include "hyp_mem.h"
#include "mem_ranges.h"
#include "spinlock.h"
#include "stage2.h"
#include "sysregs.h"
#include "tlb.h"
#include "shared/hyptrace_abi.h"

/* Two splits of a 1 GiB block down to a page each */
#define S2_SPARE_TABLES	4

static struct spinlock s2_lock;
static u64 *spare[S2_SPARE_TABLES];
static unsigned int nr_spare;

void stage2_change_init(void)
{
	for (nr_spare = 0; nr_spare < S2_SPARE_TABLES; nr_spare++)
		spare[nr_spare] = hyp_mem_alloc_boot(SZ_4K, SZ_4K,
						     "stage-2 spare tables");
}

/*
 * Break: @entry, valid and mapping @ipa, made invalid and forgotten by
 * every CPU's TLBs. In pKVM's order and for its reasons (tlb.c):
 *  - dsb ishst: the invalid entry is visible to every CPU's table walker
 *    before the invalidation is (Arm ARM, break-before-make);
 *  - tlbi ipas2e1is: the stage-2 entries for the IPA, every CPU of the
 *    Inner Shareable domain, VMID 0 (VTTBR_EL2 on this CPU);
 *  - dsb ish: that invalidation completes before the stage-1 one, since a
 *    walk on another CPU could otherwise refill a combined stage 1+2
 *    entry from the old stage 2 after stage 1 was invalidated;
 *  - tlbi vmalle1is: the combined entries, which cannot be found by IPA;
 *  - dsb ish; isb: complete everywhere before this CPU goes on.
 */
static void s2_break(u64 *entry, u64 ipa)
{
	WRITE_ONCE(*entry, 0);
	dsb_ishst();
	tlbi_ipas2e1is(ipa);
	dsb_ish();
	tlbi_vmalle1is();
	dsb_ish();
	isb();
}

/*
 * Make: @val into an invalid @entry. An entry that gives a translation
 * fault is never held in a TLB (Arm ARM, "TLB maintenance requirements"),
 * so nothing needs invalidating; dsb ishst
 * makes the entry visible to every walker before the lock is released
 * and a CPU waiting in stage2_fault_retry() looks.
 */
static void s2_make(u64 *entry, u64 val)
{
	WRITE_ONCE(*entry, val);
	dsb_ishst();
}

/* Give the invalid or block @entry at @level a table of the next level */
static bool s2_split(u64 *entry, u64 ipa, unsigned int level)
{
	u64 *table;

	if (!nr_spare)
		return false;
	table = spare[--nr_spare];
	if (*entry & PTE_VALID)
		pgtable_split(table, *entry, level);
	/* The table's entries are visible before the table is */
	dsb_ishst();
	if (*entry & PTE_VALID)
		s2_break(entry, ipa);
	s2_make(entry, (u64)table | PTE_TABLE | PTE_VALID);
	return true;
}

s64 stage2_change(u64 ipa, u64 size, enum stage2_kind kind)
{
	u64 end = ipa + size, attrs = stage2_attrs(kind);
	s64 ret = HYPTRACE_RET_SUCCESS;

	if ((ipa | size) & (SZ_4K - 1) || end < ipa ||
	    end > 1UL << stage2_host_map.ia_bits ||
	    ranges_overlap(ipa, size, hyp_layout.hyp_base, HYP_REGION_SIZE))
		return HYPTRACE_RET_INVALID;
	spin_lock(&s2_lock);
	while (ipa < end) {
		unsigned int level;
		u64 *e = pgtable_walk(&stage2_host_map, ipa, &level);
		u64 block = 1UL << PGTABLE_LEVEL_SHIFT(level);
		u64 next = ALIGN_DOWN(ipa, block) + block;

		if (!(*e & PTE_VALID) && kind == STAGE2_ABSENT) {
			ipa = next;
			continue;
		}
		/* Only part of this block changes: walk again once split */
		if (level < 3 && (ipa & (block - 1) || end - ipa < block)) {
			if (!s2_split(e, ALIGN_DOWN(ipa, block), level)) {
				ret = HYPTRACE_RET_NO_MEMORY;
				break;
			}
			continue;
		}
		if (*e & PTE_VALID)
			s2_break(e, ipa);
		if (kind != STAGE2_ABSENT)
			s2_make(e, ipa | attrs | PTE_VALID |
				(level == 3 ? PTE_PAGE : PTE_BLOCK));
		ipa = next;
	}
	spin_unlock(&s2_lock);
	return ret;
}

bool stage2_fault_retry(u64 ipa)
{
	unsigned int level;
	bool mapped;

	/* After any change under way: its make is visible once we hold it */
	spin_lock(&s2_lock);
	mapped = *pgtable_walk(&stage2_host_map, ipa, &level) & PTE_VALID;
	spin_unlock(&s2_lock);
	return mapped;
}

bool stage2_host_ram(u64 ipa)
{
	/* The one attribute MMIO has and RAM has not: execute-never */
	u64 xn = stage2_attrs(STAGE2_MMIO) & ~stage2_attrs(STAGE2_RAM);
	unsigned int level;
	u64 entry;

	if (!stage2_host_map.ia_bits || ipa >> stage2_host_map.ia_bits)
		return false;
	spin_lock(&s2_lock);
	entry = *pgtable_walk(&stage2_host_map, ipa, &level);
	spin_unlock(&s2_lock);
	return entry & PTE_VALID && !(entry & xn);
}
