/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few kernel interfaces that moved between 6.1 LTS and 7.x, spelt once
 * so that the rest of the module reads as code for the newest kernel.
 * Headers are told apart by __has_include, functions by version.
 */
#ifndef HYPTRACE_HOST_COMPAT_H
#define HYPTRACE_HOST_COMPAT_H

#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/splice.h>
#include <linux/version.h>

/* <asm/unaligned.h> became <linux/unaligned.h> in 6.12 */
#if __has_include("linux/unaligned.h")
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/* COUNT_ARGS() and CONCATENATE() left <linux/kernel.h> for this in 6.7 */
#if __has_include("linux/args.h")
#include <linux/args.h>
#endif

/* abs_diff() came to <linux/math.h> in 6.6 */
#ifndef abs_diff
#define abs_diff(a, b)		((a) > (b) ? (a) - (b) : (b) - (a))
#endif

/* kzalloc_obj() is 7.0's; before it, the sizeof was spelt out */
#ifndef kzalloc_obj
#define kzalloc_obj(obj)	kzalloc(sizeof(obj), GFP_KERNEL)
#endif

/*
 * splice() from a file that only has ->read_iter: copy_splice_read() since
 * 6.5, which generic_file_splice_read() did for such files before it.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#define hyptrace_splice_read	copy_splice_read
#else
#define hyptrace_splice_read	generic_file_splice_read
#endif

/*
 * The front end (frontend.h): trace_remote's remotes where the kernel has
 * them (7.1 on, when configured), else the module's own files in debugfs.
 * Kbuild links the one named here, and says which (HYPTRACE_TRACE_REMOTE).
 */
#ifdef HYPTRACE_TRACE_REMOTE
#define HYPTRACE_FRONTEND	(&hyptrace_remote_frontend)
#else
#define HYPTRACE_FRONTEND	(&hyptrace_debugfs_frontend)
#endif

#endif /* HYPTRACE_HOST_COMPAT_H */
