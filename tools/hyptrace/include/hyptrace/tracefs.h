/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers for tracefs control files: every failure comes back as one
 * line naming the file and the reason, for the caller to print.
 */
#ifndef HYPTRACE_TOOLS_TRACEFS_H
#define HYPTRACE_TOOLS_TRACEFS_H

#include <stddef.h>

#define TRACEFS_ROOT		"/sys/kernel/tracing"
#define TRACEFS_HYP_REMOTE	TRACEFS_ROOT "/remotes/hypervisor"
/* The same files, where the kernel has no trace_remote (hyptrace.ko) */
#define DEBUGFS_HYP		"/sys/kernel/debug/hyptrace"
/* The previous boot's buffer, read-only, after a warm reset (ABI 1.5) */
#define TRACEFS_HYP_LAST_BOOT	TRACEFS_ROOT "/remotes/hypervisor_last_boot"
#define DEBUGFS_HYP_LAST_BOOT	DEBUGFS_HYP "/last_boot"

/* One tracefs file's text, read whole. */
struct tfs_text {
	char *text;
	size_t len;
};

/* Write @val to @dir/@file. 0, or -1 with the reason in @err. */
int tracefs_write(const char *dir, const char *file, const char *val,
	      char *err, size_t errlen);

/* Read @dir/@file whole into @out (freed by the caller). 0 or -1. */
int tracefs_read(const char *dir, const char *file, struct tfs_text *out,
	     char *err, size_t errlen);

/* The number after "@key: " in @dir/@file (a stats file), or 0. */
unsigned long long tracefs_stat(const char *dir, const char *file,
			    const char *key);

/* Whether @dir/@file exists. */
int tracefs_exists(const char *dir, const char *file);

/*
 * The hypervisor's files: the trace_remote remote, or else the module's own
 * copy in debugfs; NULL when neither is there.
 */
const char *tracefs_hyp_dir(void);
/* The last boot's directory, or NULL if there is no last boot */
const char *tracefs_last_boot_dir(void);

#endif /* HYPTRACE_TOOLS_TRACEFS_H */
