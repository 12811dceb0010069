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

/*
 * Encodings of registers newer than the baseline assembler (binutils 2.40
 * knows none of them by name).
 */
#define ZCR_EL2		S3_4_C1_C2_0
#define TRFCR_EL2	S3_4_C1_C2_1
#define HCRX_EL2	S3_4_C1_C2_2
#define SMPRIMAP_EL2	S3_4_C1_C2_5
#define SMCR_EL2	S3_4_C1_C2_6
#define HFGRTR_EL2	S3_4_C1_C1_4
#define HFGWTR_EL2	S3_4_C1_C1_5
#define HFGITR_EL2	S3_4_C1_C1_6
#define GCSCR_EL2	S3_4_C2_C5_0
#define HDFGRTR2_EL2	S3_4_C3_C1_0
#define HDFGWTR2_EL2	S3_4_C3_C1_1
#define HFGRTR2_EL2	S3_4_C3_C1_2
#define HFGWTR2_EL2	S3_4_C3_C1_3
#define HDFGRTR_EL2	S3_4_C3_C1_4
#define HDFGWTR_EL2	S3_4_C3_C1_5
#define HAFGRTR_EL2	S3_4_C3_C1_6
#define HFGITR2_EL2	S3_4_C3_C1_7
#define BRBCR_EL2	S2_4_C9_C0_0
#define PMSCR_EL2	S3_4_C9_C9_0
#define MPAMHCR_EL2	S3_4_C10_C4_0
#define MPAM2_EL2	S3_4_C10_C5_0
#define ICC_SRE_EL2	S3_4_C12_C9_5
#define ICH_HFGRTR_EL2	S3_4_C12_C9_4
#define ICH_HFGWTR_EL2	S3_4_C12_C9_6
#define ICH_HFGITR_EL2	S3_4_C12_C9_7
#define ICH_HCR_EL2	S3_4_C12_C11_0
#define ID_AA64PFR2_EL1	S3_0_C0_C4_2
#define ID_AA64SMFR0_EL1 S3_0_C0_C4_5
#define ID_AA64DFR1_EL1	S3_0_C0_C5_1
#define ID_AA64DFR2_EL1	S3_0_C0_C5_2
#define ID_AA64ISAR2_EL1 S3_0_C0_C6_2
#define ID_AA64MMFR3_EL1 S3_0_C0_C7_3
#define ID_AA64MMFR4_EL1 S3_0_C0_C7_4
#define SMIDR_EL1	S3_1_C0_C0_6
#define GCSCR_EL1	S3_0_C2_C5_0
#define GCSCRE0_EL1	S3_0_C2_C5_2
#define PMSIDR_EL1	S3_0_C9_C9_7
#define PMBIDR_EL1	S3_0_C9_C10_7
#define TRBIDR_EL1	S3_0_C9_C11_7
#define LORC_EL1	S3_0_C10_C4_3
#define MPAMIDR_EL1	S3_0_C10_C4_4
#define AMCGCR_EL0	S3_3_C13_C2_2
#define AMCNTENSET0_EL0	S3_3_C13_C2_5
#define AMCNTENSET1_EL0	S3_3_C13_C3_1

/*
 * ID registers: the features whose presence changes what EL2 must do. A
 * field is a version number that only grows (0 = absent) unless it says
 * "signed"; the architecture keeps unallocated ID registers RAZ, so reading
 * one that an older CPU lacks gives "absent" everywhere.
 */
