/* SPDX-License-Identifier: GPL-2.0 */
/*
 * System registers the hypervisor programs, described field by field.
 * Layouts are those of the non-VHE EL2 (HCR_EL2.E2H == 0), the only mode
 * hyptrace runs in. Registers the assembler may not know by name are given
 * by their encodings.
 */
#ifndef HYP_SYSREGS_H
#define HYP_SYSREGS_H

#ifdef __ASSEMBLER__
#define BIT(n)			(1 << (n))
#define GENMASK(h, l)		(((1 << ((h) - (l) + 1)) - 1) << (l))
#else
#include "types.h"

#define __stringify_1(x)	#x
#define __stringify(x)		__stringify_1(x)

#define read_sysreg(r) ({						\
	u64 __val;							\
	asm volatile("mrs %0, " __stringify(r) : "=r" (__val));	\
	__val;								\
})

#define write_sysreg(v, r)						\
	do {								\
		u64 __v = (u64)(v);					\
		asm volatile("msr " __stringify(r) ", %x0" : : "rZ" (__v)); \
	} while (0)

static inline void isb(void)
{
	asm volatile("isb" : : : "memory");
}

static inline void dsb_ish(void)
{
	asm volatile("dsb ish" : : : "memory");
}
#endif /* __ASSEMBLER__ */

/* Encodings of registers newer than the baseline assembler */
#define ZCR_EL2		S3_4_C1_C2_0
#define HCRX_EL2	S3_4_C1_C2_2
#define SMPRIMAP_EL2	S3_4_C1_C2_5
#define SMCR_EL2	S3_4_C1_C2_6
#define HFGRTR_EL2	S3_4_C1_C1_4
#define HFGWTR_EL2	S3_4_C1_C1_5
#define HFGITR_EL2	S3_4_C1_C1_6
#define HDFGRTR_EL2	S3_4_C3_C1_4
#define HDFGWTR_EL2	S3_4_C3_C1_5
#define ICC_SRE_EL2	S3_4_C12_C9_5
#define ICH_HCR_EL2	S3_4_C12_C11_0
#define ID_AA64SMFR0_EL1 S3_0_C0_C4_5
#define ID_AA64ISAR2_EL1 S3_0_C0_C6_2
#define ID_AA64MMFR3_EL1 S3_0_C0_C7_3

/* ID registers: the features whose presence changes what EL2 must do */
#define ID_AA64PFR0_SVE		GENMASK(35, 32)	/* Scalable Vector Extension */
#define ID_AA64PFR0_GIC		GENMASK(27, 24)	/* GIC system-register interface */
#define ID_AA64PFR1_SME		GENMASK(27, 24)	/* Scalable Matrix Extension */
#define ID_AA64PFR1_MTE		GENMASK(11, 8)	/* Memory Tagging; 2 = full MTE2 */
#define ID_AA64SMFR0_FA64	BIT(63)		/* full A64 in streaming mode */
#define ID_AA64ISAR1_GPI	GENMASK(31, 28)	/* generic PAuth, imp. defined */
#define ID_AA64ISAR1_GPA	GENMASK(27, 24)	/* generic PAuth, QARMA5 */
#define ID_AA64ISAR1_API	GENMASK(11, 8)	/* address PAuth, imp. defined */
#define ID_AA64ISAR1_APA	GENMASK(7, 4)	/* address PAuth, QARMA5 */
#define ID_AA64ISAR2_MOPS	GENMASK(19, 16)	/* memcpy/memset instructions */
#define ID_AA64ISAR2_APA3	GENMASK(15, 12)	/* address PAuth, QARMA3 */
#define ID_AA64ISAR2_GPA3	GENMASK(11, 8)	/* generic PAuth, QARMA3 */
#define ID_AA64MMFR0_FGT	GENMASK(59, 56)	/* fine-grained traps */
#define ID_AA64MMFR0_PARANGE	GENMASK(3, 0)	/* physical address size */
#define ID_AA64MMFR1_HCX	GENMASK(43, 40)	/* HCRX_EL2 exists */
#define ID_AA64MMFR3_TCRX	GENMASK(3, 0)	/* TCR2_EL1 exists */
#define ID_AA64DFR0_PMUVER	GENMASK(11, 8)	/* PMU version, 0xf = IMP DEF */

/* HCR_EL2: how EL1 runs under us */
#define HCR_RW		BIT(31)		/* EL1 is AArch64 */
#define HCR_TSC		BIT(19)		/* trap SMC: the PSCI relay needs it */
#define HCR_APK		BIT(40)		/* EL1 may use PAuth keys ... */
#define HCR_API		BIT(41)		/* ... and PAuth instructions */
#define HCR_ATA		BIT(56)		/* EL1 may access allocation tags */
/* IMO/FMO/AMO stay 0: Linux owns every physical interrupt and SError. */

/* HCRX_EL2 (FEAT_HCX) */
#define HCRX_MSCEN	BIT(11)		/* MOPS instructions at EL1/EL0 */
#define HCRX_TCR2EN	BIT(14)		/* TCR2_EL1 accessible */

/* CNTHCTL_EL2 (E2H == 0 layout) */
#define CNTHCTL_EL1PCTEN BIT(0)		/* EL1 reads the physical counter */
#define CNTHCTL_EL1PCEN	BIT(1)		/* EL1 uses the physical timer */

