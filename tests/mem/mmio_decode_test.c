// SPDX-License-Identifier: GPL-2.0
/*
 * Host proof of hyp/arch/mmio_decode.c, compiled from the same source:
 * every form it decodes, and a neighbour of each that it must refuse,
 * checked against encodings the assembler made, not the decoder's author.
 * The table was made by assembling its text column with
 * aarch64-linux-gnu-as (binutils 2.40, .arch armv8.8-a+sve+mops+ls64+
 * memtag+rcpc) and reading the words back with objdump -d; the assembler
 * itself warned "unpredictable transfer with writeback" or "unpredictable
 * load of register pair" for the refused lines at the end. Then the
 * offsets of the register forms (extend, shift, XZR) and how a load's
 * value reaches its register, against the Arm ARM's ExtendReg() and the
 * LDRS* pseudocode.
 */
#include <string.h>

#include "mmio_decode.h"
#include "check.h"

struct decode_case {
	u32 insn;
	const char *text;	/* what the assembler was given */
	bool ok;
	struct mmio_insn want;
};

#define LD	false
#define ST	true
#define ZERO	MMIO_EXT_ZERO
#define S64	MMIO_EXT_S64
#define S32	MMIO_EXT_S32
#define OFFSET	MMIO_IDX_OFFSET
#define PRE	MMIO_IDX_PRE
#define POST	MMIO_IDX_POST

/* One element, immediate offset */
#define LDST(w, t, l2, wr, ext, idx, t1, n, i)				\
	{ w, t, true, { .nr = 1, .log2 = l2, .write = wr, .extend = ext, \
			.index = idx, .rt = t1, .rn = n, .imm = i } }
/* One element, register offset */
#define LDST_REG(w, t, l2, wr, ext, t1, n, m, opt, sh)			\
	{ w, t, true, { .nr = 1, .log2 = l2, .write = wr, .extend = ext, \
			.index = OFFSET, .rt = t1, .rn = n,		\
			.reg_offset = true, .rm = m, .option = opt,	\
			.shift = sh } }
/* A pair */
#define PAIR(w, t, l2, wr, ext, idx, t1, t2, n, i)			\
	{ w, t, true, { .nr = 2, .log2 = l2, .write = wr, .extend = ext, \
			.index = idx, .rt = t1, .rt2 = t2, .rn = n,	\
			.imm = i } }
#define REFUSED(w, t)	{ w, t, false, { 0 } }

