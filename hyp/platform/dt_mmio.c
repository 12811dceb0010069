// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace.mmio=SPEC[,SPEC...]: the device regions to trace from the first
 * instruction Linux runs (mmio_regions.c). Each SPEC names a region and
 * ends in its mode:
 *	/path/to/node:MODE	the node's first reg entry, translated
 *	compat=COMPATIBLE:MODE	the first reg entry of every node that is
 *				compatible, enabled or not
 *	BASE+SIZE:MODE		hex (0x...) or decimal numbers
 * MODE is r, w or rw: the accesses recorded. A compatible string holds
 * commas itself, so a SPEC ends at its mode, never at a comma. As for
 * hyptrace.early=, anything the hypervisor cannot use is refused with one
 * line and the boot goes on without it, never with a guess.
 */
#include <libfdt.h>
#include "bootargs.h"
#include "dt_addr.h"
#include "dt_tree.h"
#include "mmio_trace.h"
#include "print.h"
#include "shared/hyptrace_abi.h"

#define MMIO_COMPAT		"compat="
#define MMIO_SPEC_MAX		64	/* of a compatible string, or a quote */
#define MMIO_NUMBER_MAX_DIGITS	16

/* The console line for a SPEC the hypervisor refuses */
static void mmio_refuse(const char *s, const char *e, const char *why)
{
	char spec[MMIO_SPEC_MAX];
	size_t n = min((size_t)(e - s), sizeof(spec) - 1);

	memcpy(spec, s, n);
	spec[n] = '\0';
	hyp_info("%s'%s': %s; not traced\n", HYPTRACE_MMIO_BOOTARG, spec, why);
}

static const char *ret_why(s64 ret)
{
	switch (ret) {
	case HYPTRACE_RET_DENIED:
		return "RAM, the hypervisor's memory or a debug window";
	case HYPTRACE_RET_BUSY:
		return "a page of it is traced already";
	case HYPTRACE_RET_NO_MEMORY:
		return "too many regions";
	default:
		return "an empty, wrapping or out-of-range region";
	}
}

static void add(const char *s, const char *e, u64 base, u64 size, u32 mode)
{
	s64 ret = mmio_region_add_boot(base, size, mode);

	if (ret)
		mmio_refuse(s, e, ret_why(ret));
}

/* "0x..." hex or decimal, the whole of [@s, @e); false if malformed */
static bool parse_number(const char *s, const char *e, u64 *val)
{
	unsigned int base = 10, digits = 0;
	u64 v = 0;

	if (e - s > 2 && s[0] == '0' && (s[1] | 0x20) == 'x') {
		base = 16;
		s += 2;
	}
	for (; s < e; s++, digits++) {
		char c = *s | 0x20;	/* lower case for the hex letters */
		unsigned int d = *s >= '0' && *s <= '9' ? (unsigned int)(*s - '0') :
				 c >= 'a' && c <= 'f' && base == 16 ?
				 (unsigned int)(c - 'a' + 10) : base;

		if (d >= base || digits == MMIO_NUMBER_MAX_DIGITS ||
		    (base == 10 && v > (~0UL - d) / 10))
			return false;
		v = v * base + d;
	}
	*val = v;
	return digits;
}

static void node_region(int node, const char *s,
			const char *e, u32 mode)
{
	u64 base, size;
	const char *why = dt_node_reg(node, &base, &size);

	if (why)
		mmio_refuse(s, e, why);
	else
		add(s, e, base, size, mode);
}

/* One SPEC, [@s, @e), its mode parsed already */
static void parse_spec(const char *s, const char *e,
		       u32 mode)
{
	size_t clen = strlen(MMIO_COMPAT);
	const char *plus = memchr(s, '+', e - s);
	char compat[MMIO_SPEC_MAX];
	u64 base, size;
	int node;

	if (s < e && *s == '/') {
		node = dt_tree_path_namelen(s, e - s);
		if (node < 0)
			mmio_refuse(s, e, "no such node");
		else
			node_region(node, s, e, mode);
		return;
	}
	if ((size_t)(e - s) > clen && !strncmp(s, MMIO_COMPAT, clen)) {
		if ((size_t)(e - s) - clen >= sizeof(compat)) {
			mmio_refuse(s, e, "compatible string too long");
			return;
		}
		memcpy(compat, s + clen, e - s - clen);
		compat[e - s - clen] = '\0';
		node = dt_tree_next_compatible(-1, compat);
		if (node < 0)
			mmio_refuse(s, e, "no node is compatible");
		for (; node >= 0;
		     node = dt_tree_next_compatible(node, compat))
			node_region(node, s, e, mode);
		return;
	}
	if (!plus || !parse_number(s, plus, &base) ||
	    !parse_number(plus + 1, e, &size)) {
		mmio_refuse(s, e, "want /path, compat=COMPATIBLE or BASE+SIZE, then :r, :w or :rw");
		return;
	}
	add(s, e, base, size, mode);
}

/* The mode word [@s, @e): HYPTRACE_MMIO_R | _W, or 0 */
static u32 parse_mode(const char *s, const char *e)
{
	u32 mode = 0;

	for (; s < e; s++) {
		u32 bit = *s == 'r' ? HYPTRACE_MMIO_R :
			  *s == 'w' ? HYPTRACE_MMIO_W : 0;

		if (!bit || mode & bit)
			return 0;
		mode |= bit;
	}
	return mode;
}

void dt_parse_mmio(void)
{
	int chosen = dt_tree_path("/chosen"), len;
	const char *args, *v, *e, *colon, *end;
	u32 mode;

	if (chosen < 0)
		return;
	args = dt_tree_getprop(chosen, "bootargs", &len);
	if (!args || !find_bootarg(args, len, HYPTRACE_MMIO_BOOTARG, &v, &e))
		return;
	for (; v < e; v = end + 1) {
		colon = memchr(v, ':', e - v);
		if (!colon) {
			mmio_refuse(v, e, "no :r, :w or :rw");
			return;
		}
		end = memchr(colon, ',', e - colon) ?: e;
		mode = parse_mode(colon + 1, end);
		if (!mode)
			mmio_refuse(v, end, "the mode is not r, w or rw");
		else
			parse_spec(v, colon, mode);
	}
}