#define ID_AA64PFR0_CSV2	GENMASK(59, 56)	/* 2: SCXTNUM_ELx (CSV2_2) */
#define ID_AA64PFR0_AMU		GENMASK(47, 44)	/* activity monitors */
#define ID_AA64PFR0_MPAM	GENMASK(43, 40)	/* MPAM, major version */
#define ID_AA64PFR0_SVE		GENMASK(35, 32)	/* Scalable Vector Extension */
#define ID_AA64PFR0_RAS		GENMASK(31, 28)	/* 2: RASv1p1, 3: RASv2 */
#define ID_AA64PFR0_GIC		GENMASK(27, 24)	/* GIC system-register interface */
#define ID_AA64PFR1_PFAR	GENMASK(63, 60)	/* physical fault address reg. */
#define ID_AA64PFR1_THE		GENMASK(51, 48)	/* translation hardening */
#define ID_AA64PFR1_GCS		GENMASK(47, 44)	/* guarded control stacks */
#define ID_AA64PFR1_NMI		GENMASK(39, 36)	/* non-maskable interrupts */
#define ID_AA64PFR1_CSV2_FRAC	GENMASK(35, 32)	/* 2: CSV2_1p2, SCXTNUM_ELx */
#define ID_AA64PFR1_SME		GENMASK(27, 24)	/* Scalable Matrix Extension */
#define ID_AA64PFR1_MPAM_FRAC	GENMASK(19, 16)	/* MPAM, minor version */
#define ID_AA64PFR1_RAS_FRAC	GENMASK(15, 12)	/* 1: RASv1p1 on RAS 1 */
#define ID_AA64PFR1_MTE		GENMASK(11, 8)	/* Memory Tagging; 2 = full MTE2 */
#define ID_AA64PFR1_SSBS	GENMASK(7, 4)	/* PSTATE.SSBS */
#define ID_AA64PFR2_FPMR	GENMASK(35, 32)	/* FPMR, the FP8 mode register */
#define ID_AA64PFR2_GCIE	GENMASK(15, 12)	/* GICv5 CPU interface */
#define ID_AA64SMFR0_FA64	BIT(63)		/* full A64 in streaming mode */
#define ID_AA64DFR0_BRBE	GENMASK(55, 52)	/* branch record buffer */
#define ID_AA64DFR0_MTPMU	GENMASK(51, 48)	/* signed: 1 = multi-thread PMU */
#define ID_AA64DFR0_TRACEBUFFER	GENMASK(47, 44)	/* trace buffer (TRBE) */
#define ID_AA64DFR0_TRACEFILT	GENMASK(43, 40)	/* trace filter (TRFCR_ELx) */
#define ID_AA64DFR0_PMSVER	GENMASK(35, 32)	/* SPE: 1, 3 = v1p2, 5 = v1p4 */
#define ID_AA64DFR0_SEBEP	GENMASK(27, 24)	/* synchronous PMU exceptions */
#define ID_AA64DFR0_PMSS	GENMASK(19, 16)	/* PMU snapshots */
#define ID_AA64DFR0_PMUVER	GENMASK(11, 8)	/* PMU version, 0xf = IMP DEF */
#define ID_AA64DFR0_DEBUGVER	GENMASK(3, 0)	/* 0xb = Debugv8p9 */
#define ID_AA64DFR1_EBEP	GENMASK(51, 48)	/* PMU exceptions */
#define ID_AA64DFR1_ITE		GENMASK(47, 44)	/* instrumentation trace */
#define ID_AA64DFR1_PMICNTR	GENMASK(39, 36)	/* PMU instruction counter */
#define ID_AA64DFR1_SPMU	GENMASK(35, 32)	/* System PMU registers */
#define ID_AA64DFR2_SPE_NVM	GENMASK(23, 20)	/* SPE buffer by physical addr. */
#define ID_AA64DFR2_STEP	GENMASK(3, 0)	/* MDSTEPOP_EL1 (STEP2) */
#define ID_AA64ISAR1_LS64	GENMASK(63, 60)	/* 1 LS64, 2 LS64_V, 3 ACCDATA */
#define ID_AA64ISAR1_GPI	GENMASK(31, 28)	/* generic PAuth, imp. defined */
#define ID_AA64ISAR1_GPA	GENMASK(27, 24)	/* generic PAuth, QARMA5 */
#define ID_AA64ISAR1_API	GENMASK(11, 8)	/* address PAuth, imp. defined */
#define ID_AA64ISAR1_APA	GENMASK(7, 4)	/* address PAuth, QARMA5 */
#define ID_AA64ISAR1_DPB	GENMASK(3, 0)	/* 1 DC CVAP, 2 also DC CVADP */
#define ID_AA64ISAR0_TLB	GENMASK(59, 56)	/* 1 TLBI OS forms, 2 also ranges */
#define ID_AA64ISAR2_SYSREG128	GENMASK(35, 32)	/* 128-bit system registers */
#define ID_AA64ISAR2_MOPS	GENMASK(19, 16)	/* memcpy/memset instructions */
#define ID_AA64ISAR2_APA3	GENMASK(15, 12)	/* address PAuth, QARMA3 */
#define ID_AA64ISAR2_GPA3	GENMASK(11, 8)	/* generic PAuth, QARMA3 */
#define ID_AA64MMFR0_FGT	GENMASK(59, 56)	/* fine-grained traps, 2 = FGT2 */
#define ID_AA64MMFR0_PARANGE	GENMASK(3, 0)	/* physical address size */
#define ID_AA64MMFR1_HCX	GENMASK(43, 40)	/* HCRX_EL2 exists */
#define ID_AA64MMFR1_PAN	GENMASK(23, 20)	/* PSTATE.PAN */
#define ID_AA64MMFR1_LO		GENMASK(19, 16)	/* LORegions */
#define ID_AA64MMFR3_D128	GENMASK(35, 32)	/* 128-bit translation tables */
#define ID_AA64MMFR3_AIE	GENMASK(27, 24)	/* MAIR2/AMAIR2 */
#define ID_AA64MMFR3_S2POE	GENMASK(23, 20)	/* stage-2 permission overlays */
#define ID_AA64MMFR3_S1POE	GENMASK(19, 16)	/* stage-1 permission overlays */
#define ID_AA64MMFR3_S1PIE	GENMASK(11, 8)	/* stage-1 permission indirection */
#define ID_AA64MMFR3_SCTLRX	GENMASK(7, 4)	/* SCTLR2_EL1 exists */
#define ID_AA64MMFR3_TCRX	GENMASK(3, 0)	/* TCR2_EL1 exists */
#define ID_AA64MMFR4_SRMASK	GENMASK(47, 44)	/* SCTLRMASK_EL1 and friends */
#define ID_AA64MMFR4_POPS	GENMASK(3, 0)	/* point of physical storage */