static const struct decode_case cases[] = {
	LDST(0xb9400041, "ldr w1, [x2]",
	    2, LD, ZERO, OFFSET, 1, 2, 0),
	LDST(0xf9400483, "ldr x3, [x4, #8]",
	    3, LD, ZERO, OFFSET, 3, 4, 8),
	LDST(0xf97ffc83, "ldr x3, [x4, #32760]",
	    3, LD, ZERO, OFFSET, 3, 4, 32760),
	LDST(0x397ffcc5, "ldrb w5, [x6, #4095]",
	    0, LD, ZERO, OFFSET, 5, 6, 4095),
	LDST(0x79400507, "ldrh w7, [x8, #2]",
	    1, LD, ZERO, OFFSET, 7, 8, 2),
	LDST(0x39800549, "ldrsb x9, [x10, #1]",
	    0, LD, S64, OFFSET, 9, 10, 1),
	LDST(0x39c00549, "ldrsb w9, [x10, #1]",
	    0, LD, S32, OFFSET, 9, 10, 1),
	LDST(0x79800d8b, "ldrsh x11, [x12, #6]",
	    1, LD, S64, OFFSET, 11, 12, 6),
	LDST(0x79c00d8b, "ldrsh w11, [x12, #6]",
	    1, LD, S32, OFFSET, 11, 12, 6),
	LDST(0xb9800dcd, "ldrsw x13, [x14, #12]",
	    2, LD, S64, OFFSET, 13, 14, 12),
	LDST(0xb900060f, "str w15, [x16, #4]",
	    2, ST, ZERO, OFFSET, 15, 16, 4),
	LDST(0xf9000bff, "str xzr, [sp, #16]",
	    3, ST, ZERO, OFFSET, 31, 31, 16),
	LDST(0x3900003f, "strb wzr, [x1]",
	    0, ST, ZERO, OFFSET, 31, 1, 0),
	LDST(0x791ffc62, "strh w2, [x3, #4094]",
	    1, ST, ZERO, OFFSET, 2, 3, 4094),
	LDST(0xb85fc041, "ldur w1, [x2, #-4]",
	    2, LD, ZERO, OFFSET, 1, 2, -4),
	LDST(0xf84ff041, "ldur x1, [x2, #255]",
	    3, LD, ZERO, OFFSET, 1, 2, 255),
	LDST(0xf8100041, "stur x1, [x2, #-256]",
	    3, ST, ZERO, OFFSET, 1, 2, -256),
	LDST(0x78dff083, "ldursh w3, [x4, #-1]",
	    1, LD, S32, OFFSET, 3, 4, -1),
	LDST(0xb8803083, "ldursw x3, [x4, #3]",
	    2, LD, S64, OFFSET, 3, 4, 3),
	LDST(0x380013c0, "sturb w0, [x30, #1]",
	    0, ST, ZERO, OFFSET, 0, 30, 1),
	LDST(0xb8404420, "ldr w0, [x1], #4",
	    2, LD, ZERO, POST, 0, 1, 4),
	LDST(0xf85f8420, "ldr x0, [x1], #-8",
	    3, LD, ZERO, POST, 0, 1, -8),
	LDST(0xb80107e0, "str w0, [sp], #16",
	    2, ST, ZERO, POST, 0, 31, 16),
	LDST(0x38500462, "ldrb w2, [x3], #-256",
	    0, LD, ZERO, POST, 2, 3, -256),
	LDST(0x788ff462, "ldrsh x2, [x3], #255",
	    1, LD, S64, POST, 2, 3, 255),
	LDST(0xf85f0cc5, "ldr x5, [x6, #-16]!",
	    3, LD, ZERO, PRE, 5, 6, -16),
	LDST(0xb8004cc5, "str w5, [x6, #4]!",
	    2, ST, ZERO, PRE, 5, 6, 4),
	LDST(0xb8808fe7, "ldrsw x7, [sp, #8]!",
	    2, LD, S64, PRE, 7, 31, 8),
	LDST(0x78002d3f, "strh wzr, [x9, #2]!",
	    1, ST, ZERO, PRE, 31, 9, 2),
	LDST_REG(0xb8636841, "ldr w1, [x2, x3]",
	    2, LD, ZERO, 1, 2, 3, 3, 0),
	LDST_REG(0xf8637841, "ldr x1, [x2, x3, lsl #3]",
	    3, LD, ZERO, 1, 2, 3, 3, 3),
	LDST_REG(0xb8634841, "ldr w1, [x2, w3, uxtw]",
	    2, LD, ZERO, 1, 2, 3, 2, 0),
	LDST_REG(0xb8635841, "ldr w1, [x2, w3, uxtw #2]",
	    2, LD, ZERO, 1, 2, 3, 2, 2),
	LDST_REG(0xf863d841, "ldr x1, [x2, w3, sxtw #3]",
	    3, LD, ZERO, 1, 2, 3, 6, 3),
	LDST_REG(0x7863f841, "ldrh w1, [x2, x3, sxtx #1]",
	    1, LD, ZERO, 1, 2, 3, 7, 1),
	LDST_REG(0x38637841, "ldrb w1, [x2, x3, lsl #0]",
	    0, LD, ZERO, 1, 2, 3, 3, 0),
	LDST_REG(0x3863c841, "ldrb w1, [x2, w3, sxtw]",
	    0, LD, ZERO, 1, 2, 3, 6, 0),
	LDST_REG(0x38ff6841, "ldrsb w1, [x2, xzr]",
	    0, LD, S32, 1, 2, 31, 3, 0),
	LDST_REG(0xb8a37be1, "ldrsw x1, [sp, x3, lsl #2]",
	    2, LD, S64, 1, 31, 3, 3, 2),
	LDST_REG(0xf8236841, "str x1, [x2, x3]",
	    3, ST, ZERO, 1, 2, 3, 3, 0),
	LDST_REG(0x38234841, "strb w1, [x2, w3, uxtw]",
	    0, ST, ZERO, 1, 2, 3, 2, 0),
	PAIR(0x29400861, "ldp w1, w2, [x3]",
	    2, LD, ZERO, OFFSET, 1, 2, 3, 0),
	PAIR(0xa9410861, "ldp x1, x2, [x3, #16]",
	    3, LD, ZERO, OFFSET, 1, 2, 3, 16),
	PAIR(0xa9600861, "ldp x1, x2, [x3, #-512]",
	    3, LD, ZERO, OFFSET, 1, 2, 3, -512),
	PAIR(0x295f8861, "ldp w1, w2, [x3, #252]",
	    2, LD, ZERO, OFFSET, 1, 2, 3, 252),
	PAIR(0x697f0861, "ldpsw x1, x2, [x3, #-8]",
	    2, LD, S64, OFFSET, 1, 2, 3, -8),
	PAIR(0x29010861, "stp w1, w2, [x3, #8]",
	    2, ST, ZERO, OFFSET, 1, 2, 3, 8),
	PAIR(0xa93f7fff, "stp xzr, xzr, [sp, #-16]",
	    3, ST, ZERO, OFFSET, 31, 31, 31, -16),
	PAIR(0xa8c17bfd, "ldp x29, x30, [sp], #16",
	    3, LD, ZERO, POST, 29, 30, 31, 16),
	PAIR(0x28ff14c4, "ldp w4, w5, [x6], #-8",
	    2, LD, ZERO, POST, 4, 5, 6, -8),
	PAIR(0xa9be7bfd, "stp x29, x30, [sp, #-32]!",
	    3, ST, ZERO, PRE, 29, 30, 31, -32),
	PAIR(0x298114c4, "stp w4, w5, [x6, #8]!",
	    2, ST, ZERO, PRE, 4, 5, 6, 8),
	PAIR(0x69c094c4, "ldpsw x4, x5, [x6, #4]!",
	    2, LD, S64, PRE, 4, 5, 6, 4),
	PAIR(0x29000461, "stp w1, w1, [x3]",
	    2, ST, ZERO, OFFSET, 1, 1, 3, 0),
	LDST(0xb9400021, "ldr w1, [x1]",
	    2, LD, ZERO, OFFSET, 1, 1, 0),
	PAIR(0x29400821, "ldp w1, w2, [x1]",
	    2, LD, ZERO, OFFSET, 1, 2, 1, 0),
	REFUSED(0xbd400020, "ldr s0, [x1]"),
	REFUSED(0x3dc00420, "ldr q0, [x1, #16]"),
	REFUSED(0xfc5f8041, "ldur d1, [x2, #-8]"),
	REFUSED(0x3c001462, "str b2, [x3], #1"),
	REFUSED(0x7c626820, "ldr h0, [x1, x2]"),
	REFUSED(0xad400440, "ldp q0, q1, [x2]"),
	REFUSED(0x2cc10440, "ldp s0, s1, [x2], #8"),
	REFUSED(0x6dbf0440, "stp d0, d1, [x2, #-16]!"),
	REFUSED(0xa8400861, "ldnp x1, x2, [x3]"),
	REFUSED(0x28010861, "stnp w1, w2, [x3, #8]"),
	REFUSED(0x885f7c41, "ldxr w1, [x2]"),
	REFUSED(0xc8037c41, "stxr w3, x1, [x2]"),
	REFUSED(0xc87f8861, "ldaxp x1, x2, [x3]"),
	REFUSED(0x88dffc41, "ldar w1, [x2]"),
	REFUSED(0xc89ffc41, "stlr x1, [x2]"),
	REFUSED(0xb8bfc041, "ldapr w1, [x2]"),
	REFUSED(0x99404041, "ldapur w1, [x2, #4]"),
	REFUSED(0xb8404841, "ldtr w1, [x2, #4]"),
	REFUSED(0x38000841, "sttrb w1, [x2]"),
	REFUSED(0xb89fc841, "ldtrsw x1, [x2, #-4]"),
	REFUSED(0xb8210062, "ldadd w1, w2, [x3]"),
	REFUSED(0xf8218062, "swp x1, x2, [x3]"),
	REFUSED(0x88a17c62, "cas w1, w2, [x3]"),
	REFUSED(0xf8e10062, "ldaddal x1, x2, [x3]"),
	REFUSED(0xb821005f, "stadd w1, [x2]"),
	REFUSED(0xf8201441, "ldraa x1, [x2, #8]"),
	REFUSED(0xf8ffec41, "ldrab x1, [x2, #-16]!"),
	REFUSED(0xf83fd062, "ld64b x2, [x3]"),
	REFUSED(0xf83f9062, "st64b x2, [x3]"),
	REFUSED(0x69000861, "stgp x1, x2, [x3]"),
	REFUSED(0xd9200841, "stg x1, [x2]"),
	REFUSED(0xd9600041, "ldg x1, [x2]"),
	REFUSED(0xf9800420, "prfm pldl1keep, [x1, #8]"),
	REFUSED(0xf8a26820, "prfm pldl1keep, [x1, x2]"),
	REFUSED(0xf89ff020, "prfum pldl1keep, [x1, #-1]"),
	REFUSED(0x18fff4a1, "ldr w1, lit"),
	REFUSED(0x4c407020, "ld1 {v0.16b}, [x1]"),
	REFUSED(0x0d409020, "ld1 {v0.s}[1], [x1]"),
	REFUSED(0xa400a020, "ld1b {z0.b}, p0/z, [x1]"),
	REFUSED(0xe540e020, "st1w {z0.s}, p0, [x1]"),
	REFUSED(0x85804020, "ldr z0, [x1]"),
	REFUSED(0x19010440, "cpyfp [x0]!, [x1]!, x2!"),
	REFUSED(0x19c20420, "setp [x0]!, x1!, x2"),
	REFUSED(0xd50b7421, "dc zva, x1"),
	REFUSED(0xb8404421, "ldr w1, [x1], #4"),
	REFUSED(0xf8408c42, "ldr x2, [x2, #8]!"),
	REFUSED(0xb8004463, "str w3, [x3], #4"),
	REFUSED(0xf81f8c84, "str x4, [x4, #-8]!"),
	REFUSED(0x29400441, "ldp w1, w1, [x2]"),
	REFUSED(0xa8c10821, "ldp x1, x2, [x1], #16"),
	REFUSED(0xa9c10841, "ldp x1, x2, [x2, #16]!"),
	REFUSED(0x28810841, "stp w1, w2, [x2], #8"),
	REFUSED(0x29bf0821, "stp w1, w2, [x1, #-8]!"),
	REFUSED(0x69400c83, "ldpsw x3, x3, [x4]"),
};

