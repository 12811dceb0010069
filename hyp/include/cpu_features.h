/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What this CPU has, from its ID registers: the one source of every EL2
 * set-up decision (el2_regs.c, el2_fgt.c). Never assumed from a CPU model.
 */
#ifndef HYP_CPU_FEATURES_H
#define HYP_CPU_FEATURES_H

#include "sysregs.h"

/* The ID registers every decision below is made from, read once per CPU */
struct id_regs {
	u64 pfr0, pfr1, pfr2;
	u64 dfr0, dfr1, dfr2;
	u64 isar1, isar2;
	u64 mmfr0, mmfr1, mmfr3, mmfr4;
};

/* The feature that ID @field of @idreg describes is at level @min or more */
static inline bool at_least(u64 idreg, u64 field, u64 min)
{
	return FIELD_GET(field, idreg) >= min;
}

static inline bool has(u64 idreg, u64 field)
{
	return at_least(idreg, field, 1);
}

static inline bool has_pauth(const struct id_regs *id)
{
	return has(id->isar1, ID_AA64ISAR1_APA) ||
	       has(id->isar1, ID_AA64ISAR1_API) ||
	       has(id->isar1, ID_AA64ISAR1_GPA) ||
	       has(id->isar1, ID_AA64ISAR1_GPI) ||
	       has(id->isar2, ID_AA64ISAR2_APA3) ||
	       has(id->isar2, ID_AA64ISAR2_GPA3);
}

static inline bool has_pauth_lr(const struct id_regs *id)
{
	return at_least(id->isar1, ID_AA64ISAR1_APA, PAUTH_LR) ||
	       at_least(id->isar1, ID_AA64ISAR1_API, PAUTH_LR) ||
	       at_least(id->isar2, ID_AA64ISAR2_APA3, PAUTH_LR);
}

static inline bool has_sme(const struct id_regs *id)
{
	return has(id->pfr1, ID_AA64PFR1_SME);
}

static inline bool has_gcs(const struct id_regs *id)
{
	return has(id->pfr1, ID_AA64PFR1_GCS);
}

static inline bool has_mpam(const struct id_regs *id)
{
	return has(id->pfr0, ID_AA64PFR0_MPAM) ||
	       has(id->pfr1, ID_AA64PFR1_MPAM_FRAC);
}

/* RASv1p1: RAS version 2 or up, or version 1 with the .1 fraction */
static inline bool has_rasv1p1(const struct id_regs *id)
{
	return at_least(id->pfr0, ID_AA64PFR0_RAS, RAS_V1P1) ||
	       (has(id->pfr0, ID_AA64PFR0_RAS) &&
		has(id->pfr1, ID_AA64PFR1_RAS_FRAC));
}

/* SCXTNUM_ELx exist: CSV2_2, or CSV2 with the 1p2 fraction */
static inline bool has_scxtnum(const struct id_regs *id)
{
	return at_least(id->pfr0, ID_AA64PFR0_CSV2, CSV2_2) ||
	       (has(id->pfr0, ID_AA64PFR0_CSV2) &&
		at_least(id->pfr1, ID_AA64PFR1_CSV2_FRAC, CSV2_FRAC_1P2));
}

/* A PMUv3 of at least version @min (PMUVer 0xf is a non-PMUv3 PMU) */
static inline bool has_pmuv3(const struct id_regs *id, u64 min)
{
	u64 ver = FIELD_GET(ID_AA64DFR0_PMUVER, id->dfr0);

	return ver && ver != PMUVER_IMP_DEF && ver >= min;
}

static inline bool has_spe(const struct id_regs *id)
{
	return has(id->dfr0, ID_AA64DFR0_PMSVER);
}

static inline bool has_trbe(const struct id_regs *id)
{
	return has(id->dfr0, ID_AA64DFR0_TRACEBUFFER);
}

static inline bool has_brbe(const struct id_regs *id)
{
	return has(id->dfr0, ID_AA64DFR0_BRBE);
}

/* SPE's own ID register, readable only where SPE exists */
static inline u64 spe_idr(const struct id_regs *id)
{
	return has_spe(id) ? read_sysreg(PMSIDR_EL1) : 0;
}

/* el2_fgt.c */
void el2_setup_fgt(const struct id_regs *id);

#endif /* HYP_CPU_FEATURES_H */