/* The values that name a level of a feature, where more than "present" */
#define PAUTH_LR		6	/* APA, API, APA3: PACM and friends */
#define PMUVER_IMP_DEF		0xf	/* a PMU that is not PMUv3 */
#define PMUVER_V3P9		9
#define PMSVER_V1P2		3
#define PMSVER_V1P4		5
#define DEBUGVER_V8P9		0xb
#define RAS_V1P1		2
#define RAS_V2			3
#define CSV2_2			2
#define CSV2_FRAC_1P2		2
#define LS64_V			2
#define LS64_ACCDATA		3
#define MTE2			2
#define SME2			2
#define FGT2			2

/* Second-level ID fields of features found above */
#define PMSIDR_FDS		BIT(7)	/* SPE data source filter (PMSDSFR) */
#define PMSIDR_FNE		BIT(6)	/* SPE inverse event filter (PMSNEVFR) */
#define PMBIDR_P		BIT(4)	/* SPE buffer owned by a higher EL */
#define TRBIDR_MPAM		GENMASK(15, 12)	/* TRBMPAM_EL1 exists */
#define TRBIDR_P		BIT(4)	/* trace buffer owned by higher EL */
#define MPAMIDR_HAS_HCR		BIT(17)	/* MPAMHCR_EL2 exists */
#define SMIDR_SMPS		BIT(15)	/* SME priorities: SMPRIMAP_EL2 */
#define AMCGCR_CG1NC		GENMASK(15, 8)	/* auxiliary AMU counters */

/* HCR_EL2: how EL1 runs under us */
#define HCR_VM		BIT(0)		/* stage 2 for EL1 and EL0 (stage2.c) */
#define HCR_SWIO	BIT(1)		/* EL1's DC ISW cleans too (setway.c) */
#define HCR_RW		BIT(31)		/* EL1 is AArch64 */
#define HCR_TSC		BIT(19)		/* trap SMC: the PSCI relay needs it */
#define HCR_TIDCP	BIT(20)		/* trap IMPDEF registers (cpu_state.c) */
#define HCR_TACR	BIT(21)		/* trap ACTLR_EL1 (see setup_hcr) */
#define HCR_TSW		BIT(22)		/* trap DC by set/way (setway.c) */
#define HCR_TPCP	BIT(23)		/* trap DC by VA to PoC/PoP (maint_window.c) */
#define HCR_TPU		BIT(24)		/* trap DC CVAU, IC IVAU/IALLU(IS) (ditto) */
#define HCR_TTLB	BIT(25)		/* trap TLBI (ditto) */
#define HCR_TVM		BIT(26)		/* trap EL1 VM register writes (cpu_state.c) */
#define HCR_E2H		BIT(34)		/* must stay 0: we are non-VHE */
#define HCR_APK		BIT(40)		/* EL1 may use PAuth keys ... */
#define HCR_API		BIT(41)		/* ... and PAuth instructions */
#define HCR_FIEN	BIT(47)		/* EL1 may use RAS fault injection */
#define HCR_ENSCXT	BIT(53)		/* EL1 and EL0 may use SCXTNUM_ELx */
#define HCR_ATA		BIT(56)		/* EL1 may access allocation tags */
/* IMO/FMO/AMO stay 0: Linux owns every physical interrupt and SError. */