static void check_decode(void)
{
	unsigned int i, decoded = 0;

	ck_begin();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct decode_case *c = &cases[i];
		const struct mmio_insn *w = &c->want;
		struct mmio_insn d;
		bool ok = mmio_decode(c->insn, &d);

		EXPECT(ok == c->ok, "%08x (%s): decoded %d, want %d", c->insn,
		       c->text, ok, c->ok);
		if (!ok || !c->ok)
			continue;
		decoded++;
		EXPECT(d.nr == w->nr && d.log2 == w->log2 &&
		       d.write == w->write && d.extend == w->extend &&
		       d.index == w->index,
		       "%08x (%s): nr %u log2 %u write %d extend %d index %d, want %u %u %d %d %d",
		       c->insn, c->text, d.nr, d.log2, d.write, d.extend,
		       d.index, w->nr, w->log2, w->write, w->extend, w->index);
		EXPECT(d.rt == w->rt && d.rn == w->rn &&
		       (d.nr == 1 || d.rt2 == w->rt2),
		       "%08x (%s): rt %u rt2 %u rn %u, want %u %u %u", c->insn,
		       c->text, d.rt, d.rt2, d.rn, w->rt, w->rt2, w->rn);
		EXPECT(d.reg_offset == w->reg_offset &&
		       (d.reg_offset ? d.rm == w->rm && d.option == w->option &&
		        d.shift == w->shift : d.imm == w->imm),
		       "%08x (%s): reg %d rm %u option %u shift %u imm %lld, want %d %u %u %u %lld",
		       c->insn, c->text, d.reg_offset, d.rm, d.option, d.shift,
		       (long long)d.imm, w->reg_offset, w->rm, w->option,
		       w->shift, (long long)w->imm);
	}
	ck_end("%u encodings from the assembler: %u decoded as written, the rest refused",
	   i, decoded);
}

