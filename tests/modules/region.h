/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test modules' way to the memory the hypervisor reserved: the
 * /reserved-memory node with @compatible (HYPTRACE_CARVEOUT_COMPATIBLE,
 * HYPTRACE_HYP_MEM_COMPATIBLE), mapped write-back as Linux would.
 */
#ifndef HYPTRACE_TESTS_REGION_H
#define HYPTRACE_TESTS_REGION_H

#include <linux/err.h>
#include <linux/io.h>
#include <linux/of.h>
#include <linux/of_address.h>

#include "hyptrace_abi_linux.h"

/* The region's mapping (memunmap() it), its place in @res; an ERR_PTR */
static inline void *test_map_region(const char *compatible,
				    struct resource *res)
{
	struct device_node *np;
	void *va;
	int err;

	np = of_find_compatible_node(NULL, NULL, compatible);
	if (!np)
		return ERR_PTR(-ENODEV);
	err = of_address_to_resource(np, 0, res);
	of_node_put(np);
	if (err)
		return ERR_PTR(err);
	va = memremap(res->start, resource_size(res), MEMREMAP_WB);
	return va ? va : ERR_PTR(-ENOMEM);
}

/*
 * The trace carve-out (HYPTRACE_CARVEOUT_COMPATIBLE), mapped: its mapping
 * (memunmap() it), its physical base and size in *@base and *@size; an
 * ERR_PTR
 */
static inline void *test_map_carveout(u64 *base, u64 *size)
{
	struct resource res;
	void *va = test_map_region(HYPTRACE_CARVEOUT_COMPATIBLE, &res);

	if (!IS_ERR(va)) {
		*base = res.start;
		*size = resource_size(&res);
	}
	return va;
}

#endif /* HYPTRACE_TESTS_REGION_H */
