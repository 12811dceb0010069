/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The A64 loads and stores of general registers that mmio_trap.c
 * performs for an access whose syndrome does not describe it (ESR_EL2.ISV
 * 0): decoded here, as pure logic, so that tests/mem checks each form on
 * the host against the assembler's encodings (mmio_decode_test.c).
 */
#ifndef HYP_MMIO_DECODE_H
#define HYP_MMIO_DECODE_H

#include "types.h"

/* How a load's value reaches its register */
enum mmio_extend {
	MMIO_EXT_ZERO,		/* zero-extended: LDR, LDRB, LDRH, LDP */
	MMIO_EXT_S64,		/* sign-extended to 64 bits: LDRSx Xt, LDPSW */
	MMIO_EXT_S32,		/* sign-extended to 32, upper half zero: LDRSx Wt */
};

/* Where the access is, relative to the base register Rn */
enum mmio_index {
	MMIO_IDX_OFFSET,	/* Rn + offset, Rn unchanged */
	MMIO_IDX_PRE,		/* Rn + offset, then Rn = Rn + offset */
	MMIO_IDX_POST,		/* Rn, then Rn = Rn + offset */
};

struct mmio_insn {
	u8 rt, rt2;		/* data registers (rt2: pairs); 31 is XZR */
	u8 rn;			/* base; 31 is SP */
	u8 rm;			/* register offset; 31 is XZR */
	u8 log2;		/* each element is 1 << log2 bytes */
	u8 nr;			/* elements: 1, or 2 for a pair */
	bool write;
	bool reg_offset;	/* the offset is Rm, extended and shifted */
	u8 option;		/* with reg_offset: the extend (UXTW, LSL, SXTW, SXTX) */
	u8 shift;		/* with reg_offset: the left shift of the extended Rm */
	enum mmio_extend extend;
	enum mmio_index index;
	s64 imm;		/* without reg_offset: the offset, scaled */
};

/*
 * @insn as one of the forms the hypervisor performs: LDR/STR (B, H, W, X,
 * and the sign-extending loads) with an unsigned immediate, unscaled
 * (LDUR/STUR), pre- or post-indexed immediate, or register offset;
 * LDP/STP/LDPSW with a signed offset, pre- or post-indexed. False for
 * anything else (SIMD and FP, exclusives, atomics, acquire/release,
 * unprivileged, pointer-authenticated, LS64, SVE, MOPS, tags, prefetch,
 * literal, non-temporal) and for the encodings whose result the
 * architecture leaves CONSTRAINED UNPREDICTABLE (a writeback to a loaded
 * or stored register, a pair loaded into one register).
 */
bool mmio_decode(u32 insn, struct mmio_insn *d);
/* The offset @d adds to the base, @rm being Rm's value (register offset) */
u64 mmio_insn_offset(const struct mmio_insn *d, u64 rm);
/* A loaded element of @d as its register receives it */
u64 mmio_load_value(const struct mmio_insn *d, u64 raw);

#endif /* HYP_MMIO_DECODE_H */
