// SPDX-License-Identifier: GPL-2.0
/*
 * hyp_mem_alloc_boot() on the host, for the code under test that builds
 * tables (pgtable.c): zeroed, aligned memory from the C library.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyp_mem.h"

void *hyp_mem_alloc_boot(u64 size, u64 align, const char *what)
{
	void *p = aligned_alloc(align, size);

	if (!p) {
		printf("no memory for %s\n", what);
		abort();
	}
	memset(p, 0, size);
	return p;
}
