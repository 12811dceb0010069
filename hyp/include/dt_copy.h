/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Linux's copy of the loader's device tree, written in one pass with the
 * hypervisor's edits in it (dt_copy.c).
 */
#ifndef HYP_DT_COPY_H
#define HYP_DT_COPY_H

#include "types.h"

/* A /reserved-memory/NAME@BASE node: reg, no-map, compatible */
struct dt_copy_reserve {
	const char *name;
	const char *compatible;
	u64 base;
	u64 size;
};

#define DT_COPY_RESERVES	2

struct dt_copy {
	void *out;
	u32 room;			/* bytes at @out */
	struct dt_copy_reserve reserve[DT_COPY_RESERVES];
	/*
	 * PSCI by HVC for Linux, or NULL: the CPU nodes to switch to
	 * enable-method "psci" (their cpu-release-addr dropped), a /psci
	 * node added, and the pages @keep_pages gives kept as /memreserve/.
	 */
	bool (*psci_cpu)(int node);
	void (*keep_pages)(void (*fn)(void *ctx, u64 page), void *ctx);
};

/*
 * Writes the copy of @fdt, whose index dt_tree_build() made; NULL, or why
 * the copy could not be made.
 */
const char *dt_copy_write(const void *fdt, const struct dt_copy *copy);

#endif /* HYP_DT_COPY_H */
