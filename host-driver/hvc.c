// SPDX-License-Identifier: GPL-2.0
/*
 * The one place that issues hyptrace's tracing hypercalls. A failure becomes
 * an errno the kernel can hand back to a tracefs write, plus one console line
 * naming the call and what the hypervisor said, so that a user who sees
 * "write error" has the cause next to it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/printk.h>

#include "hyptrace.h"

/* For messages: the call, by its number in the vendor hypervisor range */
static const char *const call_names[] = {
	[HYPTRACE_CALL_VERSION & SMCCC_FUNC_MASK] = "VERSION",
	[HYPTRACE_CALL_TRACE_QUERY & SMCCC_FUNC_MASK] = "TRACE_QUERY",
	[HYPTRACE_CALL_TRACE_LOAD & SMCCC_FUNC_MASK] = "TRACE_LOAD",
	[HYPTRACE_CALL_TRACE_UNLOAD & SMCCC_FUNC_MASK] = "TRACE_UNLOAD",
	[HYPTRACE_CALL_TRACE_ENABLE & SMCCC_FUNC_MASK] = "TRACE_ENABLE",
	[HYPTRACE_CALL_TRACE_SWAP_READER & SMCCC_FUNC_MASK] = "TRACE_SWAP_READER",
	[HYPTRACE_CALL_TRACE_RESET & SMCCC_FUNC_MASK] = "TRACE_RESET",
	[HYPTRACE_CALL_TRACE_ENABLE_EVENT & SMCCC_FUNC_MASK] = "TRACE_ENABLE_EVENT",
	[HYPTRACE_CALL_TRACE_UPDATE_CLOCK & SMCCC_FUNC_MASK] = "TRACE_UPDATE_CLOCK",
	[HYPTRACE_CALL_TRACE_WRITE_EVENT & SMCCC_FUNC_MASK] = "TRACE_WRITE_EVENT",
	[HYPTRACE_CALL_TRACE_HIDE_COUNTERS & SMCCC_FUNC_MASK] = "TRACE_HIDE_COUNTERS",
	[HYPTRACE_CALL_CPU_MPIDR & SMCCC_FUNC_MASK] = "CPU_MPIDR",
	[HYPTRACE_CALL_IMAGE_SUM & SMCCC_FUNC_MASK] = "IMAGE_SUM",
	[HYPTRACE_CALL_TRACE_EARLY & SMCCC_FUNC_MASK] = "TRACE_EARLY",
	[HYPTRACE_CALL_TRACE_LAST_BOOT & SMCCC_FUNC_MASK] = "TRACE_LAST_BOOT",
	[HYPTRACE_CALL_HOST_PANIC & SMCCC_FUNC_MASK] = "HOST_PANIC",
	[HYPTRACE_CALL_HYP_LOG & SMCCC_FUNC_MASK] = "HYP_LOG",
	[HYPTRACE_CALL_MMIO_REGION & SMCCC_FUNC_MASK] = "MMIO_REGION",
	[HYPTRACE_CALL_MMIO_QUERY & SMCCC_FUNC_MASK] = "MMIO_QUERY",
	[HYPTRACE_CALL_MAINT_WINDOW & SMCCC_FUNC_MASK] = "MAINT_WINDOW",
};

static const struct {
	long ret;
	int err;
	const char *name;
} rets[] = {
	{ HYPTRACE_RET_NOT_SUPPORTED,	-EOPNOTSUPP,	"NOT_SUPPORTED" },
	{ HYPTRACE_RET_INVALID,		-EINVAL,	"INVALID" },
	{ HYPTRACE_RET_NO_MEMORY,	-ENOMEM,	"NO_MEMORY" },
	{ HYPTRACE_RET_BUSY,		-EBUSY,		"BUSY" },
	{ HYPTRACE_RET_NOT_LOADED,	-ENODEV,	"NOT_LOADED" },
	{ HYPTRACE_RET_AGAIN,		-EAGAIN,	"AGAIN" },
	{ HYPTRACE_RET_CLOCK_STEP,	-ERANGE,	"CLOCK_STEP" },
	{ HYPTRACE_RET_UNREAD,		-ENOTEMPTY,	"UNREAD" },
	{ HYPTRACE_RET_DENIED,		-EPERM,		"DENIED" },
};

/* Anything the ABI does not define means the hypervisor is not one of ours. */
int hyptrace_errno(long ret)
{
	unsigned int i;

	if (ret == HYPTRACE_RET_SUCCESS)
		return 0;
	for (i = 0; i < ARRAY_SIZE(rets); i++) {
		if (rets[i].ret == ret)
			return rets[i].err;
	}
	return -EIO;
}

static const char *ret_name(long ret)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rets); i++) {
		if (rets[i].ret == ret)
			return rets[i].name;
	}
	return "an undefined status";
}

static const char *call_name(u32 fid)
{
	u32 n = fid & SMCCC_FUNC_MASK;

	if (n < ARRAY_SIZE(call_names) && call_names[n])
		return call_names[n];
	return "unknown call";
}

/*
 * Issue @fid with x1..x4 = @a1..@a4; x1..x3 of the answer land in @res when
 * it is not NULL. Returns 0 or the errno for the status in x0. Codes whose
 * HYPTRACE_QUIET() bit is in @quiet are returned without a message, for
 * callers that expect them or explain them better themselves.
 *
 * Safe in atomic context: swap_reader_page and reset run under a raw
 * spinlock, and the message is ratelimited so that a reader retrying in a
 * loop cannot flood the console.
 */
int hyptrace_call(u32 fid, unsigned long a1, unsigned long a2,
		  unsigned long a3, unsigned long a4,
		  struct arm_smccc_res *res, unsigned long quiet)
{
	struct arm_smccc_res local;
	long ret;
	int err;

	if (!res)
		res = &local;
	arm_smccc_1_1_hvc(fid, a1, a2, a3, a4, res);
	ret = (long)res->a0;
	err = hyptrace_errno(ret);
	if (!err)
		return 0;
	if (ret < 0 && ret >= -(long)(BITS_PER_LONG - 1) &&
	    (quiet & HYPTRACE_QUIET(ret)))
		return err;
	pr_err_ratelimited("%s(0x%lx, 0x%lx) failed: the hypervisor answered %s (%ld)\n",
			   call_name(fid), a1, a2, ret_name(ret), ret);
	return err;
}
