/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hyptrace_abi.h for Linux modules (hyptrace.ko and the test modules),
 * beside <linux/arm-smccc.h>. That header defines the same SMCCC_RET_*
 * codes as ours, spelt without parentheses: ours go, so the two do not
 * clash. The values are equal, so HYPTRACE_RET_* keep their meaning.
 */
#ifndef HYPTRACE_SHARED_ABI_LINUX_H
#define HYPTRACE_SHARED_ABI_LINUX_H

#include "hyptrace_abi.h"

#undef SMCCC_RET_SUCCESS
#undef SMCCC_RET_NOT_SUPPORTED
#undef SMCCC_RET_NOT_REQUIRED
#undef SMCCC_RET_INVALID_PARAMETER

#include <linux/arm-smccc.h>

#endif /* HYPTRACE_SHARED_ABI_LINUX_H */
