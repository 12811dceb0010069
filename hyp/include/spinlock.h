/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A ticket lock: fair, tiny, and all the hypervisor needs. Only used with
 * the MMU on, because exclusives are not guaranteed on Device memory.
 */
#ifndef HYP_SPINLOCK_H
#define HYP_SPINLOCK_H

#include "types.h"

struct spinlock {
	u32 next;
	u32 owner;
};

static inline void spin_lock(struct spinlock *lock)
{
	u32 ticket = __atomic_fetch_add(&lock->next, 1, __ATOMIC_RELAXED);

	while (__atomic_load_n(&lock->owner, __ATOMIC_ACQUIRE) != ticket)
		asm volatile("yield");
}

static inline void spin_unlock(struct spinlock *lock)
{
	__atomic_store_n(&lock->owner, lock->owner + 1, __ATOMIC_RELEASE);
}

#endif /* HYP_SPINLOCK_H */
