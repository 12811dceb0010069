/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host-side scaffolding shared by the tests: one CPU's meta page and data
 * pages as separate page-aligned allocations (so AddressSanitizer puts a
 * redzone around each) and the writer's private state. The tests check and
 * report with tests/include/check.h.
 */
#ifndef HYPTRACE_TESTS_TESTBUF_H
#define HYPTRACE_TESTS_TESTBUF_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../shared/ring_buffer.h"

struct tbuf {
	struct rb_cpu cpu;
	struct rb_meta *meta;
	struct rb_data_page **pages;
	struct rb_page_info *info;
	u32 nr_pages;
};

static inline void *tb_page(void)
{
	void *p = aligned_alloc(RB_PAGE_SIZE, RB_PAGE_SIZE);

	if (!p) {
		perror("aligned_alloc");
		exit(2);
	}
	/* what the kernel's __get_free_page leaves: anything */
	memset(p, 0xa5, RB_PAGE_SIZE);
	return p;
}

static inline int tb_init(struct tbuf *tb, u32 cpu, u32 nr_pages,
			  enum rb_mode mode)
{
	u32 i;

	memset(tb, 0, sizeof(*tb));
	tb->nr_pages = nr_pages;
	tb->meta = tb_page();
	tb->pages = calloc(nr_pages, sizeof(*tb->pages));
	tb->info = calloc(nr_pages, sizeof(*tb->info));
	for (i = 0; i < nr_pages; i++)
		tb->pages[i] = tb_page();
	return rb_init(&tb->cpu, cpu, tb->meta, (void *const *)tb->pages,
		       nr_pages, tb->info, mode);
}

static inline void tb_free(struct tbuf *tb)
{
	u32 i;

	for (i = 0; i < tb->nr_pages; i++)
		free(tb->pages[i]);
	free(tb->meta);
	free(tb->pages);
	free(tb->info);
}

#endif /* HYPTRACE_TESTS_TESTBUF_H */
