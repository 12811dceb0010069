// SPDX-License-Identifier: GPL-2.0
/*
 * The host's stage 2: an identity map of everything Linux may use, minus
 * the hypervisor's own 2 MiB region (image, stacks, page tables and the
 * trace writers' bookkeeping, see hyp_mem.c) and, unless
 * hyptrace.allow_debug is given, the debug and trace register windows the
 * device tree names (dt_mem.c): with external debug enabled, EL1 could
 * halt a core through them while it runs at EL2 and have it execute
 * instructions there; and the pages of a spin table the hypervisor
 * released CPUs from (spin_table.c), so that Linux cannot release one
 * behind its back. The trace carve-out is RAM like any other and stays
 * shared. An EL1 or EL0 access to what is left out faults to EL2, which
 * answers with a synchronous external abort, or in a debug window reads
 * zero and ignores writes, as for no device there (traps.c).
 *
 * As pKVM maps the host (PKVM_HOST_MEM_PROT, PKVM_HOST_MMIO_PROT): RAM,
 * the device tree's /memory, is Normal write-back and executable; every
 * other address below 2^ipa_bits is Normal write-back too, but
 * execute-never, so that Linux's stage 1 decides the type alone (of the
 * two stages the more restrictive type wins, HCR_EL2.FWB being 0):
 * Device for registers, Normal non-cacheable for a write-combining
 * framebuffer or a prefetchable PCIe BAR, which a Device stage 2 would
 * have turned into Device. Memory the firmware keeps (/memreserve/,
 * no-map /reserved-memory) stays mapped as RAM, as pKVM leaves it: Linux
 * maps none of it in its linear map, so nothing is fetched there
 * speculatively, and its drivers reach what they share with the firmware
 * (OP-TEE's shared memory, remote processors' carve-outs) through
 * mappings of their own. Secure memory among it is the TZASC's to guard.
 *
 * The map is built once at boot; stage2_change.c changes it afterwards.
 * The map itself and its entries' attributes are stage2_map.c's, which
 * both read.
 * Each CPU drops its stage-1+2 TLB entries for VMID 0 as it turns stage 2
 * on.
 *
 * The input address space is 40 bits (1 TiB), or less where the CPU's
 * physical range is smaller: enough for QEMU's virt machine with its high
 * PCIe window and for the boards we know. Addresses above it fault.
 */
#include "hyp_layout.h"
#include "layout.h"
#include "mem_ranges.h"
#include "mmio_trace.h"
#include "panic.h"
#include "pgtable.h"
#include "print.h"
#include "spin_table.h"
#include "stage2.h"
#include "sysregs.h"
#include "shared/hyptrace_abi.h"

#define S2_MAX_IPA_BITS	40
/* The holes: our region, the debug windows, spin tables, traced devices */
#define S2_MAX_HOLES	(1 + HYP_MAX_DEBUG_WINDOWS + HYP_MAX_CPUS + \
			 HYPTRACE_MMIO_SLOTS)

static u64 vtcr;

/* ID_AA64MMFR0_EL1.PARange: bits of physical address */
static unsigned int parange_bits(u64 parange)
{
	static const u8 bits[] = { 32, 36, 40, 42, 44, 48, 52 };

	return parange < ARRAY_SIZE(bits) ? bits[parange] : 52;
}

/* ranges_outside()'s callback: map [from, to) with *@attrs */
static void map_piece(void *attrs, u64 from, u64 to)
{
	pgtable_map(&stage2_host_map, from, to - from, *(u64 *)attrs);
}

/* Panic unless nothing in [base, base + size) is mapped */
static void assert_absent(const char *what, u64 base, u64 size)
{
	u64 ia = base, end = base + size;

	while (ia < end) {
		unsigned int level;
		u64 *e = pgtable_walk(&stage2_host_map, ia, &level);

		if (*e & PTE_VALID)
			hyp_panic("stage 2 maps 0x%lx, in %s 0x%lx..0x%lx, for EL1",
				  ia, what, base, end - 1);
		/* An invalid entry leaves its whole block unmapped */
		ia = ALIGN_DOWN(ia, 1UL << PGTABLE_LEVEL_SHIFT(level)) +
		     (1UL << PGTABLE_LEVEL_SHIFT(level));
	}
}

bool stage2_in_debug_window(u64 ipa)
{
	const struct hyp_layout *l = &hyp_layout;
	unsigned int i;

	for (i = 0; i < l->nr_debug && !l->allow_debug; i++)
		if (ranges_overlap(ipa, 1, l->debug[i].base, l->debug[i].size))
			return true;
	return false;
}

/* spin_table_pages()' callbacks */
static void add_spin_hole(void *holes, u64 page)
{
	ranges_add(holes, page, SZ_4K);
}

static void assert_spin_absent(void *ctx, u64 page)
{
	assert_absent("a spin table", page, SZ_4K);
}

/*
 * The holes stage 2 leaves: our region, the spin tables, and the debug
 * windows unless let
 */