/*
 * HCRX_EL2 (FEAT_HCX): each bit below lets EL1 use a feature that would
 * otherwise trap to EL2 or be disabled at EL1. MCE2 stays 0: a MOPS
 * exception goes to EL1's own handler, as on a CPU without EL2 (nothing
 * here moves a CPU's work elsewhere, the case MCE2 exists for).
 */
#define HCRX_ENAS0	BIT(0)		/* ST64BV0 (LS64_ACCDATA) */
#define HCRX_ENALS	BIT(1)		/* LD64B/ST64B (LS64) */
#define HCRX_ENASR	BIT(2)		/* ST64BV (LS64_V) */
#define HCRX_MSCEN	BIT(11)		/* MOPS instructions at EL1/EL0 */
#define HCRX_TCR2EN	BIT(14)		/* TCR2_EL1 accessible */
#define HCRX_SCTLR2EN	BIT(15)		/* SCTLR2_EL1 accessible */
#define HCRX_PTTWI	BIT(16)		/* TCR2_EL1.PTTWI honoured (THE) */
#define HCRX_D128EN	BIT(17)		/* 128-bit descriptors at EL1 */
#define HCRX_ENIDCP128	BIT(21)		/* MRRS/MSRR of 128-bit registers */
#define HCRX_GCSEN	BIT(22)		/* guarded control stacks at EL1/EL0 */
#define HCRX_ENFPM	BIT(23)		/* FPMR accessible */
#define HCRX_PACMEN	BIT(24)		/* PACM honoured (PAuth_LR) */
#define HCRX_SRMASKEN	BIT(26)		/* SCTLRMASK_EL1 and friends */

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

/*
 * MDCR_EL2: every debug and PMU resource belongs to EL1. The trap bits
 * (TPM, TPMCR, TDE, TDA, TDOSA, TDRA, TPMS, TTRF, TDCC) stay 0; the fields
 * below give EL1 what it would have without EL2.
 */
#define MDCR_HPMN	GENMASK(4, 0)	/* PMU counters visible to EL1 */
#define MDCR_TDE	BIT(8)		/* debug exceptions go to EL2 (a step) */
#define MDSCR_SS	BIT(0)		/* MDSCR_EL1: software step enabled */
#define MDCR_E2PB	GENMASK(13, 12)	/* SPE buffer owner */
#define MDCR_E2PB_EL1	3		/* EL1&0 regime, EL1 untrapped */
#define MDCR_ENSPM	BIT(15)		/* System PMU registers at EL1 */
#define MDCR_E2TB	GENMASK(25, 24)	/* trace buffer owner */
#define MDCR_E2TB_EL1	3		/* EL1&0 regime, EL1 untrapped */
#define MDCR_MTPME	BIT(28)		/* PMEVTYPER<n>.MT honoured */
#define MDCR_EBWE	BIT(43)		/* breakpoints/watchpoints beyond 16 */
#define MDCR_ENSTEPOP	BIT(50)		/* MDSTEPOP_EL1 at EL1 */
#define PMCR_N		GENMASK(15, 11)	/* PMCR_EL0: number of counters */

/* PMSCR_EL2 (SPE): what EL1 may put in its samples */
#define PMSCR_PA	BIT(4)		/* physical addresses */
#define PMSCR_PCT	GENMASK(7, 6)	/* timestamp source */
#define PMSCR_PCT_PHYS	1		/* EL1 may choose the physical one */

