// SPDX-License-Identifier: GPL-2.0
/*
 * What the device tree says about physical memory: the RAM (/memory), the
 * memory the firmware keeps (/memreserve/ and /reserved-memory), and the
 * debug and trace register windows stage 2 keeps from Linux
 * (arm,coresight-cpu-debug, arm,coresight-cti).
 *
 * RAM is merged into one range per stretch of memory: a firmware that adds
 * a /memory node overlapping the one it was given must not leave two
 * ranges of which only one has the hypervisor's region cut out.
 *
 * The hypervisor maps none of the memory the firmware keeps (mmu.c maps
 * only what it touches); here it makes sure that what it places (its
 * region, the carve-out, Linux's copy of the device tree) lands on none
 * of it, and says what it found. Reserved nodes are read as Linux's
 * fdt_scan_reserved_mem() reads them: enabled children of
 * /reserved-memory with a reg, in its #address-cells and #size-cells;
 * those with only a size are Linux's to place, and Linux places them
 * around ours.
 *
 * Runs on the boot CPU with the MMU off, from dt.c.
 */
#include <libfdt.h>
#include <string.h>
#include "dt.h"
#include "dt_addr.h"
#include "dt_tree.h"
#include "hyp_layout.h"
#include "mem_ranges.h"
#include "panic.h"
#include "print.h"

/*
 * Their register windows stop a core, at any EL, for an external debugger:
 * the compatibles one after the other, each ending in '\0' (a string, not
 * an array of pointers that would each need a relocation)
 */
static const char debug_compatibles[] =
	"arm,coresight-cpu-debug\0arm,coresight-cti\0";

void dt_parse_memory(void)
{
	struct mem_ranges ram = { hyp_layout.mem, 0, HYP_MAX_MEM_RANGES };
	int ac = dt_tree_address_cells(0), sc = dt_tree_size_cells(0);
	int node, len;

	dt_tree_for_each_child(node, 0) {
		const char *type = dt_tree_getprop(node, "device_type", NULL);
		const fdt32_t *reg;

		if (!type || strncmp(type, "memory", 7) ||
		    !dt_node_enabled(node))
			continue;
		reg = dt_tree_getprop(node, "reg", &len);
		for (; reg && len >= (ac + sc) * 4; len -= (ac + sc) * 4) {
			u64 base = dt_read_cells(reg, ac);
			u64 size = dt_read_cells(reg + ac, sc);

			reg += ac + sc;
			if (base + size < base)
				hyp_panic("%s: reg 0x%lx+0x%lx wraps past 2^64",
					  dt_tree_name(node), base,
					  size);
			if (!ranges_add(&ram, base, size))
				hyp_panic("more than %u separate RAM ranges in /memory",
					  HYP_MAX_MEM_RANGES);
		}
	}
	hyp_layout.nr_mem = ram.nr;
	if (!ram.nr)
		hyp_panic("no memory node in the device tree");
}

/*
 * Firmware memory at [@base, @base + @size), named @what: it must not be
 * where the hypervisor placed anything (dt.c, place_regions())
 */
static void check_kept(const char *what, u64 base, u64 size, bool no_map)
{
	const struct hyp_layout *l = &hyp_layout;
	const char *clash = NULL;

	if (!size)
		return;
	if (base + size < base)
		hyp_panic("%s: reg 0x%lx+0x%lx wraps past 2^64", what, base,
			  size);
	if (ranges_overlap(base, size, l->hyp_base, HYP_REGION_SIZE))
		clash = "the hypervisor's region";
	else if (ranges_overlap(base, size, l->carveout_base,
				l->carveout_size))
		clash = "the trace carve-out";
	else if (ranges_overlap(base, size, l->dtb_base, SZ_2M))
		clash = "the device-tree copy below the carve-out";
	if (clash)
		hyp_panic("firmware keeps 0x%lx..0x%lx (%s), which overlaps %s: load the hypervisor elsewhere, or place the carve-out with hyptrace.carveout=SIZE@BASE",
			  base, base + size - 1, what, clash);
	hyp_info("firmware keeps 0x%lx..0x%lx (%s%s): not mapped at EL2\n",
		 base, base + size - 1, what, no_map ? ", no-map" : "");
}

void dt_check_kept(void)
{
	int rsv = dt_tree_path("/reserved-memory"), node, i;
	u64 base, size;

	for (i = 0; dt_tree_memreserve(i, &base, &size); i++)
		check_kept("/memreserve/", base, size, false);
	if (rsv < 0)
		return;
	dt_tree_for_each_child(node, rsv) {
		int ac = dt_tree_address_cells(rsv), sc = dt_tree_size_cells(rsv);
		const char *name = dt_tree_name(node);
		bool no_map = dt_tree_getprop(node, "no-map", NULL);
		const fdt32_t *reg;
		int len;

		if (!dt_node_enabled(node))
			continue;
		reg = dt_tree_getprop(node, "reg", &len);
		for (; reg && len >= (ac + sc) * 4; len -= (ac + sc) * 4) {
			check_kept(name, dt_read_cells(reg, ac),
				   dt_read_cells(reg + ac, sc), no_map);
			reg += ac + sc;
		}
	}
}

/* @node's window, a whole number of pages, into @set */
static void add_debug_window(int node, struct mem_ranges *set)
{
	const char *name = dt_tree_name(node), *why;
	u64 addr, size, base, end;
	unsigned int i;

	why = dt_node_reg(node, &addr, &size);
	if (why) {
		hyp_info("debug window %s: %s; nothing to keep from EL1\n",
			 name, why);
		return;
	}
	base = ALIGN_DOWN(addr, SZ_4K);
	end = ALIGN_UP(addr + max(size, 1UL), SZ_4K);
	if (end <= base)
		hyp_panic("debug window %s: reg 0x%lx+0x%lx wraps past 2^64",
			  name, addr, size);
	/* Registers, not RAM: a reg in RAM is a mistake, not a window */
	for (i = 0; i < hyp_layout.nr_mem; i++)
		if (ranges_overlap(base, end - base, hyp_layout.mem[i].base,
				   hyp_layout.mem[i].size)) {
			hyp_info("debug window %s at 0x%lx is in RAM: ignored\n",
				 name, addr);
			return;
		}
	if (!ranges_add(set, base, end - base))
		hyp_panic("more than %u debug windows in the device tree",
			  HYP_MAX_DEBUG_WINDOWS);
}

/*
 * Every node compatible with a debug or trace window, enabled or not: a
 * disabled node still describes registers that are there
 */
void dt_parse_debug_windows(void)
{
	struct mem_ranges set = { hyp_layout.debug, 0, HYP_MAX_DEBUG_WINDOWS };
	const char *c;
	int node;

	for (c = debug_compatibles; *c; c += strlen(c) + 1)
		for (node = dt_tree_next_compatible(-1, c); node >= 0;
		     node = dt_tree_next_compatible(node, c))
			add_debug_window(node, &set);
	hyp_layout.nr_debug = set.nr;
}
