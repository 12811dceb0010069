// SPDX-License-Identifier: GPL-2.0
/*
 * Linux's copy of the loader's device tree, written in one pass: the
 * loader's blocks copied in runs, the hypervisor's edits written where
 * they fall. libfdt's way (open the copy, then add, set and delete one
 * property at a time, each moving everything after it, then pack) took
 * 1.9 KiB of its read-write half; here the edits are few and known, and
 * the index (dt_tree.c) says where each goes.
 *
 * The copy is laid out as dtc lays out a tree: the header, the memory
 * reservations (the loader's, then the spin table's pages), the structure
 * block, then the strings (the loader's, then the names the edits use).
 * The loader's structure block was checked tag by tag when the index was
 * built, so it is walked here without a second check.
 *
 * Runs on the boot CPU with the MMU off, into memory Linux is handed with
 * its caches off (dt.c cleans it to the point of coherency after).
 */
#include <libfdt.h>
#include <string.h>
#include "dt_addr.h"
#include "dt_copy.h"
#include "dt_tree.h"

/* The names the edits add, after the loader's strings; "method" is a tail */
static const char names[] = "#address-cells\0#size-cells\0ranges\0reg\0"
			    "no-map\0compatible\0enable-method";
enum {
	NAME_ADDRESS_CELLS = 0,
	NAME_SIZE_CELLS = NAME_ADDRESS_CELLS + sizeof("#address-cells"),
	NAME_RANGES = NAME_SIZE_CELLS + sizeof("#size-cells"),
	NAME_REG = NAME_RANGES + sizeof("ranges"),
	NAME_NO_MAP = NAME_REG + sizeof("reg"),
	NAME_COMPATIBLE = NAME_NO_MAP + sizeof("no-map"),
	NAME_ENABLE_METHOD = NAME_COMPATIBLE + sizeof("compatible"),
	NAME_METHOD = NAME_ENABLE_METHOD + sizeof("enable-") - 1,
};
_Static_assert(NAME_ENABLE_METHOD + sizeof("enable-method") == sizeof(names),
	       "names: one offset a name");

#define NO_ROOM		"it does not fit the room below the carve-out"

/* "arm,psci-1.0" first: psci_local.c answers VERSION 1.0 */
static const char psci_compatible[] = "arm,psci-1.0\0arm,psci-0.2";

struct out {
	char *buf;
	u32 room;
	u32 len;
	bool full;		/* a write did not fit: nothing more is written */
	u32 names;		/* the offset of names[] in the strings block */
};

static void put(struct out *o, const void *p, u32 len)
{
	if (!len)
		return;		/* an empty property's value */
	if (o->full || len > o->room - o->len) {
		o->full = true;
		return;
	}
	memcpy(o->buf + o->len, p, len);
	o->len += len;
}

static void put32(struct out *o, u32 v)
{
	fdt32_t be = cpu_to_fdt32(v);

	put(o, &be, sizeof(be));
}

/* @len bytes at @p, then zeros to the structure block's 4-byte alignment */
static void put_padded(struct out *o, const void *p, u32 len)
{
	static const u32 zero;

	put(o, p, len);
	put(o, &zero, ALIGN_UP(len, FDT_TAGSIZE) - len);
}

static void put_prop(struct out *o, u32 name, const void *val, u32 len)
{
	put32(o, FDT_PROP);
	put32(o, len);
	put32(o, o->names + name);
	put_padded(o, val, len);
}

static void put_string_prop(struct out *o, u32 name, const char *s)
{
	put_prop(o, name, s, strlen(s) + 1);
}

static void put_u32_prop(struct out *o, u32 name, u32 v)
{
	fdt32_t be = cpu_to_fdt32(v);

	put_prop(o, name, &be, sizeof(be));
}

static void put_begin_node(struct out *o, const char *name)
{
	put32(o, FDT_BEGIN_NODE);
	put_padded(o, name, strlen(name) + 1);
}

