// SPDX-License-Identifier: GPL-2.0
/*
 * The device regions whose accesses the host makes through the hypervisor
 * (Documentation/guides/mmio-trace.md): named at boot (hyptrace.mmio=,
 * dt_mmio.c) or at run time (HYPTRACE_CALL_MMIO_REGION). Their pages leave
 * stage 2, so that each access by EL1 or EL0 traps to mmio_trap.c, which
 * performs it once and records it.
 *
 * Only device addresses can be traced: nothing in RAM (the hypervisor's
 * region and the trace carve-out are RAM), where a trapped access would
 * turn Linux's memory into a device and the hypervisor's own pages would
 * be read and written on the host's behalf; nothing in a debug window
 * stage 2 keeps from EL1 (stage2.c), which removing the region would map.
 *
 * The table is read without a lock on every trapped access: a slot's base,
 * size and mode are written before its mode makes it live (release, read
 * with acquire), and a region leaves the table only after its pages are
 * back in stage 2, so that no access to them traps once it is gone. Hit
 * counts are relaxed atomics: a count, not an order.
 */
#include "hyp_layout.h"
#include "mem_ranges.h"
#include "mmio_trace.h"
#include "print.h"
#include "spinlock.h"
#include "stage2.h"
#include "shared/hyptrace_abi.h"

struct mmio_region {
	u64 base;
	u64 size;
	u32 mode;		/* HYPTRACE_MMIO_R | _W; 0: free slot */
	u64 hits;
};

static struct mmio_region regions[HYPTRACE_MMIO_SLOTS];
/* Serialises changes to the table and stage 2 */
static struct spinlock regions_lock;

/* The pages of [@base, @base + @size), which the caller checked for wrap */
static void region_pages(u64 base, u64 size, u64 *first, u64 *end)
{
	*first = ALIGN_DOWN(base, SZ_4K);
	*end = ALIGN_UP(base + size, SZ_4K);
}

/* Why [@base, @base + @size) may not be traced, as a HYPTRACE_RET_* code */
static s64 region_check(u64 base, u64 size, u32 mode)
{
	const struct hyp_layout *l = &hyp_layout;
	u64 first, end;
	unsigned int i;

	if (!size || base + size < base || base + size > ~0UL - SZ_4K ||
	    !mode || mode & ~(HYPTRACE_MMIO_R | HYPTRACE_MMIO_W))
		return HYPTRACE_RET_INVALID;
	region_pages(base, size, &first, &end);
	/* Boot-time regions come before stage 2: mmio_trace_holes() checks */
	if (stage2_host_map.ia_bits && end > 1UL << stage2_host_map.ia_bits)
		return HYPTRACE_RET_INVALID;
	for (i = 0; i < l->nr_mem; i++)
		if (ranges_overlap(first, end - first, l->mem[i].base,
				   l->mem[i].size))
			return HYPTRACE_RET_DENIED;
	/* In RAM on every board we know; said again should one not be */
	if (ranges_overlap(first, end - first, l->hyp_base, HYP_REGION_SIZE) ||
	    ranges_overlap(first, end - first, l->carveout_base,
			   l->carveout_size))
		return HYPTRACE_RET_DENIED;
	for (i = 0; i < l->nr_debug && !l->allow_debug; i++)
		if (ranges_overlap(first, end - first, l->debug[i].base,
				   l->debug[i].size))
			return HYPTRACE_RET_DENIED;
	for (i = 0; i < HYPTRACE_MMIO_SLOTS; i++) {
		u64 f, e;

		if (!regions[i].mode)
			continue;
		region_pages(regions[i].base, regions[i].size, &f, &e);
		if (ranges_overlap(first, end - first, f, e - f))
			return HYPTRACE_RET_BUSY;
	}
	return HYPTRACE_RET_SUCCESS;
}

/* A free slot, filled and made live; NULL if the table is full */
static struct mmio_region *region_insert(u64 base, u64 size, u32 mode)
{
	unsigned int i;

	for (i = 0; i < HYPTRACE_MMIO_SLOTS; i++) {
		struct mmio_region *r = &regions[i];

		if (r->mode)
			continue;
		r->base = base;
		r->size = size;
		r->hits = 0;
		__atomic_store_n(&r->mode, mode, __ATOMIC_RELEASE);
		return r;
	}
	return NULL;
}

s64 mmio_region_add_boot(u64 base, u64 size, u32 mode)
{
	s64 ret = region_check(base, size, mode);

	if (ret)
		return ret;
	return region_insert(base, size, mode) ? HYPTRACE_RET_SUCCESS :
						 HYPTRACE_RET_NO_MEMORY;
}

