// SPDX-License-Identifier: GPL-2.0
/*
 * Page descriptor test: shared/trace_desc.c's layout of the descriptor the
 * hypervisor hands the module (which pages make up which CPU's buffer), and
 * the checks the module runs on it before it maps a single page.
 */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"
#include "testbuf.h"
#include "../../shared/trace_desc.h"

static int test_desc(void)
{
	struct tbuf tb[2];
	struct rb_cpu *cpus[2] = { &tb[0].cpu, &tb[1].cpu };
	u64 size = rb_desc_size(2, 4);
	struct rb_trace_desc *d = calloc(1, size);
	struct rb_desc_cpu *e;

	CHECK(size == 16 + 2 * (16 + 8 * 4), "size formula");
	CHECK(tb_init(&tb[0], 0, 4, RB_MODE_OVERWRITE) == 0, "init");
	CHECK(tb_init(&tb[1], 1, 4, RB_MODE_OVERWRITE) == 0, "init");
	CHECK(rb_desc_fill(d, size - 1, cpus, 2) == -RB_EINVAL, "too small");
	CHECK(rb_desc_fill(d, size, cpus, 2) == 0, "fill");
	CHECK(d->nr_cpus == 2 && d->struct_len == size, "header");
	e = rb_desc_entry(d, size, 1);
	CHECK(e && (u8 *)e == (u8 *)d + 16 + 48, "second entry offset");
	CHECK(e->cpu == 1 && e->nr_page_va == 4 &&
	      e->meta_va == (u64)(uintptr_t)tb[1].meta &&
	      e->page_va[0] == (u64)(uintptr_t)tb[1].pages[0] &&
	      e->page_va[3] == (u64)(uintptr_t)tb[1].pages[3], "entry");
	CHECK(rb_desc_check(d, size, 2) == 0, "check");
	CHECK(rb_desc_check(d, size, 1) == -RB_EINVAL, "more CPUs than told");
	CHECK(rb_desc_checked_entry(d, 1) == e, "checked entry");
	CHECK(!rb_desc_entry(d, size, 2), "no third entry");
	e->cpu = 0;
	CHECK(rb_desc_check(d, size, 2) == -RB_EINVAL, "cpu != index");
	e->cpu = 1;
	e->nr_page_va = 5;
	CHECK(rb_desc_check(d, size, 2) == -RB_EINVAL, "unequal/overflowing");
	e->nr_page_va = 4;
	e->page_va[2] |= 8;
	CHECK(rb_desc_check(d, size, 2) == -RB_EINVAL, "unaligned page");
	tb_free(&tb[0]);
	tb_free(&tb[1]);
	free(d);
	return 0;
}

/*
 * A descriptor with a huge CPU count (as a hostile hypervisor could write
 * into the carve-out): refused before any walk when the count is above
 * what the checker was told, and checked in one pass when it is not. A walk
 * per entry (quadratic) takes minutes here; one pass, milliseconds.
 */
#define BIG_DESC_CPUS	200000U
#define BIG_DESC_PAGES	RB_MIN_PAGES
#define BIG_DESC_MAX_S	5

static int test_desc_big(void)
{
	u64 size = rb_desc_size(BIG_DESC_CPUS, BIG_DESC_PAGES);
	struct rb_trace_desc *d = calloc(1, size);
	struct timespec t0, t1;
	u32 i, id;

	CHECK(d, "alloc");
	d->nr_cpus = (s32)BIG_DESC_CPUS;
	d->struct_len = size;
	for (i = 0; i < BIG_DESC_CPUS; i++) {
		struct rb_desc_cpu *e = rb_desc_checked_entry(d, i);

		e->cpu = (s32)i;
		e->nr_page_va = BIG_DESC_PAGES;
		e->meta_va = RB_PAGE_SIZE;
		for (id = 0; id < BIG_DESC_PAGES; id++)
			e->page_va[id] = RB_PAGE_SIZE;
	}
	CHECK(rb_desc_check(d, size, BIG_DESC_CPUS - 1) == -RB_EINVAL,
	      "more CPUs than told");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CHECK(rb_desc_check(d, size, BIG_DESC_CPUS) == 0, "big check");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	CHECK(t1.tv_sec - t0.tv_sec < BIG_DESC_MAX_S, "check took %ld s",
	      (long)(t1.tv_sec - t0.tv_sec));
	free(d);
	return 0;
}

int main(void)
{
	ck_run("desc: layout of a filled descriptor, and its checks",
	       test_desc);
	ck_run("desc: bounded and linear check", test_desc_big);
	return ck_exit();
}
