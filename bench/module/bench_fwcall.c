// SPDX-License-Identifier: GPL-2.0
/*
 * bench_fwcall: a decoded firmware call's round trip, for the firmware-call
 * rows of the bench (bench/guest/fwcall.sh).
 *
 *   echo 20000 > /sys/module/bench_fwcall/parameters/calls
 *   cat /sys/module/bench_fwcall/parameters/elapsed_ns
 *
 * Writing N makes N SMCCC_ARCH_FEATURES(SMCCC_VERSION) calls by HVC from
 * the writer's CPU with interrupts off and keeps the total time. The
 * hypervisor answers it itself (hyp/core/smccc.c) and records it as one
 * fw_arch event when that is on: no firmware is involved, so the loop
 * times the trap, the decoding and the event, not QEMU's firmware. With
 * fw_arch on and off, the difference is a decoded call's price; against
 * a hypervisor built with HYP_TRACE_SITES=0, what the sites cost off.
 * Under QEMU's -icount shift=0 a nanosecond is one guest instruction.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/arm-smccc.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "bench_time.h"

/* Interrupts stay off (see bench_time_loop()) */
#define BENCH_FWCALL_MAX_CALLS	100000U

static u64 elapsed_ns;
module_param(elapsed_ns, ullong, 0444);
MODULE_PARM_DESC(elapsed_ns, "total time of the last run, in ns");

static u64 features_call(void)
{
	struct arm_smccc_res res;

	arm_smccc_1_1_hvc(ARM_SMCCC_ARCH_FEATURES_FUNC_ID,
			  ARM_SMCCC_VERSION_FUNC_ID, &res);
	return res.a0;
}

static void features_call_timed(void *unused)
{
	features_call();
}

static int calls_set(const char *val, const struct kernel_param *kp)
{
	unsigned int calls;
	int ret;

	ret = kstrtouint(val, 0, &calls);
	if (ret)
		return ret;
	if (!calls || calls > BENCH_FWCALL_MAX_CALLS) {
		pr_err("calls=%u: want 1..%u\n", calls, BENCH_FWCALL_MAX_CALLS);
		return -EINVAL;
	}
	/* SMCCC_VERSION is implemented: 0, from a hypervisor that decodes */
	if (features_call()) {
		pr_err("ARCH_FEATURES(SMCCC_VERSION) by HVC is not answered 0\n");
		return -ENODEV;
	}
	elapsed_ns = bench_time_loop(calls, features_call_timed, NULL);
	return 0;
}

static const struct kernel_param_ops calls_ops = {
	.set = calls_set,
};
module_param_cb(calls, &calls_ops, NULL, 0200);
MODULE_PARM_DESC(calls, "write N: time N ARCH_FEATURES calls on this CPU");

MODULE_DESCRIPTION("hyptrace decoded firmware-call benchmark");
MODULE_LICENSE("GPL");