/* BRBCR_EL2: EL2 itself records nothing (E2BRE, E0HBRE = 0) */
#define BRBCR_CC	BIT(3)		/* EL1 may record cycle counts */
#define BRBCR_MPRED	BIT(4)		/* EL1 may record mispredictions */

/* MPAM2_EL2: EL2's own defaults are partition 0 (PARTID, PMG = 0) */
#define MPAM2_ENMPAMSM	BIT(50)		/* MPAMSM_EL1 at EL1 (with SME) */

/* ZCR_EL2 / SMCR_EL2: let EL1 use the largest vector length */
#define ZCR_LEN_MAX	GENMASK(3, 0)
#define SMCR_LEN_MAX	GENMASK(3, 0)
#define SMCR_EZT0	BIT(30)		/* ZT0 register (SME2) not trapped */
#define SMCR_FA64	BIT(31)		/* full A64 in streaming mode */

/*
 * Fine-grained traps (FEAT_FGT, FGT2). Two polarities: a plain bit traps
 * EL1's access when 1, an "n" bit when 0. Every plain bit stays 0; the "n"
 * bits below are set for the features this CPU has, and left 0 (RES0) for
 * those it lacks. HFGRTR/HFGWTR (reads/writes) share their "n" bits.
 */
#define HFGxTR_nAMAIR2_EL1	BIT(63)	/* AIE */
#define HFGxTR_nMAIR2_EL1	BIT(62)	/* AIE */
#define HFGxTR_nS2POR_EL1	BIT(61)	/* S2POE */
#define HFGxTR_nPOR_EL1		BIT(60)	/* S1POE */
#define HFGxTR_nPOR_EL0		BIT(59)	/* S1POE */
#define HFGxTR_nPIR_EL1		BIT(58)	/* S1PIE */
#define HFGxTR_nPIRE0_EL1	BIT(57)	/* S1PIE */
#define HFGxTR_nRCWMASK_EL1	BIT(56)	/* THE */
#define HFGxTR_nTPIDR2_EL0	BIT(55)	/* SME */
#define HFGxTR_nSMPRI_EL1	BIT(54)	/* SME */
#define HFGxTR_nGCS_EL1		BIT(53)	/* GCS */
#define HFGxTR_nGCS_EL0		BIT(52)	/* GCS */
#define HFGxTR_nACCDATA_EL1	BIT(50)	/* LS64_ACCDATA */

/*
 * HFGWTR_EL2 plain bits, set for a while only: the CPU-state window
 * (cpu_state.c) traps EL1's writes of the registers that set up its MMU.
 */
#define HFGWTR_VBAR_EL1		BIT(38)
#define HFGWTR_TTBR1_EL1	BIT(37)
#define HFGWTR_TTBR0_EL1	BIT(36)
#define HFGWTR_TCR_EL1		BIT(32)
#define HFGWTR_SCTLR_EL1	BIT(29)
#define HFGWTR_MAIR_EL1		BIT(24)
#define HFGWTR_CPACR_EL1	BIT(12)

/* HFGITR_EL2: instructions */
#define HFGITR_nGCSEPP		BIT(59)	/* GCS */
#define HFGITR_nGCSSTR_EL1	BIT(58)	/* GCS */
#define HFGITR_nGCSPUSHM_EL1	BIT(57)	/* GCS */
#define HFGITR_nBRBIALL		BIT(56)	/* BRBE */
#define HFGITR_nBRBINJ		BIT(55)	/* BRBE */
/* The TLBI and DC/IC by VA the maintenance window traps (maint_window.c) */
#define HFGITR_DCCVAC		BIT(54)	/* DC CVAC, CGVAC, CGDVAC */
#define HFGITR_TLBI_E1		GENMASK(47, 42)	/* VMALLE1..VAALE1 (+nXS) */
#define HFGITR_TLBI_RE1		GENMASK(41, 38)	/* RVAE1..RVAALE1: TLBIRANGE */
#define HFGITR_TLBI_RE1IS	GENMASK(37, 34)	/* RVAE1IS..: TLBIRANGE */
#define HFGITR_TLBI_E1IS	GENMASK(33, 28)	/* VMALLE1IS..VAALE1IS */
#define HFGITR_TLBI_RE1OS	GENMASK(27, 24)	/* RVAE1OS..: TLBIOS, RANGE */
#define HFGITR_TLBI_E1OS	GENMASK(23, 18)	/* VMALLE1OS..: TLBIOS */
#define HFGITR_DCCIVAC		BIT(10)	/* DC CIVAC, CIGVAC, CIGDVAC */
#define HFGITR_DCCVADP		BIT(9)	/* DC CVADP (+G, GD): DPB2 */
#define HFGITR_DCCVAP		BIT(8)	/* DC CVAP (+G, GD): DPB */
#define HFGITR_DCCVAU		BIT(7)	/* DC CVAU */
#define HFGITR_DCIVAC		BIT(3)	/* DC IVAC, IGVAC, IGDVAC */
#define HFGITR_ICIVAU		BIT(2)	/* IC IVAU */
#define HFGITR_ICIALLU		BIT(1)	/* IC IALLU */
#define HFGITR_ICIALLUIS	BIT(0)	/* IC IALLUIS */

