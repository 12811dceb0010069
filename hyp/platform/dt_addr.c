// SPDX-License-Identifier: GPL-2.0
/*
 * A node's addresses, as Linux's flat-tree code reads them
 * (drivers/of/fdt_address.c): reg is in the space of the node's parent,
 * which its ranges map into the space of the grandparent, and so up to the
 * root, whose space is the CPU's. No ranges, or an empty one, is 1:1.
 * Nothing here touches a device.
 *
 * Built on the host too, against the system's libfdt, for tests/uart/.
 */
#include <libfdt.h>
#include <string.h>
#include "dt_addr.h"
#include "dt_tree.h"

/* An address or size wider than this many cells is no device's here */
#define DT_MAX_CELLS	2

u64 dt_read_cells(const fdt32_t *p, int cells)
{
	u64 v = 0;

	while (cells--)
		v = (v << 32) | fdt32_ld(p++);
	return v;
}

/* The C library's strcmp() == 0, from what the hypervisor's has */
static bool streq(const char *a, const char *b)
{
	return !strncmp(a, b, strlen(a) + 1);
}

bool dt_node_enabled(int node)
{
	const char *status = dt_tree_string(node, "status", 0);

	return !status || streq(status, "okay") || streq(status, "ok");
}

/*
 * @addr, an address in the space of @bus's children, in the space of
 * @bus's parent: through @bus's ranges, entries of (child address, parent
 * address, size). False if no entry holds it.
 */
static bool translate_one(int bus, int parent, u64 *addr)
{
	int na = dt_tree_address_cells(bus), ns = dt_tree_size_cells(bus);
	int pna = dt_tree_address_cells(parent), len, entry;
	const fdt32_t *r = dt_tree_getprop(bus, "ranges", &len);

	if (!r || !len)
		return true;
	if (na < 1 || na > DT_MAX_CELLS || pna < 1 || pna > DT_MAX_CELLS ||
	    ns < 0 || ns > DT_MAX_CELLS)
		return false;
	entry = (na + pna + ns) * 4;
	for (; len >= entry; len -= entry, r += na + pna + ns) {
		u64 child = dt_read_cells(r, na);
		u64 size = dt_read_cells(r + na + pna, ns);

		if (*addr >= child && *addr - child < size) {
			*addr = dt_read_cells(r + na, pna) + (*addr - child);
			return true;
		}
	}
	return false;
}

const char *dt_node_reg(int node, u64 *addr, u64 *size)
{
	int bus = dt_tree_parent(node), na, ns, len;
	const fdt32_t *reg = dt_tree_getprop(node, "reg", &len);

	if (bus < 0)
		return "it has no parent";
	na = dt_tree_address_cells(bus);
	ns = dt_tree_size_cells(bus);
	if (na < 1 || na > DT_MAX_CELLS)
		return "its bus's #address-cells is not 1 or 2";
	if (ns < 0 || ns > DT_MAX_CELLS)
		return "its bus's #size-cells is not 0, 1 or 2";
	if (!reg || len < (na + ns) * 4)
		return "it has no reg";
	*addr = dt_read_cells(reg, na);
	if (size)
		*size = dt_read_cells(reg + na, ns);
	/* Up through each bus to the root, whose space is the CPU's */
	while (bus > 0) {
		int parent = dt_tree_parent(bus);

		if (parent < 0 || !translate_one(bus, parent, addr))
			return "its reg is outside its bus's ranges";
		bus = parent;
	}
	return NULL;
}
