// SPDX-License-Identifier: GPL-2.0
/*
 * The EL2 register set an EL1 Linux needs, programmed on every CPU (boot,
 * CPU_ON and resume alike) because each arrives with reset or firmware
 * values. What to enable is read from the ID registers, never assumed from
 * the CPU model: "-cpu max" has SVE, SME, PAuth and HCX, cortex-a57 none.
 */
#include "hyp.h"
#include "sysregs.h"

static bool has(u64 idreg, u64 field)
{
	return FIELD_GET(field, idreg) != 0;
}

static void setup_hcr(u64 isar1, u64 isar2, u64 pfr1)
{
	u64 hcr = HCR_RW | HCR_TSC;

	if (has(isar1, ID_AA64ISAR1_APA) || has(isar1, ID_AA64ISAR1_API) ||
	    has(isar1, ID_AA64ISAR1_GPA) || has(isar1, ID_AA64ISAR1_GPI) ||
	    has(isar2, ID_AA64ISAR2_APA3) || has(isar2, ID_AA64ISAR2_GPA3))
		hcr |= HCR_API | HCR_APK;
	if (FIELD_GET(ID_AA64PFR1_MTE, pfr1) >= 2)
		hcr |= HCR_ATA;
	write_sysreg(hcr, hcr_el2);

	if (has(read_sysreg(id_aa64mmfr1_el1), ID_AA64MMFR1_HCX)) {
		u64 hcrx = 0;

		if (has(isar2, ID_AA64ISAR2_MOPS))
			hcrx |= HCRX_MSCEN;
		if (has(read_sysreg(ID_AA64MMFR3_EL1), ID_AA64MMFR3_TCRX))
			hcrx |= HCRX_TCR2EN;
		write_sysreg(hcrx, HCRX_EL2);
	}
}

/* FP, SVE and SME untrapped, with the largest vector lengths */
static void setup_fp(u64 pfr0, u64 pfr1)
{
	u64 cptr = CPTR_EL2_RES1;
	bool sve = has(pfr0, ID_AA64PFR0_SVE);
	bool sme = has(pfr1, ID_AA64PFR1_SME);

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
		if (FIELD_GET(ID_AA64PFR1_SME, pfr1) >= 2)
			smcr |= SMCR_EZT0;
		write_sysreg(smcr, SMCR_EL2);
		write_sysreg(0, SMPRIMAP_EL2);
	}
}

/*
 * Fine-grained traps, where they exist, trap nothing; the few "n" bits that
 * trap when clear are set for the features this CPU has.
 */
static void setup_fgt(u64 pfr1)
{
	u64 nbits = 0;

	if (!has(read_sysreg(id_aa64mmfr0_el1), ID_AA64MMFR0_FGT))
		return;
	if (has(pfr1, ID_AA64PFR1_SME))
		nbits |= HFGxTR_nSMPRI_EL1 | HFGxTR_nTPIDR2_EL0;
	write_sysreg(nbits, HFGRTR_EL2);
	write_sysreg(nbits, HFGWTR_EL2);
	write_sysreg(0, HFGITR_EL2);
	write_sysreg(0, HDFGRTR_EL2);
	write_sysreg(0, HDFGWTR_EL2);
}

/* Every PMU counter and all of debug belong to EL1 */
static void setup_debug(void)
{
	u64 dfr0 = read_sysreg(id_aa64dfr0_el1);
	u64 pmuver = FIELD_GET(ID_AA64DFR0_PMUVER, dfr0);
	u64 mdcr = 0;

	if (pmuver && pmuver != 0xf)
		mdcr |= FIELD_PREP(MDCR_HPMN,
				   FIELD_GET(PMCR_N, read_sysreg(pmcr_el0)));
	write_sysreg(mdcr, mdcr_el2);
}

/* GICv3 through system registers at EL1; no virtual interface in use */
static void setup_gic(u64 pfr0)
{
	if (!has(pfr0, ID_AA64PFR0_GIC))
		return;
	write_sysreg(read_sysreg(ICC_SRE_EL2) | ICC_SRE_SRE | ICC_SRE_ENABLE,
		     ICC_SRE_EL2);
	isb();
	write_sysreg(0, ICH_HCR_EL2);
}

void el2_setup_cpu(void)
{
	u64 pfr0 = read_sysreg(id_aa64pfr0_el1);
	u64 pfr1 = read_sysreg(id_aa64pfr1_el1);
	u64 isar1 = read_sysreg(id_aa64isar1_el1);
	u64 isar2 = read_sysreg(ID_AA64ISAR2_EL1);

	setup_hcr(isar1, isar2, pfr1);
	setup_fp(pfr0, pfr1);
	setup_fgt(pfr1);
	setup_debug();
	setup_gic(pfr0);

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
