/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hyptrace.ko internals: what each file offers the others.
 *
 *   main.c	finds the hypervisor, maps its carve-out, starts the front end
 *   hvc.c	issues one hypercall and turns its status into an errno
 *   buffer.c	loads the hypervisor's buffers and checks their descriptor
 *		(the front ends load the live one through source_live.c)
 *   source.h	a source of pages, the live buffer or the last boot's
 *   source_live.c	the live buffer's pages by reader-page swap, and
 *		who consumes which CPU
 *   raw.c	per_cpu/cpuN/trace_pipe_raw and stats of any source, and
 *		every per_cpu/cpuN directory's files
 *   page.c	starts walks of data pages (shared/rb_rec.h), reports damage
 *   clock.c	keeps the hypervisor's timestamps on CLOCK_BOOTTIME
 *   cpumap.c	checks that the hypervisor's CPU numbers are Linux's
 *   events.c	the events' names, fields, formats and printers, from
 *		shared/hyp_events.h
 *   last_boot.c	the previous boot's buffer (last_boot.h) as a
 *		read-only source, and the panic notifier
 *   hyp_log.c	the hypervisor's log: into dmesg at load, and its files
 *   mmio.c	the mmio file: device regions the hypervisor traces
 *   maint.c	the maint_window file: the TLBI and DC/IC by VA window
 *
 * and one of two front ends (frontend.h), chosen at build time (compat.h):
 *   remote.c	with trace_remote: its callbacks, the files under
 *		/sys/kernel/tracing/remotes/hypervisor/ (remote.h)
 *   remote_events.c	events.c's table as trace_remote takes it
 *   remote_readers.c	trace and trace_pipe copy the counters as they open
 *   shadow_set.c	the meta pages trace_remote reads, for both remotes
 *		(shadow.h); shadow.c the live buffer's counters in them
 *   fallback*.c without it: the same files in debugfs, under
 *		/sys/kernel/debug/hyptrace/ (fallback.c the control files,
 *		fallback_events.c events/, fallback_files.c a source's files,
 *		fallback_{pages,iter,pipe,trace}.c the text readers over
 *		either source)
 *   last_boot_remote.c, last_boot_fallback.c: the last boot's, read-only
 *
 * No file calls back into a file that calls it (scripts/check-circles.sh):
 * the core reaches the front end only through ht->fe, a front end's text
 * readers their owner only through struct fb_text_owner (fallback.h).
 */
#ifndef HYPTRACE_HOST_HYPTRACE_H
#define HYPTRACE_HOST_HYPTRACE_H

#include "hyptrace_abi_linux.h"

#include <linux/bits.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include "rb_rec.h"
#include "ring_buffer.h"
#include "trace_desc.h"

struct dentry;
struct file_operations;
struct hyptrace_frontend_ops;
struct trace_event_fields;
struct trace_seq;

/*
 * What discovery found, fixed once the module is loaded, and the buffer the
 * hypervisor currently has loaded. trace_remote serialises load, unload and
 * enable under its own mutex; @lock orders them against the raw files,
 * which outlive trace_remote's interest in a buffer: when trace_remote
 * unloads while a raw file is open, the hypervisor keeps the buffer until
 * the last one closes (@unload_deferred), and no new one can be loaded.
 * The fallback front end does all of it under @lock.
 */
struct hyptrace {
	phys_addr_t carveout_base;
	size_t carveout_size;
	void *carveout;			/* carveout_base, mapped write-back */
	unsigned int nr_cpus;		/* CPUs the hypervisor writes for */
	unsigned int abi_minor;
	/*
	 * The early buffer the hypervisor started at its boot
	 * (hyptrace.early=, TRACE_EARLY), until the first load adopts it:
	 * its events (bit n = id n) are the ones the front end shows on.
	 */
	bool early_pending;
	u64 early_events;
	unsigned long early_size;	/* bytes per CPU */

	struct mutex lock;
	struct rb_trace_desc *desc;	/* kernel VAs; NULL when unloaded */
	size_t desc_len;		/* bytes at @desc */
	bool unload_deferred;		/* trace_remote is done with @desc */
	unsigned int raw_open;		/* trace_pipe_raw files open */
	bool no_overwrite;		/* the next load drops newest events */
	bool remote_attached;		/* trace_remote holds our pointers */
	bool lost;			/* @desc unloaded by another caller */
	const struct hyptrace_frontend_ops *fe;	/* frontend.h */
};

/* hvc.c */

