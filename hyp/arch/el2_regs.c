// SPDX-License-Identifier: GPL-2.0
/*
 * The EL2 register set an EL1 Linux needs, programmed on every CPU (boot,
 * CPU_ON and resume alike) because each arrives with reset or firmware
 * values.
 *
 * The rule: EL1 gets every feature the CPU has, untrapped, as if there were
 * no EL2. What the CPU has is read from its ID registers, never assumed from
 * the model: "-cpu max" on QEMU 11 has FGT, HCX, S1PIE, GCS, SME and more,
 * cortex-a57 none of them. Every trap control therefore comes in one of two
 * forms: a bit that traps when 1 stays 0, and a bit that untraps when 1 (an
 * "n" bit of the fine-grained traps, an enable in HCRX_EL2 or MDCR_EL2) is
 * set exactly when the feature it belongs to is there; for a missing feature
 * it is RES0 and stays 0. One trap is deliberate: see setup_hcr().
 *
 * Documentation/arch/arm64/booting.rst lists what Linux requires of a boot
 * at EL1; Linux's own EL2 set-up (el2_setup.h) and KVM's feature map
 * (arch/arm64/kvm/config.c) name which feature owns which bit.
 *
 * Anything that still traps reaches traps.c, which makes it UNDEFINED at
 * EL1, as it would be without EL2.
 */
#include "cpu_features.h"
#include "el2_regs.h"
#include "panic.h"
#include "sysregs.h"


/*
 * HCR_EL2: EL1 is AArch64 and its SMCs come to us (the PSCI relay). The
 * rest are enables that untrap what the CPU has; every trap bit stays 0
 * but these:
 * - TACR. ACTLR_EL1 is IMPLEMENTATION DEFINED, owned by firmware, and no
 *   Linux code touches it (KVM traps it for its guests too); trapping it
 *   gives every CPU model, even one with nothing else to trap, an access
 *   that takes the UNDEFINED path of traps.c, which tests/boot/36-undef.sh
 *   checks.
 * - TSW, with SWIO: an invalidate by set/way from EL1 must not discard the
 *   hypervisor's dirty lines; setway.c performs every set/way operation
 *   as clean and invalidate. SWIO alone would do it on a core that honours
 *   it; TSW does it on every core.
 * - TIDCP: the IMPLEMENTATION DEFINED registers canary. The first access
 *   on each CPU is recorded, then the trap comes off and the access runs
 *   at EL1 as without EL2 (cpu_state.c, impdef_trap()).
 */
static void setup_hcr(const struct id_regs *id)
{
	u64 hcr = HCR_RW | HCR_TSC | HCR_TACR | HCR_TSW | HCR_SWIO |
		  HCR_TIDCP;

	if (has_pauth(id))
		hcr |= HCR_API | HCR_APK;
	if (at_least(id->pfr1, ID_AA64PFR1_MTE, MTE2))
		hcr |= HCR_ATA;
	if (has_rasv1p1(id))
		hcr |= HCR_FIEN;
	if (has_scxtnum(id))
		hcr |= HCR_ENSCXT;
	write_sysreg(hcr, hcr_el2);
	isb();

	/*
	 * Everything here is laid out for E2H == 0. A CPU without that mode
	 * (FEAT_E2H0 absent) keeps E2H at 1 whatever we write.
	 */
	if (read_sysreg(hcr_el2) & HCR_E2H)
		hyp_panic("HCR_EL2.E2H is stuck at 1: this CPU has no non-VHE EL2");
}

/* HCRX_EL2: the enables for features newer than HCR_EL2 */
static void setup_hcrx(const struct id_regs *id)
{
	u64 ls64 = FIELD_GET(ID_AA64ISAR1_LS64, id->isar1);
	u64 hcrx = 0;

	if (!has(id->mmfr1, ID_AA64MMFR1_HCX))
		return;
	if (ls64)
		hcrx |= HCRX_ENALS;
	if (ls64 >= LS64_V)
		hcrx |= HCRX_ENASR;
	if (ls64 >= LS64_ACCDATA)
		hcrx |= HCRX_ENAS0;
	if (has(id->isar2, ID_AA64ISAR2_MOPS))
		hcrx |= HCRX_MSCEN;
	if (has(id->mmfr3, ID_AA64MMFR3_TCRX))
		hcrx |= HCRX_TCR2EN;
	if (has(id->mmfr3, ID_AA64MMFR3_SCTLRX))
		hcrx |= HCRX_SCTLR2EN;
	if (has(id->pfr1, ID_AA64PFR1_THE))
		hcrx |= HCRX_PTTWI;
	if (has(id->mmfr3, ID_AA64MMFR3_D128))
		hcrx |= HCRX_D128EN;
	if (has(id->isar2, ID_AA64ISAR2_SYSREG128))
		hcrx |= HCRX_ENIDCP128;
	if (has_gcs(id))
		hcrx |= HCRX_GCSEN;
	if (has(id->pfr2, ID_AA64PFR2_FPMR))
		hcrx |= HCRX_ENFPM;
	if (has_pauth_lr(id))
		hcrx |= HCRX_PACMEN;
	if (has(id->mmfr4, ID_AA64MMFR4_SRMASK))
		hcrx |= HCRX_SRMASKEN;
	write_sysreg(hcrx, HCRX_EL2);
}

