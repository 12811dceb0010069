/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The timing loop of the bench modules (bench_hvc, bench_mmio,
 * bench_fwcall): one implementation of "do this N times with interrupts
 * off and tell the time", so that every row's loop is the same loop.
 */
#ifndef BENCH_TIME_H
#define BENCH_TIME_H

#include <linux/compiler.h>
#include <linux/irqflags.h>
#include <linux/timekeeping.h>
#include <linux/types.h>

/**
 * bench_time_loop() - time @n back-to-back calls of @op
 * @n:   how many times to call @op
 * @op:  the operation measured; a static function named at the call site
 * @arg: passed to @op
 *
 * Interrupts stay off throughout, so that nothing but @op lands between
 * the two clock reads: the callers keep @n small enough (a few hundred
 * instructions a call, at most 100000 calls) for that to be well under
 * 100 ms of virtual time. Always inlined, so that @op, a constant at each
 * call site, is inlined into the loop as well and the loop times @op
 * itself, not an indirect call around it.
 *
 * Return: the time the @n calls took, in ns (instructions under -icount).
 */
static __always_inline u64 bench_time_loop(unsigned int n,
					   void (*op)(void *arg), void *arg)
{
	unsigned long flags;
	unsigned int i;
	u64 start, end;

	local_irq_save(flags);
	start = ktime_get_ns();
	for (i = 0; i < n; i++)
		op(arg);
	end = ktime_get_ns();
	local_irq_restore(flags);
	return end - start;
}

#endif /* BENCH_TIME_H */
