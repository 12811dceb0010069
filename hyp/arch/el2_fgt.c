// SPDX-License-Identifier: GPL-2.0
/*
 * The fine-grained traps (FEAT_FGT, FEAT_FGT2): which EL1 registers and
 * instructions reach EL2. Their plain bits trap when 1 and stay 0; their
 * "n" bits trap when 0, so each is set exactly when the CPU has the feature
 * that owns it (for a missing feature the bit is RES0). QEMU resets them all
 * to 0, which traps every "n" register: Linux's first PIRE0_EL1 write, for
 * one, on a CPU with FEAT_S1PIE.
 */
#include "cpu_features.h"
#include "sysregs.h"


/* HFGRTR_EL2/HFGWTR_EL2: the "n" bits of the EL1 registers this CPU has */
static u64 fgt_sysreg_nbits(const struct id_regs *id)
{
	u64 n = 0;

	if (has(id->mmfr3, ID_AA64MMFR3_AIE))
		n |= HFGxTR_nAMAIR2_EL1 | HFGxTR_nMAIR2_EL1;
	if (has(id->mmfr3, ID_AA64MMFR3_S2POE))
		n |= HFGxTR_nS2POR_EL1;
	if (has(id->mmfr3, ID_AA64MMFR3_S1POE))
		n |= HFGxTR_nPOR_EL1 | HFGxTR_nPOR_EL0;
	if (has(id->mmfr3, ID_AA64MMFR3_S1PIE))
		n |= HFGxTR_nPIR_EL1 | HFGxTR_nPIRE0_EL1;
	if (has(id->pfr1, ID_AA64PFR1_THE))
		n |= HFGxTR_nRCWMASK_EL1;
	if (has_sme(id))
		n |= HFGxTR_nTPIDR2_EL0 | HFGxTR_nSMPRI_EL1;
	if (has_gcs(id))
		n |= HFGxTR_nGCS_EL1 | HFGxTR_nGCS_EL0;
	if (FIELD_GET(ID_AA64ISAR1_LS64, id->isar1) >= LS64_ACCDATA)
		n |= HFGxTR_nACCDATA_EL1;
	return n;
}

/* HFGITR_EL2: the "n" bits of the instructions this CPU has */
static u64 fgt_insn_nbits(const struct id_regs *id)
{
	u64 n = 0;

	if (has_gcs(id))
		n |= HFGITR_nGCSEPP | HFGITR_nGCSSTR_EL1 |
		     HFGITR_nGCSPUSHM_EL1;
	if (has_brbe(id))
		n |= HFGITR_nBRBIALL | HFGITR_nBRBINJ;
	return n;
}

/* HDFGRTR_EL2/HDFGWTR_EL2 (@write): debug, PMU and trace "n" bits */
static u64 fgt_debug_nbits(const struct id_regs *id, bool write)
{
	u64 n = 0;

	if (at_least(id->dfr0, ID_AA64DFR0_PMSVER, PMSVER_V1P2) &&
	    (spe_idr(id) & PMSIDR_FNE))
		n |= HDFGxTR_nPMSNEVFR_EL1;
	if (has_brbe(id)) {
		n |= HDFGxTR_nBRBDATA | HDFGxTR_nBRBCTL;
		if (!write)
			n |= HDFGRTR_nBRBIDR;
	}
	return n;
}

/* HFGRTR2_EL2/HFGWTR2_EL2 (@write) */
static u64 fgt2_sysreg_nbits(const struct id_regs *id, bool write)
{
	u64 n = 0;

	if (has(id->mmfr4, ID_AA64MMFR4_SRMASK))
		n |= HFGxTR2_nSRMASK_REGS;
	if (has(id->pfr1, ID_AA64PFR1_THE))
		n |= HFGxTR2_nRCWSMASK_EL1;
	if (!write && at_least(id->pfr0, ID_AA64PFR0_RAS, RAS_V2))
		n |= HFGRTR2_nERXGSR_EL1;
	if (has(id->pfr1, ID_AA64PFR1_PFAR))
		n |= HFGxTR2_nPFAR_EL1;
	return n;
}