/* FP, SVE and SME untrapped, with the largest vector lengths */
static void setup_fp(const struct id_regs *id)
{
	u64 cptr = CPTR_EL2_RES1;
	bool sve = has(id->pfr0, ID_AA64PFR0_SVE);
	bool sme = has_sme(id);

	/* TFP, TTA, TAM and TCPAC stay 0: FP, trace, AMU, CPACR_EL1 */
	if (!sve)
		cptr |= CPTR_TZ;
	if (!sme)
		cptr |= CPTR_TSM;
	write_sysreg(cptr, cptr_el2);
	isb();

	if (sve)
		write_sysreg(ZCR_LEN_MAX, ZCR_EL2);
	if (sme) {
		u64 smcr = SMCR_LEN_MAX;

		if (read_sysreg(ID_AA64SMFR0_EL1) & ID_AA64SMFR0_FA64)
			smcr |= SMCR_FA64;
		if (at_least(id->pfr1, ID_AA64PFR1_SME, SME2))
			smcr |= SMCR_EZT0;
		write_sysreg(smcr, SMCR_EL2);
		/* Only with priorities; 0 maps them all to the same one */
		if (read_sysreg(SMIDR_EL1) & SMIDR_SMPS)
			write_sysreg(0, SMPRIMAP_EL2);
	}
}

/*
 * MDCR_EL2 and the other debug owners: every PMU counter, the SPE and trace
 * buffers and the branch records belong to EL1. EL2 itself is not sampled
 * by SPE (PMSCR_EL2.E2SPE = 0), traced (TRFCR_EL2) or recorded (BRBCR_EL2);
 * whether a PMU counter counts at EL2 stays EL1's own choice (NSH).
 */
static void setup_debug(const struct id_regs *id)
{
	u64 mdcr = 0;

	if (has_pmuv3(id, 1))
		mdcr |= FIELD_PREP(MDCR_HPMN,
				   FIELD_GET(PMCR_N, read_sysreg(pmcr_el0)));
	if (has_spe(id)) {
		/* Unless EL3 keeps the buffer: physical addresses, timer */
		if (!(read_sysreg(PMBIDR_EL1) & PMBIDR_P))
			write_sysreg(PMSCR_PA |
				     FIELD_PREP(PMSCR_PCT, PMSCR_PCT_PHYS),
				     PMSCR_EL2);
		mdcr |= FIELD_PREP(MDCR_E2PB, MDCR_E2PB_EL1);
	}
	if (has_trbe(id) && !(read_sysreg(TRBIDR_EL1) & TRBIDR_P))
		mdcr |= FIELD_PREP(MDCR_E2TB, MDCR_E2TB_EL1);
	if (has(id->dfr1, ID_AA64DFR1_SPMU))
		mdcr |= MDCR_ENSPM;
	/* Signed field: 1 is the feature, 0xf its absence */
	if (FIELD_GET(ID_AA64DFR0_MTPMU, id->dfr0) == 1)
		mdcr |= MDCR_MTPME;
	if (at_least(id->dfr0, ID_AA64DFR0_DEBUGVER, DEBUGVER_V8P9))
		mdcr |= MDCR_EBWE;
	if (has(id->dfr2, ID_AA64DFR2_STEP))
		mdcr |= MDCR_ENSTEPOP;
	write_sysreg(mdcr, mdcr_el2);

	/* No tracing at EL2; EL1's own TRFCR_EL1 decides for EL1 */
	if (has(id->dfr0, ID_AA64DFR0_TRACEFILT))
		write_sysreg(0, TRFCR_EL2);
	if (has_brbe(id))
		write_sysreg(BRBCR_CC | BRBCR_MPRED, BRBCR_EL2);
}

/*
 * The activity monitors count for EL1 (booting.rst): CPTR_EL2.TAM is 0
 * already, and every counter is enabled.
 */
