/* SPDX-License-Identifier: GPL-2.0 */
/* tests/mem: one thread, no lock */
#ifndef HYP_SPINLOCK_H
#define HYP_SPINLOCK_H

struct spinlock {
	int unused;
};

static inline void spin_lock(struct spinlock *lock)
{
	(void)lock;
}

static inline void spin_unlock(struct spinlock *lock)
{
	(void)lock;
}

#endif /* HYP_SPINLOCK_H */
