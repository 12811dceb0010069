// SPDX-License-Identifier: GPL-2.0
/*
 * The host's stage 2: an identity map of everything Linux may use, minus
 * the hypervisor's own 2 MiB region (image, stacks, page tables and the
 * trace writers' bookkeeping, see hyp_mem.c). The trace carve-out is RAM
 * like any other and stays shared. An EL1 or EL0 access to the region
 * faults to EL2, which answers with a synchronous external abort (traps.c).
 *
 * RAM (the device tree's /memory) is Normal write-back; every other
 * address below 2^ipa_bits is Device, so that whatever the device tree
 * places there (GIC, UART, PCIe windows, flash) works as without stage 2:
 * stage 1 still picks the final type, as the stricter of the two wins. The
 * map is built once at boot and never changes, so no CPU ever needs
 * break-before-make or a broadcast TLB invalidation; each CPU drops its
 * stage-1+2 TLB entries for VMID 0 as it turns stage 2 on.
 *
 * The input address space is 40 bits (1 TiB), or less where the CPU's
 * physical range is smaller: enough for QEMU's virt machine with its high
 * PCIe window and for the boards we know. Addresses above it fault.
 */
#include "hyp.h"
#include "pgtable.h"
#include "print.h"
#include "sysregs.h"

#define S2_MEMATTR(a)		((u64)(a) << 2)
#define S2_MEMATTR_NORMAL_WB	S2_MEMATTR(0xf)	/* outer and inner write-back */
#define S2_MEMATTR_DEVICE_nGnRE	S2_MEMATTR(0x1)
#define S2_AP_RW		(3UL << 6)	/* EL1 and EL0 may read and write */
#define S2_XN			(2UL << 53)	/* no execution at EL1 or EL0 */

#define S2_RAM		(S2_MEMATTR_NORMAL_WB | S2_AP_RW | PTE_SH_INNER | PTE_AF)
#define S2_DEVICE	(S2_MEMATTR_DEVICE_nGnRE | S2_AP_RW | PTE_AF | S2_XN)

#define S2_MAX_IPA_BITS	40

static struct pgtable host_map;
static u64 vtcr;

/* ID_AA64MMFR0_EL1.PARange: bits of physical address */
static unsigned int parange_bits(u64 parange)
{
	static const u8 bits[] = { 32, 36, 40, 42, 44, 48, 52 };

	return parange < ARRAY_SIZE(bits) ? bits[parange] : 52;
}

/* Map [from, to), a gap between RAM ranges, as device memory */
static void map_device(u64 from, u64 to)
{
	if (to > from)
		pgtable_map(&host_map, from, to - from, S2_DEVICE);
}

void stage2_build(void)
{
	u64 parange = FIELD_GET(ID_AA64MMFR0_PARANGE,
				read_sysreg(id_aa64mmfr0_el1));
	unsigned int ipa_bits = parange_bits(parange);
	u64 ipa_end, cursor = 0;
	bool done[HYP_MAX_MEM_RANGES] = { false };
	unsigned int n, i;

	if (!HYP_STAGE2)
		return;
	if (ipa_bits > S2_MAX_IPA_BITS)
		ipa_bits = S2_MAX_IPA_BITS;
	ipa_end = 1UL << ipa_bits;
	pgtable_init(&host_map, ipa_bits, "stage-2 map");

	/* The gaps between RAM ranges, in address order, are devices */
	for (n = 0; n < hyp_layout.nr_mem; n++) {
		const struct mem_range *low = NULL;
		unsigned int low_i = 0;

		for (i = 0; i < hyp_layout.nr_mem; i++) {
			if (!done[i] && (!low || hyp_layout.mem[i].base < low->base)) {
				low = &hyp_layout.mem[i];
				low_i = i;
			}
		}
		done[low_i] = true;
		if (low->base + low->size > ipa_end)
			hyp_panic("RAM at 0x%lx..0x%lx is beyond the %u-bit stage 2",
				  low->base, low->base + low->size - 1, ipa_bits);
		map_device(cursor, low->base);
		cursor = max(cursor, low->base + low->size);
	}
	map_device(cursor, ipa_end);
	pgtable_map_ram(&host_map, S2_RAM);

	vtcr = VTCR_EL2_RES1 | FIELD_PREP(VTCR_T0SZ, 64 - ipa_bits) |
	       FIELD_PREP(VTCR_SL0, VTCR_SL0_L1_4K) |
	       VTCR_IRGN0_WBWA | VTCR_ORGN0_WBWA | VTCR_SH0_INNER |
	       VTCR_TG0_4K | FIELD_PREP(VTCR_PS, min(parange, (u64)TCR_PS_48BIT));
}

/* Every CPU, on its way to EL1 (hyp_cpu_start), after el2_setup_cpu() */
void stage2_enable(void)
{
	if (!HYP_STAGE2)
		return;
	write_sysreg(vtcr, vtcr_el2);
	write_sysreg((u64)host_map.root, vttbr_el2);	/* VMID 0 */
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
