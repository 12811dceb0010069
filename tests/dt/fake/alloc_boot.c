// SPDX-License-Identifier: GPL-2.0
/*
 * hyp_mem_alloc_boot() over the C library: the index dt_tree.c asks for,
 * freed at the next request (the tests build one index at a time)
 */
#include <stdlib.h>

#include "hyp_mem.h"

void *hyp_mem_alloc_boot(u64 size, u64 align, const char *what)
{
	static void *last;

	(void)what;
	free(last);
	last = aligned_alloc(align, ALIGN_UP(size ? size : 1, align));
	if (!last)
		abort();
	return last;
}
