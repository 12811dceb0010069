// SPDX-License-Identifier: GPL-2.0
/*
 * Decoding the loads and stores of general registers that an access
 * without a syndrome may be (mmio_decode.h). The encodings are the Arm
 * ARM's, section C4.1 "A64 instruction set encoding", "Loads and Stores":
 *
 *   Load/store register (unsigned immediate)
 *	size:2 111 V=0 01 opc:2 imm12:12 Rn:5 Rt:5
 *   Load/store register (unscaled immediate, immediate post-indexed,
 *   unprivileged, immediate pre-indexed), told apart by bits 11:10 (00,
 *   01, 10, 11)
 *	size:2 111 V=0 00 opc:2 0 imm9:9 op:2 Rn:5 Rt:5
 *   Load/store register (register offset)
 *	size:2 111 V=0 00 opc:2 1 Rm:5 option:3 S 10 Rn:5 Rt:5
 *   Load/store register pair (post-indexed, signed offset, pre-indexed:
 *   bits 24:23 01, 10, 11; 00 is the non-temporal pair)
 *	opc:2 101 V=0 0 idx:2 L imm7:7 Rt2:5 Rn:5 Rt:5
 *
 * In the register forms, opc is 00 for a store, 01 for a load, 10 for a
 * load sign-extended to 64 bits (LDRSB/LDRSH/LDRSW Xt; PRFM when size is
 * 11) and 11 for one sign-extended to 32 (LDRSB/LDRSH Wt). Bit 21 with
 * bits 11:10 other than 10 is the atomic memory operations, LS64 and the
 * pointer-authenticated loads; V=1 is SIMD and FP; other bits 29:24 hold
 * the exclusives, acquire/release, literal loads, tags, MOPS and SVE.
 * None of those decodes here.
 */
#include "mmio_decode.h"

#define INSN_RT(i)	((i) & 0x1f)
#define INSN_RN(i)	(((i) >> 5) & 0x1f)
#define INSN_RT2(i)	(((i) >> 10) & 0x1f)
#define INSN_RM(i)	(((i) >> 16) & 0x1f)

/* Bits 29:24 of the register forms, with V (bit 26) clear */
#define LDST_MASK	0x3f000000U
#define LDST_UIMM	0x39000000U	/* 111 0 01: unsigned immediate */
#define LDST_OTHER	0x38000000U	/* 111 0 00: the imm9 and register forms */
/* Bits 29:26 of the pairs, with V clear */
#define PAIR_MASK	0x3c000000U
#define PAIR_BITS	0x28000000U	/* 101 0 */

/* The sign-extended value of the @bits-bit field at @lsb of @insn */
static s64 sfield(u32 insn, unsigned int lsb, unsigned int bits)
{
	return (s64)((u64)insn << (64 - lsb - bits)) >> (64 - bits);
}

/*
 * A writeback to a register the instruction also loads or stores is
 * CONSTRAINED UNPREDICTABLE (Arm ARM, the pseudocode of LDR (immediate),
 * STR (immediate), LDP, STP: "if wback && n == t && n != 31"); so is a pair
 * loaded into one register ("if L == '1' && t == t2"). The CPU chooses
 * among several behaviours; only the instruction itself knows which.
 */
static bool predictable(const struct mmio_insn *d)
{
	bool wback = d->index != MMIO_IDX_OFFSET;

	if (wback && d->rn != 31 &&
	    (d->rn == d->rt || (d->nr == 2 && d->rn == d->rt2)))
		return false;
	return d->write || d->nr == 1 || d->rt != d->rt2;
}

/* size and opc of the register forms: the element and how it loads */
static bool decode_size_opc(u32 insn, struct mmio_insn *d)
{
	unsigned int size = insn >> 30, opc = (insn >> 22) & 3;

	d->log2 = size;
	d->nr = 1;
	d->write = opc == 0;
	d->extend = MMIO_EXT_ZERO;
	if (opc == 2) {
		/* LDRSB, LDRSH, LDRSW Xt; size 11 is PRFM or unallocated */
		if (size == 3)
			return false;
		d->extend = MMIO_EXT_S64;
	} else if (opc == 3) {
		/* LDRSB, LDRSH Wt; sizes 10 and 11 are unallocated */
		if (size >= 2)
			return false;
		d->extend = MMIO_EXT_S32;
	}
	return true;
}