/* @v as @cells big-endian cells (1 or 2) at @p; the cells after them */
static fdt32_t *cells_at(fdt32_t *p, u64 v, int cells)
{
	if (cells == 2)
		*p++ = cpu_to_fdt32(v >> 32);
	*p++ = cpu_to_fdt32(v);
	return p;
}

/* NAME@BASE, BASE in lower-case hex without leading zeros, as Linux names */
static void unit_name(char *buf, const char *name, u64 base)
{
	int n = strlen(name), shift = 60;

	memcpy(buf, name, n);
	buf[n++] = '@';
	while (shift && !(base >> shift))
		shift -= 4;
	for (; shift >= 0; shift -= 4)
		buf[n++] = "0123456789abcdef"[(base >> shift) & 0xf];
	buf[n] = '\0';
}

static void put_reserve(struct out *o, const struct dt_copy_reserve *r,
			int ac, int sc)
{
	char unit[48];
	fdt32_t reg[4], *end;

	unit_name(unit, r->name, r->base);
	end = cells_at(cells_at(reg, r->base, ac), r->size, sc);
	put_begin_node(o, unit);
	put_prop(o, NAME_REG, reg, (end - reg) * sizeof(*reg));
	put_prop(o, NAME_NO_MAP, NULL, 0);
	put_string_prop(o, NAME_COMPATIBLE, r->compatible);
	put32(o, FDT_END_NODE);
}

/* Whether @r's base and size fit @ac and @sc cells (Linux reads 1 or 2) */
static bool reserve_fits(const struct dt_copy_reserve *r, int ac, int sc)
{
	return ac >= 1 && ac <= 2 && sc >= 1 && sc <= 2 &&
	       (ac == 2 || !(r->base >> 32)) && (sc == 2 || !(r->size >> 32));
}

static void put_reserved_memory(struct out *o, const struct dt_copy *c,
				int ac, int sc)
{
	/* Linux ignores the node unless its cells match the root's */
	put_begin_node(o, "reserved-memory");
	put_u32_prop(o, NAME_ADDRESS_CELLS, ac);
	put_u32_prop(o, NAME_SIZE_CELLS, sc);
	put_prop(o, NAME_RANGES, NULL, 0);
	for (int i = 0; i < DT_COPY_RESERVES; i++)
		put_reserve(o, &c->reserve[i], ac, sc);
	put32(o, FDT_END_NODE);
}

static void put_psci(struct out *o)
{
	put_begin_node(o, "psci");
	put_prop(o, NAME_COMPATIBLE, psci_compatible, sizeof(psci_compatible));
	put_string_prop(o, NAME_METHOD, "hvc");
	put32(o, FDT_END_NODE);
}

static void put_range(struct out *o, u64 base, u64 size)
{
	fdt64_t entry[2] = { cpu_to_fdt64(base), cpu_to_fdt64(size) };

	put(o, entry, sizeof(entry));
}

static void put_page(void *o, u64 page)
{
	put_range(o, page, SZ_4K);
}

/* The loader's reservations, the pages kept, then the end (size 0) */
static void put_memreserve(struct out *o, const struct dt_copy *c)
{
	u64 base, size;

	for (int i = 0; dt_tree_memreserve(i, &base, &size); i++)
		put_range(o, base, size);
	if (c->psci_cpu)
		c->keep_pages(put_page, o);
	put_range(o, 0, 0);
}

/*
 * The structure block, copied in runs from @from up to each edit. A CPU
 * node for PSCI gets its enable-method where it had one, or after its
 * last property; /reserved-memory (the loader's, or one added as the
 * root's last child) gets the reserves as its last children.
 */
