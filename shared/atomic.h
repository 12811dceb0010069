/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few atomics the ring-buffer writer needs, nothing more.
 *
 * On the hypervisor (arm64, not HOST_TEST) they are inline assembly: the
 * compiler's __atomic builtins would turn into calls to libgcc's outline
 * atomics, which a freestanding EL2 image does not link. Compare-and-swap uses
 * LSE CASA when the target has it (-march=armv8.1-a or later) and an
 * LDAXR/STXR loop otherwise. Everywhere else (host tests, sanitizers, fuzzers)
 * they are the compiler builtins, which ThreadSanitizer understands.
 *
 * Only the orderings the writer's protocol relies on are offered: acquire
 * loads, release stores, relaxed ("once") stores, an acquire
 * compare-and-swap on 32-bit words and its 0 -> 1 special case.
 */
#ifndef HYPTRACE_SHARED_ATOMIC_H
#define HYPTRACE_SHARED_ATOMIC_H

#include "rb_types.h"

#if defined(__aarch64__) && !defined(HOST_TEST)

static inline u32 arch_load_acquire_u32(const u32 *p)
{
	u32 v;

	asm volatile("ldar %w0, %1" : "=r" (v) : "Q" (*p) : "memory");
	return v;
}

static inline u64 arch_load_acquire_u64(const u64 *p)
{
	u64 v;

	asm volatile("ldar %0, %1" : "=r" (v) : "Q" (*p) : "memory");
	return v;
}

/* "rZ": a constant 0 is stored from wzr, with no register set up for it */
static inline void arch_store_release_u32(u32 *p, u32 v)
{
	asm volatile("stlr %w1, %0" : "=Q" (*p) : "rZ" (v) : "memory");
}

static inline void arch_store_release_u64(u64 *p, u64 v)
{
	asm volatile("stlr %1, %0" : "=Q" (*p) : "r" (v) : "memory");
}

static inline void arch_store_once_u64(u64 *p, u64 v)
{
	asm volatile("str %1, %0" : "=Q" (*p) : "r" (v));
}

/*
 * Returns true if *p was @old and is now @new; acquire on success. The
 * answer comes straight from the condition flags, and a constant @old is an
 * immediate: this sits on every traced event.
 */
static inline bool arch_cmpxchg_acquire_u32(u32 *p, u32 old, u32 new)
{
	bool done;
#ifdef __ARM_FEATURE_ATOMICS
	u32 seen = old;

	asm volatile("casa %w0, %w2, %1"
		     : "+r" (seen), "+Q" (*p)
		     : "r" (new)
		     : "memory");
	done = seen == old;
#else
	u32 seen, fail;

	/* Flags are "eq" only when the compare matched and the store won. */
	asm volatile("1:	ldaxr	%w0, %2\n"
		     "	cmp	%w0, %w4\n"
		     "	b.ne	2f\n"
		     "	stxr	%w1, %w5, %2\n"
		     "	cbnz	%w1, 1b\n"
		     "2:"
		     : "=&r" (seen), "=&r" (fail), "+Q" (*p), "=@cceq" (done)
		     : "rI" (old), "r" (new)
		     : "memory");
#endif
	return done;
}

/*
 * *p from 0 to 1, acquire: true if this call did it. The writer's claim
 * of its own buffer on every event, so the shortest sequence there is: a
 * zero test instead of a compare with an immediate, and the caller's
 * branch is the asm's own.
 */
static inline bool arch_try_claim_u32(u32 *p)
{
#ifdef __ARM_FEATURE_ATOMICS
	u32 seen = 0;

	asm volatile("casa %w0, %w2, %1"
		     : "+r" (seen), "+Q" (*p)
		     : "r" (1)
		     : "memory");
	return !seen;
#else
	u32 tmp;

	asm goto("1:	ldaxr	%w0, %1\n"
		 "	cbnz	%w0, %l[taken]\n"
		 "	stxr	%w0, %w2, %1\n"
		 "	cbnz	%w0, 1b\n"
		 : "=&r" (tmp), "+Q" (*p)
		 : "r" (1)
		 : "memory"
		 : taken);
	return true;
taken:
	return false;
#endif
}

static inline void arch_cpu_relax(void)
{
	asm volatile("yield" ::: "memory");
}

#else /* host: compiler builtins */

static inline u32 arch_load_acquire_u32(const u32 *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline u64 arch_load_acquire_u64(const u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline void arch_store_release_u32(u32 *p, u32 v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static inline void arch_store_release_u64(u64 *p, u64 v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static inline void arch_store_once_u64(u64 *p, u64 v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

static inline bool arch_cmpxchg_acquire_u32(u32 *p, u32 old, u32 new)
{
	return __atomic_compare_exchange_n(p, &old, new, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline bool arch_try_claim_u32(u32 *p)
{
	return arch_cmpxchg_acquire_u32(p, 0, 1);
}

#ifdef HOST_TEST_YIELD
/*
 * Host threads, unlike hypervisor CPUs, can be preempted inside a short
 * critical section; a spinning peer then gives its time slice away.
 */
int sched_yield(void);
static inline void arch_cpu_relax(void)
{
	sched_yield();
}
#elif defined(__x86_64__)
static inline void arch_cpu_relax(void)
{
	__builtin_ia32_pause();
}
#else
static inline void arch_cpu_relax(void)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}
#endif

#endif

#endif /* HYPTRACE_SHARED_ATOMIC_H */
