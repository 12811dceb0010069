// SPDX-License-Identifier: GPL-2.0
/*
 * The SCMI channels over SMC the device tree describes, for fw_scmi.c to
 * decode the calls made on them: every enabled node compatible
 * "arm,scmi-smc" or "arm,scmi-smc-param" (Linux's
 * Documentation/devicetree/bindings/firmware/arm,scmi.yaml), its
 * "arm,smc-id" and the first reg of the node its "shmem" phandle names
 * (compatible "arm,scmi-shmem"), translated through the buses above it.
 * Protocol subnodes with a shmem of their own are channels of their own,
 * on the same function ID.
 *
 * A shared memory the hypervisor would map over its own memory (its
 * region, the carve-out, Linux's copy of the device tree) is refused with
 * one line and the boot goes on undecoded for it; so is one whose fixed
 * header (fw_scmi.c) does not fit in one page or is not word-aligned.
 * Other variants (qcom,scmi-smc's capability ID, the "a2p" interrupt's
 * asynchronous completion) are not decoded.
 *
 * Runs on the boot CPU with the MMU off, from dt.c.
 */
#include <libfdt.h>
#include <string.h>
#include "dt_addr.h"
#include "dt_tree.h"
#include "fw_trace.h"
#include "hyp_layout.h"
#include "mem_ranges.h"
#include "print.h"

static const char scmi_compatibles[] = "arm,scmi-smc\0arm,scmi-smc-param\0";

/* Why the shared memory at [@base, @base + @size) cannot be read; or NULL */
static const char *shmem_clash(u64 base, u64 size)
{
	const struct hyp_layout *l = &hyp_layout;

	if (size < FW_SCMI_SHMEM_READ || base + size < base)
		return "smaller than the SCMI header, or wrapping";
	if (base & (FW_SCMI_SHMEM_ALIGN - 1) ||
	    (base & (SZ_4K - 1)) + FW_SCMI_SHMEM_READ > SZ_4K)
		return "its header is not word-aligned within one page";
	if (base + size > 1UL << HYP_EL2_VA_BITS)
		return "beyond the addresses the hypervisor maps";
	if (ranges_overlap(base, size, l->hyp_base, HYP_REGION_SIZE))
		return "in the hypervisor's region";
	if (ranges_overlap(base, size, l->carveout_base, l->carveout_size))
		return "in the trace carve-out";
	if (ranges_overlap(base, size, l->dtb_base, SZ_2M))
		return "in the block of Linux's device tree";
	return NULL;
}

/* One channel: @node's (or its parent's) function ID, @node's shmem */
static void add_channel(int node, u32 func_id, bool param)
{
	const char *name = dt_tree_name(node);
	const fdt32_t *ph = dt_tree_getprop(node, "shmem", NULL);
	const char *why;
	u64 base, size;
	int shmem;

	if (!ph)
		return;
	shmem = dt_tree_by_phandle(fdt32_to_cpu(*ph));
	if (shmem < 0) {
		why = "its shmem phandle names no node";
	} else if (!dt_tree_compatible(shmem, "arm,scmi-shmem")) {
		why = "its shmem is not arm,scmi-shmem";
	} else {
		why = dt_node_reg(shmem, &base, &size);
		if (!why)
			why = shmem_clash(base, size);
		if (!why)
			why = fw_scmi_channel_add(func_id, base, param);
	}
	if (why)
		hyp_info("SCMI %s: %s; its calls not decoded\n", name, why);
	else
		hyp_info("SCMI %s: function 0x%x, shared memory at 0x%lx\n",
			 name, func_id, base);
}

void dt_parse_scmi(void)
{
	const char *c;
	const fdt32_t *id;
	int node, child, len;
	bool param;

	for (c = scmi_compatibles; *c; c += strlen(c) + 1) {
		/* -param: x1 and x2 name the shared memory's page and offset */
		param = c != scmi_compatibles;
		for (node = dt_tree_next_compatible(-1, c); node >= 0;
		     node = dt_tree_next_compatible(node, c)) {
			if (!dt_node_enabled(node))
				continue;
			id = dt_tree_getprop(node, "arm,smc-id", &len);
			if (!id || len != sizeof(*id)) {
				hyp_info("SCMI %s: no arm,smc-id; its calls not decoded\n",
					 dt_tree_name(node));
				continue;
			}
			add_channel(node, fdt32_to_cpu(*id), param);
			dt_tree_for_each_child(child, node)
				add_channel(child, fdt32_to_cpu(*id), param);
		}
	}
}
