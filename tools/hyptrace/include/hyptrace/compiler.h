/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few kernel idioms the tool's code uses, for user space: the same
 * spelling as in the kernel, so that the code reads the same on both sides.
 */
#ifndef HYPTRACE_TOOLS_COMPILER_H
#define HYPTRACE_TOOLS_COMPILER_H

#define __printf(a, b)		__attribute__((format(printf, a, b)))
#define ARRAY_SIZE(arr)		(sizeof(arr) / sizeof((arr)[0]))

#endif /* HYPTRACE_TOOLS_COMPILER_H */