void mmio_trace_holes(struct mem_ranges *holes)
{
	unsigned int i;

	for (i = 0; i < HYPTRACE_MMIO_SLOTS; i++) {
		struct mmio_region *r = &regions[i];
		u64 first, end;

		if (!r->mode)
			continue;
		region_pages(r->base, r->size, &first, &end);
		if (end > 1UL << stage2_host_map.ia_bits) {
			hyp_info("%s0x%lx+0x%lx: beyond stage 2, not traced\n",
				 HYPTRACE_MMIO_BOOTARG, r->base, r->size);
			r->mode = 0;
			continue;
		}
		/* S2_MAX_HOLES counts a hole per slot */
		ranges_add(holes, first, end - first);
		hyp_info("MMIO trace: 0x%lx..0x%lx (%s%s)\n", r->base,
			 r->base + r->size - 1,
			 r->mode & HYPTRACE_MMIO_R ? "r" : "",
			 r->mode & HYPTRACE_MMIO_W ? "w" : "");
	}
}

static s64 region_add(u64 base, u64 size, u32 mode)
{
	struct mmio_region *r;
	u64 first, end;
	s64 ret = region_check(base, size, mode);

	if (ret)
		return ret;
	r = region_insert(base, size, mode);
	if (!r)
		return HYPTRACE_RET_NO_MEMORY;
	/* Live before its pages trap, so that every trap finds it */
	region_pages(base, size, &first, &end);
	ret = stage2_change(first, end - first, STAGE2_ABSENT);
	if (ret) {
		/* Out of spare tables part-way: put back what was taken */
		stage2_change(first, end - first, STAGE2_MMIO);
		__atomic_store_n(&r->mode, 0, __ATOMIC_RELEASE);
	}
	return ret;
}

static s64 region_remove(u64 base, u64 size)
{
	unsigned int i;

	for (i = 0; i < HYPTRACE_MMIO_SLOTS; i++) {
		struct mmio_region *r = &regions[i];
		u64 first, end;

		if (!r->mode || r->base != base || r->size != size)
			continue;
		region_pages(base, size, &first, &end);
		/* Mapping pages needs no split table: they are pages already */
		stage2_change(first, end - first, STAGE2_MMIO);
		__atomic_store_n(&r->mode, 0, __ATOMIC_RELEASE);
		return HYPTRACE_RET_SUCCESS;
	}
	return HYPTRACE_RET_INVALID;
}

s64 mmio_region_call(u64 op, u64 base, u64 size, u64 mode)
{
	s64 ret;

	if (!HYP_STAGE2)
		return HYPTRACE_RET_NOT_SUPPORTED;
	if (op != HYPTRACE_MMIO_ADD && op != HYPTRACE_MMIO_REMOVE)
		return HYPTRACE_RET_INVALID;
	if (mode > (HYPTRACE_MMIO_R | HYPTRACE_MMIO_W))
		return HYPTRACE_RET_INVALID;
	spin_lock(&regions_lock);
	if (op == HYPTRACE_MMIO_ADD)
		ret = region_add(base, size, (u32)mode);
	else
		ret = region_remove(base, size);
	spin_unlock(&regions_lock);
	return ret;
}

s64 mmio_query_call(u64 slot, u64 res[3])
{
	const struct mmio_region *r;

	if (slot >= HYPTRACE_MMIO_SLOTS)
		return HYPTRACE_RET_INVALID;
	r = &regions[slot];
	spin_lock(&regions_lock);
	res[0] = r->mode ? r->base : 0;
	res[1] = r->mode ? r->size : 0;
	res[2] = r->mode | __atomic_load_n(&r->hits, __ATOMIC_RELAXED) << 2;
	spin_unlock(&regions_lock);
	return HYPTRACE_RET_SUCCESS;
}

u32 mmio_region_hit(u64 ipa, u32 access, bool *page)
{
	unsigned int i;

	*page = false;
	for (i = 0; i < HYPTRACE_MMIO_SLOTS; i++) {
		struct mmio_region *r = &regions[i];
		u32 mode = __atomic_load_n(&r->mode, __ATOMIC_ACQUIRE);
		u64 first, end;

		if (!mode)
			continue;
		region_pages(r->base, r->size, &first, &end);
		if (ipa - first >= end - first)
			continue;
		*page = true;
		if (ipa - r->base >= r->size || !(mode & access))
			return 0;
		__atomic_fetch_add(&r->hits, 1, __ATOMIC_RELAXED);
		return mode;
	}
	return 0;
}

void mmio_page_unmap(u64 page)
{
	bool traced;

	spin_lock(&regions_lock);
	mmio_region_hit(page, 0, &traced);
	if (traced)
		stage2_change(page, SZ_4K, STAGE2_ABSENT);
	spin_unlock(&regions_lock);
}