static void setup_amu(const struct id_regs *id)
{
	u64 aux;

	if (!has(id->pfr0, ID_AA64PFR0_AMU))
		return;
	write_sysreg(GENMASK(3, 0), AMCNTENSET0_EL0);	/* the 4 fixed ones */
	aux = FIELD_GET(AMCGCR_CG1NC, read_sysreg(AMCGCR_EL0));
	if (aux)
		write_sysreg(GENMASK(aux - 1, 0), AMCNTENSET1_EL0);
}

/*
 * MPAM: EL2 leaves its own traps of MPAM1_EL1, MPAM0_EL1 and MPAMIDR_EL1
 * off and works in the default partition.
 */
static void setup_mpam(const struct id_regs *id)
{
	if (!has_mpam(id))
		return;
	write_sysreg(has_sme(id) ? MPAM2_ENMPAMSM : 0, MPAM2_EL2);
	if (read_sysreg(MPAMIDR_EL1) & MPAMIDR_HAS_HCR)
		write_sysreg(0, MPAMHCR_EL2);
}

/*
 * EL1 state that booting.rst asks the higher EL to initialise for an entry
 * at EL1: no guarded control stack in use (and none at EL2), LORegions off.
 */
static void setup_el1_state(const struct id_regs *id)
{
	if (has_gcs(id)) {
		write_sysreg(0, GCSCR_EL2);
		write_sysreg(0, GCSCR_EL1);
		write_sysreg(0, GCSCRE0_EL1);
	}
	if (has(id->mmfr1, ID_AA64MMFR1_LO))
		write_sysreg(0, LORC_EL1);
}

/* The interrupt controller's CPU interface through system registers */
static void setup_gic(const struct id_regs *id)
{
	/* GICv5: its fine-grained controls untrap EL1 when set */
	if (has(id->pfr2, ID_AA64PFR2_GCIE)) {
		write_sysreg(ICH_HFGRTR_PPI_REGS | ICH_HFGRTR_ICC_REGS,
			     ICH_HFGRTR_EL2);
		write_sysreg(ICH_HFGWTR_PPI_REGS | ICH_HFGWTR_ICC_REGS,
			     ICH_HFGWTR_EL2);
		write_sysreg(ICH_HFGITR_GIC_INSNS, ICH_HFGITR_EL2);
	}
	/* GICv3: EL1 uses ICC_*_EL1; no virtual interface in use */
	if (!has(id->pfr0, ID_AA64PFR0_GIC))
		return;
	write_sysreg(read_sysreg(ICC_SRE_EL2) | ICC_SRE_SRE | ICC_SRE_ENABLE,
		     ICC_SRE_EL2);
	isb();
	write_sysreg(0, ICH_HCR_EL2);
}

static void read_id_regs(struct id_regs *id)
{
	id->pfr0 = read_sysreg(id_aa64pfr0_el1);
	id->pfr1 = read_sysreg(id_aa64pfr1_el1);
	id->pfr2 = read_sysreg(ID_AA64PFR2_EL1);
	id->dfr0 = read_sysreg(id_aa64dfr0_el1);
	id->dfr1 = read_sysreg(ID_AA64DFR1_EL1);
	id->dfr2 = read_sysreg(ID_AA64DFR2_EL1);
	id->isar1 = read_sysreg(id_aa64isar1_el1);
	id->isar2 = read_sysreg(ID_AA64ISAR2_EL1);
	id->mmfr0 = read_sysreg(id_aa64mmfr0_el1);
	id->mmfr1 = read_sysreg(id_aa64mmfr1_el1);
	id->mmfr3 = read_sysreg(ID_AA64MMFR3_EL1);
	id->mmfr4 = read_sysreg(ID_AA64MMFR4_EL1);
}

void el2_setup_cpu(void)
{
	struct id_regs id;

	read_id_regs(&id);
	setup_hcr(&id);
	setup_hcrx(&id);
	setup_fp(&id);
	el2_setup_fgt(&id);
	setup_debug(&id);
	setup_amu(&id);
	setup_mpam(&id);
	setup_el1_state(&id);
	setup_gic(&id);

	/* Linux uses the virtual counter: same (zero) offset on every CPU */
	write_sysreg(CNTHCTL_EL1PCTEN | CNTHCTL_EL1PCEN, cnthctl_el2);
	write_sysreg(0, cntvoff_el2);

	/* EL1 reads of MIDR/MPIDR return these: the real values */
	write_sysreg(read_sysreg(midr_el1), vpidr_el2);
	write_sysreg(read_sysreg(mpidr_el1), vmpidr_el2);

	write_sysreg(0, hstr_el2);	/* no AArch32 CP15 traps */
	write_sysreg(0, vttbr_el2);	/* no stage 2: VMID 0 */
	isb();
}