static void put_structure(struct out *o, const void *fdt,
			  const struct dt_copy *c, int rsv, int ac, int sc)
{
	const char *base = (const char *)fdt + fdt_off_dt_struct(fdt);
	int rsv_end = rsv >= 0 ? dt_tree_end_tag(rsv) : -1;
	int root_end = dt_tree_end_tag(0);
	u32 off = 0, from = 0, next;
	bool cpu = false;	/* in a PSCI CPU's properties */
	bool method = false;	/* and its enable-method written */

	for (;; off = next) {
		u32 tag = fdt32_to_cpu(*(const fdt32_t *)(base + off));

		next = off + FDT_TAGSIZE;
		if (tag == FDT_PROP) {
			next = dt_tree_prop_end(off);
			if (!cpu)
				continue;
			if (dt_tree_prop_is(off, "enable-method")) {
				put(o, base + from, off - from);
				put_string_prop(o, NAME_ENABLE_METHOD, "psci");
				from = next;
				method = true;
			} else if (dt_tree_prop_is(off, "cpu-release-addr")) {
				put(o, base + from, off - from);
				from = next;
			}
			continue;
		}
		if (tag == FDT_BEGIN_NODE)
			next = ALIGN_UP(next + strlen(base + next) + 1,
					FDT_TAGSIZE);
		if (tag != FDT_BEGIN_NODE && tag != FDT_END_NODE) {
			if (tag == FDT_END)
				break;
			continue;	/* FDT_NOP, kept as the loader had it */
		}
		/* A node's properties end here: the edits due before it */
		put(o, base + from, off - from);
		from = off;
		if (cpu && !method)
			put_string_prop(o, NAME_ENABLE_METHOD, "psci");
		method = false;
		cpu = tag == FDT_BEGIN_NODE && c->psci_cpu &&
		      c->psci_cpu(off);
		if ((int)off == rsv_end)
			for (int i = 0; i < DT_COPY_RESERVES; i++)
				put_reserve(o, &c->reserve[i], ac, sc);
		if ((int)off == root_end && rsv < 0)
			put_reserved_memory(o, c, ac, sc);
		if ((int)off == root_end && c->psci_cpu)
			put_psci(o);
	}
	put(o, base + from, next - from);
}

const char *dt_copy_write(const void *fdt, const struct dt_copy *c)
{
	struct out o = { .buf = c->out, .room = c->room };
	int rsv = dt_tree_path("/reserved-memory"), ac, sc;
	u32 mem_rsvmap, structure, strings;

	if (c->room < sizeof(struct fdt_header))
		return NO_ROOM;
	/* The loader's /reserved-memory is read with its own cells */
	ac = dt_tree_address_cells(rsv >= 0 ? rsv : 0);
	sc = dt_tree_size_cells(rsv >= 0 ? rsv : 0);
	for (int i = 0; i < DT_COPY_RESERVES; i++)
		if (!reserve_fits(&c->reserve[i], ac, sc))
			return "a reserved range does not fit /reserved-memory's #address-cells and #size-cells";

	o.len = mem_rsvmap = sizeof(struct fdt_header);
	put_memreserve(&o, c);
	structure = o.len;
	o.names = fdt_size_dt_strings(fdt);
	put_structure(&o, fdt, c, rsv, ac, sc);
	strings = o.len;
	put(&o, (const char *)fdt + fdt_off_dt_strings(fdt),
	    fdt_size_dt_strings(fdt));
	put(&o, names, sizeof(names));
	if (o.full)
		return NO_ROOM;

	fdt_set_magic(o.buf, FDT_MAGIC);
	fdt_set_totalsize(o.buf, o.len);
	fdt_set_off_dt_struct(o.buf, structure);
	fdt_set_off_dt_strings(o.buf, strings);
	fdt_set_off_mem_rsvmap(o.buf, mem_rsvmap);
	fdt_set_version(o.buf, 17);
	fdt_set_last_comp_version(o.buf, 16);
	fdt_set_boot_cpuid_phys(o.buf, fdt_boot_cpuid_phys(fdt));
	fdt_set_size_dt_strings(o.buf, o.len - strings);
	fdt_set_size_dt_struct(o.buf, strings - structure);
	return NULL;
}