/* HDFGRTR_EL2/HDFGWTR_EL2: debug, PMU, trace; BRBIDR is read-only */
#define HDFGxTR_nPMSNEVFR_EL1	BIT(62)	/* SPE with FnE */
#define HDFGxTR_nBRBDATA	BIT(61)	/* BRBE: BRBSRC/TGT/INF, injection */
#define HDFGxTR_nBRBCTL		BIT(60)	/* BRBE: BRBCR, BRBFCR */
#define HDFGRTR_nBRBIDR		BIT(59)	/* BRBE: BRBIDR */

/* HFGRTR2_EL2/HFGWTR2_EL2 (FGT2); ERXGSR is read-only */
/* SRMASK: the SCTLR, SCTLR2, TCR, TCR2, CPACR, ACTLR MASK and ALIAS regs */
#define HFGxTR2_nSRMASK_REGS	GENMASK(14, 3)
#define HFGxTR2_nRCWSMASK_EL1	BIT(2)	/* THE */
#define HFGRTR2_nERXGSR_EL1	BIT(1)	/* RASv2 */
#define HFGxTR2_nPFAR_EL1	BIT(0)	/* PFAR */

/* HFGITR2_EL2 (FGT2) */
#define HFGITR2_nDCCIVAPS	BIT(1)	/* PoPS */

/*
 * HDFGRTR2_EL2/HDFGWTR2_EL2 (FGT2). Read-only: SPMDEVAFF, SPMID, PMSSDATA;
 * write-only: PMZR.
 */
#define HDFGxTR2_nPMBMAR_EL1	BIT(24)	/* SPE_nVM */
#define HDFGxTR2_nMDSTEPOP_EL1	BIT(23)	/* STEP2 */
#define HDFGxTR2_nTRBMPAM_EL1	BIT(22)	/* TRBE with MPAM */
#define HDFGWTR2_nPMZR_EL0	BIT(21)	/* PMUv3p9 */
#define HDFGxTR2_nTRCITECR_EL1	BIT(20)	/* ITE */
#define HDFGxTR2_nPMSDSFR_EL1	BIT(19)	/* SPE with FDS */
#define HDFGRTR2_nSPMDEVAFF_EL1	BIT(18)	/* SPMU */
#define HDFGRTR2_nSPMID		BIT(17)	/* SPMU */
/*
 * SPMU: SPMSCR, SPMACCESSR, SPMCR, SPMOVS, SPMINTEN, SPMCNTEN, SPMSELR,
 * SPMEVTYPERn, SPMEVCNTRn
 */
#define HDFGxTR2_nSPM_REGS	GENMASK(16, 8)
#define HDFGxTR2_nPMSSCR_EL1	BIT(7)	/* PMSS */
#define HDFGRTR2_nPMSSDATA	BIT(6)	/* PMSS */
#define HDFGxTR2_nMDSELR_EL1	BIT(5)	/* Debugv8p9 */
#define HDFGxTR2_nPMUACR_EL1	BIT(4)	/* PMUv3p9 */
#define HDFGxTR2_nPMICFILTR_EL0	BIT(3)	/* PMICNTR */
#define HDFGxTR2_nPMICNTR_EL0	BIT(2)	/* PMICNTR */
#define HDFGxTR2_nPMIAR_EL1	BIT(1)	/* SEBEP */
#define HDFGxTR2_nPMECR_EL1	BIT(0)	/* EBEP or PMSS */