static void collect_holes(struct mem_ranges *holes)
{
	const struct hyp_layout *l = &hyp_layout;
	unsigned int i;

	ranges_add(holes, l->hyp_base, HYP_REGION_SIZE);
	spin_table_pages(add_spin_hole, holes);
	mmio_trace_holes(holes);
	if (!l->nr_debug)
		return;
	hyp_info("stage 2: %u debug and trace register windows %s EL1%s\n",
		 l->nr_debug, l->allow_debug ? "left to" : "kept from",
		 l->allow_debug ? " (hyptrace.allow_debug)" : "");
	/* dt_mem.c merged them; S2_MAX_HOLES leaves room for each */
	for (i = 0; i < l->nr_debug && !l->allow_debug; i++)
		ranges_add(holes, l->debug[i].base, l->debug[i].size);
}

void stage2_build(void)
{
	const struct hyp_layout *l = &hyp_layout;
	u64 parange = FIELD_GET(ID_AA64MMFR0_PARANGE,
				read_sysreg(id_aa64mmfr0_el1));
	unsigned int ipa_bits = parange_bits(parange), i;
	struct mem_range hole[S2_MAX_HOLES];
	struct mem_ranges holes = { hole, 0, S2_MAX_HOLES };
	u64 ipa_end, cursor = 0;
	u64 ram = stage2_attrs(STAGE2_RAM), mmio = stage2_attrs(STAGE2_MMIO);

	if (!HYP_STAGE2)
		return;
	if (ipa_bits > S2_MAX_IPA_BITS)
		ipa_bits = S2_MAX_IPA_BITS;
	ipa_end = 1UL << ipa_bits;
	pgtable_init(&stage2_host_map, ipa_bits, "stage-2 map");
	collect_holes(&holes);

	/* dt_mem.c sorted and merged RAM: the gaps between are devices */
	for (i = 0; i < l->nr_mem; i++) {
		const struct mem_range *m = &l->mem[i];

		if (m->base + m->size > ipa_end)
			hyp_panic("RAM at 0x%lx..0x%lx is beyond the %u-bit stage 2",
				  m->base, m->base + m->size - 1, ipa_bits);
		ranges_outside(&holes, cursor, m->base, map_piece, &mmio);
		ranges_outside(&holes, m->base, m->base + m->size, map_piece,
			       &ram);
		cursor = m->base + m->size;
	}
	ranges_outside(&holes, cursor, ipa_end, map_piece, &mmio);

	/* What must be absent is, whatever the ranges were */
	assert_absent("the hypervisor's region", l->hyp_base, HYP_REGION_SIZE);
	spin_table_pages(assert_spin_absent, NULL);
	for (i = 0; i < l->nr_debug && !l->allow_debug; i++)
		assert_absent("a debug window", l->debug[i].base,
			      l->debug[i].size);

	stage2_change_init();
	/* VTCR_EL2, field by field (Arm ARM, VTCR_EL2): */
	vtcr = VTCR_EL2_RES1 |
	       /* the input address space: 2^ipa_bits */
	       FIELD_PREP(VTCR_T0SZ, 64 - ipa_bits) |
	       /* walks start at level 1, as pgtable.c builds */
	       FIELD_PREP(VTCR_SL0, VTCR_SL0_L1_4K) |
	       /* walks read the tables write-back cached, as written */
	       VTCR_IRGN0_WBWA | VTCR_ORGN0_WBWA | VTCR_SH0_INNER |
	       /* the 4 KiB granule */
	       VTCR_TG0_4K |
	       /* output addresses up to what the CPU has, 48 bits at most */
	       FIELD_PREP(VTCR_PS, min(parange, (u64)TCR_PS_48BIT));
}

/* Every CPU, on its way to EL1 (hyp_cpu_start), after el2_setup_cpu() */
void stage2_enable(void)
{
	if (!HYP_STAGE2)
		return;
	write_sysreg(vtcr, vtcr_el2);
	write_sysreg((u64)stage2_host_map.root, vttbr_el2);	/* VMID 0 */
	/* The translation registers take effect before HCR_EL2.VM does */
	isb();
	write_sysreg(read_sysreg(hcr_el2) | HCR_VM, hcr_el2);
	isb();
	/*
	 * Nothing cached from a stage-1-only regime may be used now. No EL1
	 * code runs between HCR_EL2.VM and this, so invalidating after it is
	 * enough; the invalidation is of this PE's TLBs only (no IS), so a
	 * dsb nsh completes it, as in the kernel's local_flush_tlb_all().
	 */
	asm volatile("tlbi vmalls12e1" : : : "memory");
	asm volatile("dsb nsh" : : : "memory");
	isb();
}

/* The IPA of a stage-2 abort, from HPFAR_EL2 and the page offset in FAR */
u64 stage2_fault_ipa(u64 far)
{
	return (FIELD_GET(HPFAR_FIPA, read_sysreg(hpfar_el2)) << 12) |
	       (far & (SZ_4K - 1));
}
