// SPDX-License-Identifier: GPL-2.0
/*
 * Linux must never touch the hypervisor's region, and stage 2 sees to it
 * for the CPUs. The region's free memory (hyp_mem.c) carries an
 * address-dependent pattern, written at boot and wherever memory is given
 * back, and checked when Linux shuts the machine down: a write that stage 2
 * does not stop (a DMA master, a build without stage 2, a stray write of
 * our own) shows up as a mismatch.
 *
 * The image's text and read-only data never change after head.S relocated
 * them, so a checksum of them, asked for before and after a test
 * (HYPTRACE_CALL_IMAGE_SUM), shows whether anything wrote there.
 */
#include "canary.h"
#include "hyp_layout.h"

#define CANARY_SEED	0x6879707472616365UL	/* "hyptrace" */
/*
 * The pattern is one value per 256-byte block, written to each of its 32
 * words: filling the free memory at boot (most of the 2 MiB) word by word,
 * each with its own value, was 1.4 M instructions, a fifth of the boot;
 * 64-byte blocks were 0.29 M, the loop and the value taking as many
 * instructions as the stores. Any stray write of other bytes into a block
 * still changes it; the value still depends on the block's address, so a
 * block copied over another shows too.
 */
#define CANARY_BLOCK	256

static u64 pattern(u64 block)
{
	return CANARY_SEED ^ (block * 0x9e3779b97f4a7c15UL);
}

/* @start and @end are page aligned (hyp_mem.c): whole blocks */
void canary_fill_range(u64 start, u64 end)
{
	u64 a;
	unsigned int i;

	for (a = start; a < end; a += CANARY_BLOCK) {
		u64 *w = (u64 *)a, v = pattern(a);

		/* plain stores, unrolled, which the compiler pairs (STP) */
#pragma GCC unroll 32
		for (i = 0; i < CANARY_BLOCK / 8; i++)
			w[i] = v;
	}
}

/* Whether [@start, @end) still holds the pattern; if not, the first bad word */
bool canary_intact_range(u64 start, u64 end, u64 *bad_addr)
{
	u64 a;

	for (a = start; a < end; a += 8) {
		if (READ_ONCE(*(u64 *)a) !=
		    pattern(ALIGN_DOWN(a, CANARY_BLOCK))) {
			*bad_addr = a;
			return false;
		}
	}
	return true;
}

/*
 * 64-bit FNV-1a (offset basis 0xcbf29ce484222325, prime 0x100000001b3) over
 * the bytes of [@p, @end), fetched eight at a time and taken lowest address
 * first, which on a little-endian CPU is the byte-wise sum.
 */
u64 fnv1a_words(const u64 *p, const u64 *end)
{
	u64 sum = 0xcbf29ce484222325UL;
	unsigned int i;
	u64 w;

	for (; p < end; p++) {
		w = READ_ONCE(*p);
		for (i = 0; i < 8; i++, w >>= 8) {
			sum ^= w & 0xff;
			sum *= 0x100000001b3UL;
		}
	}
	return sum;
}

/* FNV-1a over [__hyp_start, __rodata_end): both ends are page aligned */
u64 image_sum(u64 *len)
{
	*len = (u64)__rodata_end - (u64)__hyp_start;
	return fnv1a_words((const u64 *)__hyp_start,
			   (const u64 *)__rodata_end);
}