/*
 * ICH_HFG*TR_EL2 (GICv5): these bits untrap EL1's GICv5 CPU interface when
 * 1, despite their names; booting.rst lists them all.
 */
/* Reads of ICC_PPI_{ACTIVER, PRIORITYR, PENDR, ENABLER, HMR}n_EL1 */
#define ICH_HFGRTR_PPI_REGS	GENMASK(20, 16)
/* Reads of ICC_{IAFFIDR, ICSR, PCR, HPPIR, HAPR, CR0, IDRn, APR}_EL1 */
#define ICH_HFGRTR_ICC_REGS	GENMASK(7, 0)
/* Writes of ICC_PPI_{ACTIVER, PRIORITYR, PENDR, ENABLER}n_EL1 */
#define ICH_HFGWTR_PPI_REGS	GENMASK(20, 17)
/* Writes of ICC_{ICSR, PCR, CR0, APR}_EL1 */
#define ICH_HFGWTR_ICC_REGS	(BIT(6) | BIT(5) | BIT(2) | BIT(0))
/*
 * GICR CDNMIA, CDIA; GIC CDDI, CDEOI, CDHM, CDRCFG, CDPEND, CDAFF, CDPRI,
 * CDDIS, CDEN
 */
#define ICH_HFGITR_GIC_INSNS	GENMASK(10, 0)

/* ICC_SRE_EL2: GICv3 system-register interface */
#define ICC_SRE_SRE	BIT(0)		/* EL2 uses system registers */
#define ICC_SRE_ENABLE	BIT(3)		/* EL1 may use ICC_SRE_EL1 */

/*
 * PSTATE as SPSR_ELx holds it, AArch64 layout: for the return to Linux, and
 * for an exception the hypervisor makes EL1 take (traps.c).
 */
#define PSR_MODE_EL	GENMASK(3, 2)	/* M[3:2]: exception level */
#define PSR_MODE_SP	BIT(0)		/* M[0]: SP_ELx, not SP_EL0 */
#define PSR_MODE_EL1h	0x5		/* EL1 with SP_EL1 */
#define PSR_MODE32	BIT(4)		/* M[4]: taken from AArch32 */
#define PSR_F		BIT(6)
#define PSR_I		BIT(7)
#define PSR_A		BIT(8)
#define PSR_D		BIT(9)
#define PSR_BTYPE	GENMASK(11, 10)	/* BTI: branch type */
#define PSR_SSBS	BIT(12)		/* speculative store bypass safe */
#define PSR_ALLINT	BIT(13)		/* NMI: all interrupts masked */
#define PSR_IL		BIT(20)		/* illegal execution state */
#define PSR_SS		BIT(21)		/* software step */
#define PSR_PAN		BIT(22)		/* privileged access never */
#define PSR_UAO		BIT(23)		/* user access override */
#define PSR_DIT		BIT(24)		/* data independent timing */
#define PSR_TCO		BIT(25)		/* MTE tag check override */
#define PSR_NZCV	GENMASK(31, 28)	/* condition flags */
#define PSR_PM		BIT(32)		/* EBEP: PMU exception mask */
#define PSR_PPEND	BIT(33)		/* SEBEP: PMU exception pending */
#define PSR_EXLOCK	BIT(34)		/* GCS: exception return lock */
#define PSR_PACM	BIT(35)		/* PAuth_LR: PACM in effect */
#define PSR_AA32_DIT	BIT(21)		/* DIT in an AArch32 SPSR */
#define SPSR_EL1_ENTRY	(PSR_MODE_EL1h | PSR_D | PSR_A | PSR_I | PSR_F)

/* VBAR_EL1: the vector table's base, and its synchronous entries' offsets */
#define VBAR_BASE		GENMASK(63, 11)
#define VECTOR_CUR_SP0		0x000	/* from EL1 with SP_EL0 */
#define VECTOR_CUR_SPX		0x200	/* from EL1 with SP_EL1 */
#define VECTOR_LOWER_A64	0x400	/* from EL0, AArch64 */
#define VECTOR_LOWER_A32	0x600	/* from EL0, AArch32 */

/* SCTLR_EL1.M: EL1's stage-1 MMU is on (cpu_state.c's window ends) */
#define SCTLR_EL1_M		BIT(0)