/* The case assembled from @text, decoded into @d */
static void assembled(const char *text, struct mmio_insn *d)
{
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (!strcmp(cases[i].text, text)) {
			mmio_decode(cases[i].insn, d);
			return;
		}
	}
	EXPECT(false, "no case assembled from '%s'", text);
	memset(d, 0, sizeof(*d));
}

/* The offset a register form adds, and the value a load gives */
static void check_values(void)
{
	struct mmio_insn d;

	ck_begin();
	/* -2 * 8, the upper half of x3 ignored */
	assembled("ldr x1, [x2, w3, sxtw #3]", &d);
	EXPECT(mmio_insn_offset(&d, 0xabcdef00fffffffeUL) == (u64)-16,
	       "sxtw #3 of 0xabcdef00_fffffffe");
	assembled("ldr w1, [x2, w3, uxtw #2]", &d);
	EXPECT(mmio_insn_offset(&d, 0x1234567800000003UL) == 12,
	       "uxtw #2 of 0x12345678_00000003");
	assembled("ldrh w1, [x2, x3, sxtx #1]", &d);
	EXPECT(mmio_insn_offset(&d, (u64)-3) == (u64)-6, "sxtx #1 of -3");
	assembled("ldr x1, [x2, x3, lsl #3]", &d);
	EXPECT(mmio_insn_offset(&d, 5) == 40, "lsl #3 of 5");
	assembled("ldr w1, [x2, x3]", &d);
	EXPECT(mmio_insn_offset(&d, (u64)-1) == (u64)-1, "no shift of -1");
	assembled("ldp x1, x2, [x3, #-512]", &d);
	EXPECT(mmio_insn_offset(&d, 99) == (u64)-512, "ldp's imm7 * 8");

	assembled("ldrsb x9, [x10, #1]", &d);
	EXPECT(mmio_load_value(&d, 0x80) == 0xffffffffffffff80UL,
	       "ldrsb x of 0x80");
	assembled("ldrsb w9, [x10, #1]", &d);
	EXPECT(mmio_load_value(&d, 0x80) == 0xffffff80UL, "ldrsb w of 0x80");
	EXPECT(mmio_load_value(&d, 0x7f) == 0x7f, "ldrsb w of 0x7f");
	assembled("ldrsh w11, [x12, #6]", &d);
	EXPECT(mmio_load_value(&d, 0x8001) == 0xffff8001UL, "ldrsh w of 0x8001");
	assembled("ldrb w5, [x6, #4095]", &d);
	EXPECT(mmio_load_value(&d, 0x1ff) == 0xff, "ldrb of 0x1ff");
	assembled("ldrsw x13, [x14, #12]", &d);
	EXPECT(mmio_load_value(&d, 0x80000000) == 0xffffffff80000000UL,
	       "ldrsw of 0x80000000");
	assembled("ldpsw x1, x2, [x3, #-8]", &d);
	EXPECT(mmio_load_value(&d, 0xfffffffe) == (u64)-2, "ldpsw of -2");
	assembled("ldp w1, w2, [x3]", &d);
	EXPECT(mmio_load_value(&d, 0xfffffffe) == 0xfffffffe, "ldp w of -2");
	assembled("ldr x3, [x4, #8]", &d);
	EXPECT(mmio_load_value(&d, ~0UL) == ~0UL, "ldr x of ~0");
	ck_end("register offsets extended and shifted, loads sign- and zero-extended");
}

int main(void)
{
	check_decode();
	check_values();
	return ck_exit();
}