/* A bit per HYPTRACE_RET_* code that the caller reports itself. */
#define HYPTRACE_QUIET(ret)	BIT(-(ret))

int hyptrace_call(u32 fid, unsigned long a1, unsigned long a2,
		  unsigned long a3, unsigned long a4,
		  struct arm_smccc_res *res, unsigned long quiet);
int hyptrace_errno(long ret);

/* buffer.c */
struct rb_trace_desc *hyptrace_buffer_load_locked(struct hyptrace *ht,
						  unsigned long size);
void hyptrace_buffer_release(struct hyptrace *ht);
void hyptrace_buffer_unload(struct hyptrace *ht);
struct rb_desc_cpu *hyptrace_desc_cpu(struct hyptrace *ht, unsigned int cpu);
bool hyptrace_carveout_holds(const struct hyptrace *ht, u64 pa, u64 len);
int hyptrace_import_desc(const struct hyptrace *ht, struct rb_trace_desc *desc,
			 u64 len, const char *what);

/* @e's meta page, once buffer.c has pointed @e into the carve-out mapping */
static inline struct rb_meta *hyptrace_meta(const struct rb_desc_cpu *e)
{
	return (struct rb_meta *)(unsigned long)e->meta_va;
}

/* clock.c */
int hyptrace_clock_align(void);
int hyptrace_clock_start(void);
void hyptrace_clock_stop(void);
int hyptrace_tracing_enable(bool enable);

/* source_live.c: the live buffer's pages (source.h) */
int hyptrace_raw_init(struct hyptrace *ht);
struct rb_trace_desc *hyptrace_live_load_locked(struct hyptrace *ht,
						unsigned long size);
void hyptrace_raw_reset(unsigned int cpu);
bool hyptrace_raw_claim_tracefs(unsigned int cpu);
int hyptrace_raw_claim_raw(struct hyptrace *ht, unsigned int cpu);
struct mutex *hyptrace_cpu_lock(unsigned int cpu);
int hyptrace_raw_fill(struct hyptrace *ht, unsigned int cpu,
		      struct rb_data_page *dst);

/* files.c: write_event, trace_clock, overwrite (i_private: @ht) */
extern const struct file_operations hyptrace_write_event_fops;
extern const struct file_operations hyptrace_trace_clock_fops;
extern const struct file_operations hyptrace_overwrite_fops;
/* mmio.c: the traced device regions */
extern const struct file_operations hyptrace_mmio_fops;
/* maint.c: the maintenance window */
extern const struct file_operations hyptrace_maint_fops;

/*
 * hyp_log.c: the hypervisor's log into dmesg at load; the front end adds
 * hyp_log (i_private: HYPTRACE_HYP_LOG_THIS_BOOT) and hyp_log_last_boot
 * (HYPTRACE_HYP_LOG_LAST_BOOT) where hyptrace_hyp_log_has() says so.
 */
void hyptrace_hyp_log_init(const struct hyptrace *ht);
bool hyptrace_hyp_log_has(unsigned long which);
extern const struct file_operations hyptrace_hyp_log_fops;
#define HYPTRACE_HYP_LOG_PRIVATE(which)	((void *)(unsigned long)(which))

/* cpumap.c */
int hyptrace_check_cpu_map(struct hyptrace *ht);

/* page.c: walking data pages with the shared decoder (rb_rec.h) */
int hyptrace_page_init(unsigned int nr_cpus);
enum rb_page_fault hyptrace_walk_start(struct rb_walk *w, const void *data,
				       u64 commit, u64 ts);
int hyptrace_page_damaged(unsigned int cpu, const char *reader,
			  enum rb_page_fault fault, u32 off, u64 commit);
u64 hyptrace_page_damage(unsigned int cpu);
u64 hyptrace_page_events(const struct rb_data_page *page);
int hyptrace_page_guard(unsigned int cpu, const char *reader,
			struct rb_data_page *page);

/* events.c: one per entry of HYPTRACE_EVENTS, in id order */
struct hyptrace_event {
	const char *name;
	unsigned short id;
	struct trace_event_fields *fields;
	const char *print_fmt;
	void (*print)(void *evt, struct trace_seq *seq);
	size_t size;		/* of the payload, id included */
};

extern const struct hyptrace_event hyptrace_events[];
extern const size_t hyptrace_nr_events;
const struct hyptrace_event *hyptrace_find_event(unsigned short id);

#endif /* HYPTRACE_HOST_HYPTRACE_H */
