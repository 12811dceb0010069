// SPDX-License-Identifier: GPL-2.0
/*
 * bench_hvc: the null-hypercall round trip, for `make bench`.
 *
 *   echo 20000 > /sys/module/bench_hvc/parameters/calls
 *   cat /sys/module/bench_hvc/parameters/elapsed_ns
 *
 * Writing N makes N HYPTRACE_CALL_VERSION hypercalls from the writer's CPU
 * with interrupts off and keeps the total time in elapsed_ns. The call does
 * nothing but answer, so what the loop times is the trap into EL2, the
 * dispatch, the return, and whatever tracing adds around them: run it with
 * tracing off and with hyp_enter/hyp_exit on, and the difference is what
 * tracing one trap costs. Under QEMU's -icount shift=0 a nanosecond is one
 * guest instruction.
 *
 *   echo 5000 > /sys/module/bench_hvc/parameters/burst
 *   cat /sys/module/bench_hvc/parameters/func_id
 *
 * Writing N to burst makes N of the same calls, untimed and with interrupts
 * on: the cheap writer of the drain benchmarks, each call one hyp_enter and
 * one hyp_exit when those events are on, and nothing else. func_id is the
 * call's SMCCC function ID, as those events show it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "hyptrace_abi.h"

/* <linux/arm-smccc.h> spells the same SMCCC_RET_* codes its own way. */
#undef SMCCC_RET_SUCCESS
#undef SMCCC_RET_NOT_SUPPORTED
#undef SMCCC_RET_NOT_REQUIRED
#undef SMCCC_RET_INVALID_PARAMETER

#include <linux/arm-smccc.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>

#include "bench_time.h"

/* A timed run keeps interrupts off throughout (see bench_time_loop()). */
#define BENCH_HVC_MAX_CALLS	100000U

static u64 elapsed_ns;
module_param(elapsed_ns, ullong, 0444);
MODULE_PARM_DESC(elapsed_ns, "total time of the last run, in ns");

static unsigned int func_id = HYPTRACE_CALL_VERSION;
module_param(func_id, uint, 0444);
MODULE_PARM_DESC(func_id, "the SMCCC function ID of the null hypercall");

/* The hypervisor below has answered once: burst does not ask again. */
static bool hyptrace_seen;

static bool hyptrace_answers(void)
{
	struct arm_smccc_res res;

	arm_smccc_1_1_hvc(HYPTRACE_CALL_VERSION, &res);
	return res.a0 == HYPTRACE_RET_SUCCESS &&
	       res.a1 >> 16 == HYPTRACE_ABI_MAJOR;
}

/* @res: the caller's, outside the timed loop, as it is not what is timed */
static void null_call(void *res)
{
	arm_smccc_1_1_hvc(HYPTRACE_CALL_VERSION, (struct arm_smccc_res *)res);
}

/*
 * The calls of a burst, back to back. The interrupts the CPU takes meanwhile
 * stay at EL1; rescheduling is offered now and then, as a burst may be long.
 */
static void burst_null_calls(unsigned int calls)
{
	struct arm_smccc_res res;
	unsigned int i;

	for (i = 0; i < calls; i++) {
		arm_smccc_1_1_hvc(HYPTRACE_CALL_VERSION, &res);
		if (!(i % 1024))
			cond_resched();
	}
}

/*
 * Parse N of "calls" or "burst" and, if @ask, check that there is a
 * hyptrace hypervisor to call.
 */
static int parse_calls(const char *what, const char *val, unsigned int *calls,
		       bool ask)
{
	int ret;

	ret = kstrtouint(val, 0, calls);
	if (ret)
		return ret;
	if (!*calls || *calls > BENCH_HVC_MAX_CALLS) {
		pr_err("%s=%u: want 1..%u\n", what, *calls, BENCH_HVC_MAX_CALLS);
		return -EINVAL;
	}
	if (ask && !hyptrace_answers()) {
		pr_err("HYPTRACE_CALL_VERSION gets no hyptrace ABI %d answer: no hyptrace hypervisor below\n",
		       HYPTRACE_ABI_MAJOR);
		return -ENODEV;
	}
	return 0;
}

static int calls_set(const char *val, const struct kernel_param *kp)
{
	struct arm_smccc_res res;
	unsigned int calls;
	int ret;

	ret = parse_calls("calls", val, &calls, true);
	if (ret)
		return ret;
	elapsed_ns = bench_time_loop(calls, null_call, &res);
	return 0;
}

/*
 * Only the first burst asks whether the hypervisor answers (one more call,
 * and two more events if they are on): a writer makes a burst before it
 * turns tracing on, and then every event traced is one of its N calls.
 */
static int burst_set(const char *val, const struct kernel_param *kp)
{
	unsigned int calls;
	int ret;

	ret = parse_calls("burst", val, &calls, !hyptrace_seen);
	if (ret)
		return ret;
	hyptrace_seen = true;
	burst_null_calls(calls);
	return 0;
}

static const struct kernel_param_ops calls_ops = {
	.set = calls_set,
};
module_param_cb(calls, &calls_ops, NULL, 0200);
MODULE_PARM_DESC(calls, "write N: time N null hypercalls on this CPU");

static const struct kernel_param_ops burst_ops = {
	.set = burst_set,
};
module_param_cb(burst, &burst_ops, NULL, 0200);
MODULE_PARM_DESC(burst, "write N: make N null hypercalls on this CPU, untimed");

MODULE_DESCRIPTION("hyptrace null-hypercall benchmark");
MODULE_LICENSE("GPL");
