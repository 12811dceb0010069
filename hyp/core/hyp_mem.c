// SPDX-License-Identifier: GPL-2.0
/*
 * The hypervisor's private memory: the rest of its 2 MiB region after the
 * image. The image holds code and small state only; what grows with the
 * machine (a stack per CPU, page tables) is taken from here at boot, and
 * what grows with the trace (the writer's per-page bookkeeping) when the
 * host loads a buffer, sized to that buffer, and given back at unload.
 * Stage 2 hides the whole region from the host, so nothing here can be
 * reached from EL1.
 *
 * The allocator is a stack: memory is taken at the top and given back to a
 * mark. There are only two lifetimes, "until reset" and "while a trace
 * buffer is loaded", and the second is always the most recent. Memory that
 * is not in use carries the canary pattern (canary.c), so a stray write into
 * it, by a DMA master stage 2 does not see or by the hypervisor itself,
 * shows at shutdown.
 */
#include <string.h>
#include "canary.h"
#include "hyp_layout.h"
#include "hyp_mem.h"
#include "panic.h"

static u64 mem_top;		/* first free byte */
static u64 mem_high;		/* the highest mem_top has been */
/* The boot stack (head.S) until the boot CPU has its own, then the log */
static u64 mem_end;

/* The bottom of the log (hyp_log.c): the top of the boot stack */
static u64 log_base(void)
{
	return hyp_layout.hyp_base + HYP_REGION_SIZE - HYP_PERSIST_SIZE -
	       HYP_LOG_SIZE;
}

/* MMU off, boot CPU, on the boot stack: before anything is allocated */
void hyp_mem_init(void)
{
	mem_top = ALIGN_UP((u64)__hyp_end, SZ_4K);
	mem_high = mem_top;
	mem_end = log_base() - HYP_BOOT_STACK_SIZE;
	canary_fill_range(mem_end, mem_end + HYP_BOOT_STACK_GUARD);
}

/*
 * MMU on, boot CPU, on its own stack: the boot stack is dead, and its
 * memory free. A guard no longer intact means the boot path went deeper
 * than HYP_BOOT_STACK_SIZE, into the free memory below (what is allocated
 * lies far lower): said at once, before a deeper one reaches that.
 */
void hyp_mem_boot_stack_done(void)
{
	u64 bad;

	if (!canary_intact_range(mem_end, mem_end + HYP_BOOT_STACK_GUARD, &bad))
		hyp_panic("the boot stack outgrew its %u KiB: 0x%lx written",
			  HYP_BOOT_STACK_SIZE >> 10, bad);
	mem_end = log_base();
}

u64 hyp_mem_mark(void)
{
	return mem_top;
}

/* head.S: the top of what may be allocated, the boot stack's bottom */
u64 hyp_mem_end(void)
{
	return mem_end;
}

/*
 * Everything ever allocated lies below this: head.S invalidates up to it
 * what the boot CPU wrote with its MMU off, however the mark moved since
 */
u64 hyp_mem_high_water(void)
{
	return mem_high;
}

/*
 * @size bytes, zeroed, aligned to @align (a power of two, at least a page),
 * or NULL if the region has no such room. Callers serialise: the boot CPU
 * alone at boot, the trace lock afterwards.
 */
void *hyp_mem_alloc(u64 size, u64 align)
{
	u64 base = ALIGN_UP(mem_top, max(align, SZ_4K));
	u64 end = base + ALIGN_UP(size, SZ_4K);

	if (end < base || end > mem_end)
		return NULL;
	memset((void *)base, 0, end - base);
	mem_top = end;
	if (end > mem_high)
		mem_high = end;
	return (void *)base;
}

/* At boot, running out is a build or configuration error */
void *hyp_mem_alloc_boot(u64 size, u64 align, const char *what)
{
	void *p = hyp_mem_alloc(size, align);

	if (!p)
		hyp_panic("no room for %s (%lu bytes) in the hypervisor's region, %lu bytes left",
			  what, size, mem_end - mem_top);
	return p;
}

/* Give back everything allocated since hyp_mem_mark() returned @mark */
void hyp_mem_free_to(u64 mark)
{
	if (mark > mem_top || mark < ALIGN_UP((u64)__hyp_end, SZ_4K))
		hyp_panic("%s(0x%lx): top is 0x%lx", __func__, mark, mem_top);
	canary_fill_range(mark, mem_top);
	mem_top = mark;
}

/* The free memory, all of it, carries the canary pattern (canary.c) */
void hyp_mem_canary_fill(void)
{
	canary_fill_range(mem_top, mem_end);
}

/* Whether the free memory still carries it; if not, the first bad word */
bool hyp_mem_canary_intact(u64 *bad_addr)
{
	return canary_intact_range(mem_top, mem_end, bad_addr);
}
