/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A crew: one kthread per online CPU, started together and waited for
 * together (hvc_fuzz, carveout_scribble). The last member to finish wakes
 * the waiter; each then stays until kthread_stop(), which wants the thread
 * alive when it is called.
 */
#ifndef HYPTRACE_TESTS_CREW_H
#define HYPTRACE_TESTS_CREW_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/sched.h>

struct crew {
	atomic_t running;
	struct completion all_done;
};

static inline void crew_init(struct crew *crew)
{
	atomic_set(&crew->running, num_online_cpus());
	init_completion(&crew->all_done);
}

/* A member is done, or will never start (its kthread was not created) */
static inline void crew_member_done(struct crew *crew)
{
	if (atomic_dec_and_test(&crew->running))
		complete(&crew->all_done);
}

/* A member's thread function ends with this */
static inline int crew_member_exit(struct crew *crew)
{
	crew_member_done(crew);
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

static inline void crew_wait(struct crew *crew)
{
	wait_for_completion(&crew->all_done);
}

#endif /* HYPTRACE_TESTS_CREW_H */
