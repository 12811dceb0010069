/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hyptrace.ko internals: what each file offers the others.
 *
 *   main.c	finds the hypervisor, maps its carve-out, registers the remote
 *   hvc.c	issues one hypercall and turns its status into an errno
 *   buffer.c	turns the hypervisor's buffer descriptor into the kernel's
 *   remote.c	the trace_remote callbacks and the extra tracefs files
 *   raw.c	per_cpu/cpuN/trace_pipe_raw and stats: whole pages, and who
 *		consumes which CPU
 *   clock.c	keeps the hypervisor's timestamps on CLOCK_BOOTTIME
 *   events.c	the struct remote_event array, from shared/hyp_events.h
 *   cpumap.c	checks that the hypervisor's CPU numbers are Linux's
 */
#ifndef HYPTRACE_HOST_HYPTRACE_H
#define HYPTRACE_HOST_HYPTRACE_H

#include "hyptrace_abi.h"

/*
 * <linux/arm-smccc.h> defines the same SMCCC_RET_* codes as the shared
 * header, spelt without parentheses; drop ours so the two do not clash. The
 * values are equal, so HYPTRACE_RET_* keep their meaning.
 */
#undef SMCCC_RET_SUCCESS
#undef SMCCC_RET_NOT_SUPPORTED
#undef SMCCC_RET_NOT_REQUIRED
#undef SMCCC_RET_INVALID_PARAMETER

#include <linux/arm-smccc.h>
#include <linux/bits.h>
#include <linux/mutex.h>
#include <linux/trace_remote_event.h>
#include <linux/types.h>

struct dentry;
struct trace_buffer_desc;
struct trace_remote_callbacks;

/*
 * What discovery found, fixed once the module is loaded, and the buffer the
 * hypervisor currently has loaded. trace_remote serialises load, unload and
 * enable under its own mutex; @lock orders them against the raw files,
 * which outlive trace_remote's interest in a buffer: when trace_remote
 * unloads while a raw file is open, the hypervisor keeps the buffer until
 * the last one closes (@unload_deferred), and no new one can be loaded.
 */
struct hyptrace {
	phys_addr_t carveout_base;
	size_t carveout_size;
	void *carveout;			/* carveout_base, mapped write-back */
	unsigned int nr_cpus;		/* CPUs the hypervisor writes for */
	unsigned int abi_minor;

	struct mutex lock;
	struct trace_buffer_desc *desc;	/* kernel VAs; NULL when unloaded */
	bool unload_deferred;		/* trace_remote is done with @desc */
	unsigned int raw_open;		/* trace_pipe_raw files open */
	bool no_overwrite;		/* the next load drops newest events */
	bool remote_attached;		/* trace_remote holds our pointers */
};

/* hvc.c */

/* A bit per HYPTRACE_RET_* code that the caller reports itself. */
#define HYPTRACE_QUIET(ret)	BIT(-(ret))

int hyptrace_call(u32 fid, unsigned long a1, unsigned long a2,
		  unsigned long a3, unsigned long a4,
		  struct arm_smccc_res *res, unsigned long quiet);
int hyptrace_errno(long ret);

/* buffer.c */
struct trace_buffer_desc *hyptrace_buffer_load(struct hyptrace *ht,
					       unsigned long size);
void hyptrace_buffer_release(struct hyptrace *ht);
void hyptrace_buffer_unload(struct hyptrace *ht);

/* clock.c */
int hyptrace_clock_start(void);
void hyptrace_clock_stop(void);

/* raw.c */
int hyptrace_raw_init(struct hyptrace *ht);
int hyptrace_raw_create_files(struct hyptrace *ht, struct dentry *remote);
void hyptrace_raw_loaded(struct hyptrace *ht);
void hyptrace_raw_reset(unsigned int cpu);
bool hyptrace_raw_claim_tracefs(unsigned int cpu);

/* remote.c */
extern struct trace_remote_callbacks hyptrace_remote_callbacks;

/* cpumap.c */
int hyptrace_check_cpu_map(struct hyptrace *ht);

/* events.c */
extern struct remote_event hyptrace_events[];
extern const size_t hyptrace_nr_events;

#endif /* HYPTRACE_HOST_HYPTRACE_H */