/* SCTLR_EL1 fields that decide PSTATE on an exception entry to EL1 */
#define SCTLR_EL1_SPAN		BIT(23)	/* 0: PAN set on entry */
#define SCTLR_EL1_DSSBS		BIT(44)	/* PSTATE.SSBS on entry */
#define SCTLR_EL1_SPINTMASK	BIT(62)	/* 0: ALLINT set on entry */

/* GCSCR_EL1 */
#define GCSCR_EXLOCKEN		BIT(6)	/* PSTATE.EXLOCK on entry from EL1 */

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

/* VTCR_EL2: the host's stage 2 (stage2.c) */
#define VTCR_T0SZ	GENMASK(5, 0)	/* IPA size is 64 - T0SZ */
#define VTCR_SL0	GENMASK(7, 6)	/* start level, with TG0 */
#define VTCR_SL0_L1_4K	1		/* 4 KiB granule: walks start at level 1 */
#define VTCR_IRGN0_WBWA	(1UL << 8)	/* table walks inner write-back */
#define VTCR_ORGN0_WBWA	(1UL << 10)	/* table walks outer write-back */
#define VTCR_SH0_INNER	(3UL << 12)	/* table walks inner shareable */
#define VTCR_TG0_4K	(0UL << 14)	/* 4 KiB granule */
#define VTCR_PS		GENMASK(18, 16)	/* output address size, as TCR_PS */
#define VTCR_EL2_RES1	BIT(31)

/* HPFAR_EL2: the faulting IPA's page, for stage-2 aborts */
#define HPFAR_FIPA	GENMASK(43, 4)	/* IPA bits [51:12] */

/* ESR_ELx */
#define ESR_EC		GENMASK(31, 26)
#define ESR_IL		BIT(25)		/* 32-bit instruction; RES1 for EC 0 */
#define ESR_EC_UNKNOWN	0x00		/* UNDEFINED instruction, and more */
#define ESR_EC_CP15_32	0x03		/* MCR, MRC of CP15 from AArch32 EL0 */
#define ESR_ISS_IMM16	GENMASK(15, 0)
#define ESR_ISS		GENMASK(24, 0)
#define ESR_EC_HVC64	0x16
#define ESR_EC_SMC64	0x17
#define ESR_EC_SYS64	0x18		/* MSR, MRS, SYS (setway.c's DC) */
#define ESR_EC_IABT_LOW	0x20		/* instruction abort from a lower EL */
#define ESR_EC_IABT_CUR	0x21		/* ... from the same EL */
#define ESR_EC_DABT_LOW	0x24		/* data abort from a lower EL */
#define ESR_EC_DABT_CUR	0x25		/* ... from the same EL */
#define ESR_EC_SOFTSTP_LOW	0x32	/* software step from a lower EL */
/* ISS of EC 0x18, a trapped MSR, MRS or SYS instruction */
#define ESR_SYS_DIR_READ	BIT(0)		/* MRS or SYSL */
#define ESR_SYS_CRM		GENMASK(4, 1)
#define ESR_SYS_RT		GENMASK(9, 5)
#define ESR_SYS_CRN		GENMASK(13, 10)
#define ESR_SYS_OP1		GENMASK(16, 14)
#define ESR_SYS_OP2		GENMASK(19, 17)
#define ESR_SYS_OP0		GENMASK(21, 20)
/* Instruction and data abort ISS */
#define ESR_ABT_FSC	GENMASK(5, 0)	/* fault status code */
#define ESR_ABT_WNR	BIT(6)		/* data: the access was a write */
#define ESR_ABT_S1PTW	BIT(7)		/* on a stage-1 table walk */
#define ESR_ABT_FNV	BIT(10)		/* FAR is not valid */
#define ESR_ABT_SRT	GENMASK(20, 16)	/* data, with ISV: the register */
#define ESR_ABT_ISV	BIT(24)		/* data: ISS describes the access */
#define ESR_FSC_SEA	0x10		/* synchronous external abort */
#define ESR_FSC_TRANSLATION	0x04	/* translation fault, at ... */
#define ESR_FSC_LEVEL		0x03	/* ... the level in these bits */

/* MPIDR_EL1: the affinity fields that name a CPU */
#define MPIDR_HWID_MASK	0xff00ffffffUL

#endif /* HYP_SYSREGS_H */