/* HDFGRTR2_EL2/HDFGWTR2_EL2 (@write) */
static u64 fgt2_debug_nbits(const struct id_regs *id, bool write)
{
	bool pmss = has(id->dfr0, ID_AA64DFR0_PMSS);
	u64 n = 0;

	if (has(id->dfr2, ID_AA64DFR2_SPE_NVM))
		n |= HDFGxTR2_nPMBMAR_EL1;
	if (has(id->dfr2, ID_AA64DFR2_STEP))
		n |= HDFGxTR2_nMDSTEPOP_EL1;
	if (has_trbe(id) && has_mpam(id) &&
	    FIELD_GET(TRBIDR_MPAM, read_sysreg(TRBIDR_EL1)))
		n |= HDFGxTR2_nTRBMPAM_EL1;
	if (has(id->dfr1, ID_AA64DFR1_ITE))
		n |= HDFGxTR2_nTRCITECR_EL1;
	if (at_least(id->dfr0, ID_AA64DFR0_PMSVER, PMSVER_V1P4) &&
	    (spe_idr(id) & PMSIDR_FDS))
		n |= HDFGxTR2_nPMSDSFR_EL1;
	if (has(id->dfr1, ID_AA64DFR1_SPMU)) {
		n |= HDFGxTR2_nSPM_REGS;
		if (!write)
			n |= HDFGRTR2_nSPMDEVAFF_EL1 | HDFGRTR2_nSPMID;
	}
	if (pmss) {
		n |= HDFGxTR2_nPMSSCR_EL1;
		if (!write)
			n |= HDFGRTR2_nPMSSDATA;
	}
	if (at_least(id->dfr0, ID_AA64DFR0_DEBUGVER, DEBUGVER_V8P9))
		n |= HDFGxTR2_nMDSELR_EL1;
	if (has_pmuv3(id, PMUVER_V3P9)) {
		n |= HDFGxTR2_nPMUACR_EL1;
		if (write)
			n |= HDFGWTR2_nPMZR_EL0;
	}
	if (has(id->dfr1, ID_AA64DFR1_PMICNTR))
		n |= HDFGxTR2_nPMICFILTR_EL0 | HDFGxTR2_nPMICNTR_EL0;
	if (has(id->dfr0, ID_AA64DFR0_SEBEP))
		n |= HDFGxTR2_nPMIAR_EL1;
	if (has(id->dfr1, ID_AA64DFR1_EBEP) || pmss)
		n |= HDFGxTR2_nPMECR_EL1;
	return n;
}

/*
 * Fine-grained traps, where they exist: every plain bit 0 (no trap), every
 * "n" bit of a feature the CPU has 1. QEMU resets them all to 0, which traps
 * each "n" register: Linux's first PIRE0_EL1 write, for one.
 */
void el2_setup_fgt(const struct id_regs *id)
{
	u64 sysregs;

	if (!has(id->mmfr0, ID_AA64MMFR0_FGT))
		return;
	sysregs = fgt_sysreg_nbits(id);
	write_sysreg(sysregs, HFGRTR_EL2);
	write_sysreg(sysregs, HFGWTR_EL2);
	write_sysreg(fgt_insn_nbits(id), HFGITR_EL2);
	write_sysreg(fgt_debug_nbits(id, false), HDFGRTR_EL2);
	write_sysreg(fgt_debug_nbits(id, true), HDFGWTR_EL2);
	/* UNDEFINED without an AMU: written only with one */
	if (has(id->pfr0, ID_AA64PFR0_AMU))
		write_sysreg(0, HAFGRTR_EL2);

	if (!at_least(id->mmfr0, ID_AA64MMFR0_FGT, FGT2))
		return;
	write_sysreg(fgt2_sysreg_nbits(id, false), HFGRTR2_EL2);
	write_sysreg(fgt2_sysreg_nbits(id, true), HFGWTR2_EL2);
	/* TSBCSYNC (TRBE v1p1) traps when 1: 0 */
	write_sysreg(has(id->mmfr4, ID_AA64MMFR4_POPS) ? HFGITR2_nDCCIVAPS : 0,
		     HFGITR2_EL2);
	write_sysreg(fgt2_debug_nbits(id, false), HDFGRTR2_EL2);
	write_sysreg(fgt2_debug_nbits(id, true), HDFGWTR2_EL2);
}