/* CPTR_EL2 (E2H == 0 layout): 0 in a trap bit means "do not trap" */
#define CPTR_EL2_RES1	(GENMASK(7, 0) | BIT(9) | BIT(13))
#define CPTR_TZ		BIT(8)		/* trap SVE; RES1 without SVE */
#define CPTR_TFP	BIT(10)		/* trap FP/SIMD */
#define CPTR_TSM	BIT(12)		/* trap SME; RES1 without SME */
#define CPTR_TTA	BIT(20)		/* trap trace registers */
#define CPTR_TAM	BIT(30)		/* trap activity monitors */
#define CPTR_TCPAC	BIT(31)		/* trap CPACR_EL1 */

/* MDCR_EL2: every debug and PMU resource belongs to EL1 */
#define MDCR_HPMN	GENMASK(4, 0)	/* PMU counters visible to EL1 */
#define PMCR_N		GENMASK(15, 11)	/* PMCR_EL0: number of counters */

/* ZCR_EL2 / SMCR_EL2: let EL1 use the largest vector length */
#define ZCR_LEN_MAX	GENMASK(3, 0)
#define SMCR_LEN_MAX	GENMASK(3, 0)
#define SMCR_EZT0	BIT(30)		/* ZT0 register (SME2) not trapped */
#define SMCR_FA64	BIT(31)		/* full A64 in streaming mode */

/* Fine-grained traps that trap when 0 ("n" bits) for SME state */
#define HFGxTR_nSMPRI_EL1	BIT(54)
#define HFGxTR_nTPIDR2_EL0	BIT(55)

/* ICC_SRE_EL2: GICv3 system-register interface */
#define ICC_SRE_SRE	BIT(0)		/* EL2 uses system registers */
#define ICC_SRE_ENABLE	BIT(3)		/* EL1 may use ICC_SRE_EL1 */

/* SPSR_EL2 for the return to Linux */
#define PSR_MODE_EL1h	0x5		/* EL1 with SP_EL1 */
#define PSR_F		BIT(6)
#define PSR_I		BIT(7)
#define PSR_A		BIT(8)
#define PSR_D		BIT(9)
#define SPSR_EL1_ENTRY	(PSR_MODE_EL1h | PSR_D | PSR_A | PSR_I | PSR_F)

/* SCTLR_EL1 as Linux wants it at entry: MMU and caches off, little endian */
#define SCTLR_EL1_EOS		BIT(11)	/* exception exit is context sync. */
#define SCTLR_EL1_TSCXT		BIT(20)	/* trap SCXTNUM_EL0 */
#define SCTLR_EL1_EIS		BIT(22)	/* exception entry is context sync. */
#define SCTLR_EL1_NTLSMD	BIT(28)	/* no trap on LD/ST multiple to Device */
#define SCTLR_EL1_LSMAOE	BIT(29)	/* LD/ST multiple atomicity */
#define SCTLR_EL1_ENTRY		(SCTLR_EL1_LSMAOE | SCTLR_EL1_NTLSMD |	\
				 SCTLR_EL1_EIS | SCTLR_EL1_TSCXT |	\
				 SCTLR_EL1_EOS)

/* SCTLR_EL2 (E2H == 0) */
#define SCTLR_EL2_M	BIT(0)		/* stage-1 MMU */
#define SCTLR_EL2_C	BIT(2)		/* data cacheable */
#define SCTLR_EL2_SA	BIT(3)		/* SP alignment check */
#define SCTLR_EL2_I	BIT(12)		/* instructions cacheable */
#define SCTLR_EL2_WXN	BIT(19)		/* writable implies execute-never */
#define SCTLR_EL2_RES1	(BIT(4) | BIT(5) | BIT(11) | BIT(16) | BIT(18) | \
			 BIT(22) | BIT(23) | BIT(28) | BIT(29))

/* MAIR_EL2: the two memory types the hypervisor maps */
#define MAIR_ATTR_NORMAL_WB	0xffUL	/* inner/outer WB RW-allocate, as Linux */
#define MAIR_ATTR_DEVICE_nGnRE	0x04UL
#define MT_NORMAL		0
#define MT_DEVICE		1
#define MAIR_EL2_VALUE		((MAIR_ATTR_NORMAL_WB << (8 * MT_NORMAL)) | \
				 (MAIR_ATTR_DEVICE_nGnRE << (8 * MT_DEVICE)))

/* TCR_EL2 (E2H == 0) */
#define TCR_T0SZ	GENMASK(5, 0)	/* VA size is 64 - T0SZ */
#define TCR_IRGN0_WBWA	(1UL << 8)	/* table walks inner write-back */
#define TCR_ORGN0_WBWA	(1UL << 10)	/* table walks outer write-back */
#define TCR_SH0_INNER	(3UL << 12)	/* table walks inner shareable */
#define TCR_TG0_4K	(0UL << 14)	/* 4 KiB granule */
#define TCR_PS		GENMASK(18, 16)	/* output address size */
#define TCR_EL2_RES1	(BIT(23) | BIT(31))
#define TCR_PS_48BIT	5		/* enough for every board we run on */

/* ESR_EL2 */
#define ESR_EC		GENMASK(31, 26)
#define ESR_ISS_IMM16	GENMASK(15, 0)
#define ESR_EC_HVC64	0x16
#define ESR_EC_SMC64	0x17

/* MPIDR_EL1: the affinity fields that name a CPU */
#define MPIDR_HWID_MASK	0xff00ffffffUL

#endif /* HYP_SYSREGS_H */