static bool decode_register(u32 insn, struct mmio_insn *d)
{
	if (!decode_size_opc(insn, d))
		return false;
	d->rt = INSN_RT(insn);
	d->rn = INSN_RN(insn);
	if ((insn & LDST_MASK) == LDST_UIMM) {
		d->index = MMIO_IDX_OFFSET;
		d->imm = (s64)(((insn >> 10) & 0xfff) << d->log2);
		return true;
	}
	if (insn & BIT(21)) {
		/* Register offset: bits 11:10 10; option<1> 0 is unallocated */
		if (((insn >> 10) & 3) != 2 || !(insn & BIT(14)))
			return false;
		d->reg_offset = true;
		d->rm = INSN_RM(insn);
		d->option = (insn >> 13) & 7;
		d->shift = insn & BIT(12) ? d->log2 : 0;
		d->index = MMIO_IDX_OFFSET;
		return true;
	}
	d->imm = sfield(insn, 12, 9);
	switch ((insn >> 10) & 3) {
	case 0:
		d->index = MMIO_IDX_OFFSET;	/* LDUR, STUR */
		break;
	case 1:
		d->index = MMIO_IDX_POST;
		break;
	case 3:
		d->index = MMIO_IDX_PRE;
		break;
	default:
		return false;	/* LDTR, STTR: EL0's permissions */
	}
	return true;
}

static bool decode_pair(u32 insn, struct mmio_insn *d)
{
	unsigned int opc = insn >> 30, idx = (insn >> 23) & 3;
	bool load = insn & BIT(22);

	/* 00 is LDNP/STNP; opc 01 with L clear is STGP, 11 unallocated */
	if (!idx || opc == 3 || (opc == 1 && !load))
		return false;
	d->nr = 2;
	d->write = !load;
	d->log2 = opc == 2 ? 3 : 2;
	d->extend = opc == 1 ? MMIO_EXT_S64 : MMIO_EXT_ZERO;
	d->index = idx == 1 ? MMIO_IDX_POST :
		   idx == 2 ? MMIO_IDX_OFFSET : MMIO_IDX_PRE;
	d->imm = sfield(insn, 15, 7) * (1 << d->log2);
	d->rt = INSN_RT(insn);
	d->rt2 = INSN_RT2(insn);
	d->rn = INSN_RN(insn);
	return true;
}

bool mmio_decode(u32 insn, struct mmio_insn *d)
{
	bool ok;

	*d = (struct mmio_insn){ 0 };
	if ((insn & LDST_MASK) == LDST_UIMM ||
	    (insn & LDST_MASK) == LDST_OTHER)
		ok = decode_register(insn, d);
	else if ((insn & PAIR_MASK) == PAIR_BITS)
		ok = decode_pair(insn, d);
	else
		ok = false;
	return ok && predictable(d);
}

/*
 * ExtendReg() of the Arm ARM's pseudocode: option 010 UXTW, 011 UXTX
 * (LSL), 110 SXTW, 111 SXTX; then the shift
 */
u64 mmio_insn_offset(const struct mmio_insn *d, u64 rm)
{
	if (!d->reg_offset)
		return (u64)d->imm;
	if (d->option == 2)
		rm = (u32)rm;
	else if (d->option == 6)
		rm = (u64)(s64)(int)(u32)rm;
	return rm << d->shift;
}

u64 mmio_load_value(const struct mmio_insn *d, u64 raw)
{
	unsigned int bits = 8U << d->log2;

	if (bits < 64)
		raw &= (1UL << bits) - 1;
	if (d->extend == MMIO_EXT_ZERO || bits == 64)
		return raw;
	raw = (u64)((s64)(raw << (64 - bits)) >> (64 - bits));
	return d->extend == MMIO_EXT_S32 ? (u32)raw : raw;
}
