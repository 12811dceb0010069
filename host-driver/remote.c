// SPDX-License-Identifier: GPL-2.0
/*
 * The front end for kernels with CONFIG_TRACE_REMOTE: the remote
 * remotes/hypervisor/ in tracefs. Here are the trace_remote callbacks, each
 * one hypercall, the two files pKVM's hypervisor remote adds: write_event,
 * for the ftrace selftests, and trace_clock, which tells readers what the
 * timestamps are; overwrite, which picks what a full buffer loses, and the
 * per-CPU raw files (raw.c), which share the CPUs with trace_remote's reader
 * one consumer per CPU.
 *
 * trace_remote calls load, unload, enable_tracing and enable_event under its
 * mutex, and swap_reader_page and reset under a raw spinlock with interrupts
 * off: those two must not sleep, which a hypercall does not.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/build_bug.h>
#include <linux/cleanup.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/namei.h>
#include <linux/ring_buffer.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/trace_remote.h>
#include <linux/trace_remote_event.h>
#include <linux/tracefs.h>
#include <uapi/linux/trace_mmap.h>

#include "frontend.h"
#include "hyptrace.h"
#include "hyp_events.h"
#include "hyptrace_version.h"
#include "last_boot.h"
#include "remote.h"
#include "shadow.h"
#include "source.h"

/* The kernel reads our descriptor as its own: the layouts must be one. */
static_assert(sizeof(struct rb_trace_desc) == sizeof(struct trace_buffer_desc));
static_assert(offsetof(struct rb_trace_desc, nr_cpus) ==
	      offsetof(struct trace_buffer_desc, nr_cpus));
static_assert(offsetof(struct rb_trace_desc, struct_len) ==
	      offsetof(struct trace_buffer_desc, struct_len));
static_assert(offsetof(struct rb_trace_desc, data) ==
	      offsetof(struct trace_buffer_desc, __data));
static_assert(sizeof(struct rb_desc_cpu) == sizeof(struct ring_buffer_desc));
static_assert(offsetof(struct rb_desc_cpu, cpu) ==
	      offsetof(struct ring_buffer_desc, cpu));
static_assert(offsetof(struct rb_desc_cpu, nr_page_va) ==
	      offsetof(struct ring_buffer_desc, nr_page_va));
static_assert(offsetof(struct rb_desc_cpu, meta_va) ==
	      offsetof(struct ring_buffer_desc, meta_va));
static_assert(offsetof(struct rb_desc_cpu, page_va) ==
	      offsetof(struct ring_buffer_desc, page_va));
static_assert(sizeof_field(struct rb_desc_cpu, meta_va) ==
	      sizeof_field(struct ring_buffer_desc, meta_va));

/* ... and so must the pages the hypervisor writes and the kernel reads. */
static_assert(sizeof(struct rb_meta) == sizeof(struct trace_buffer_meta));
static_assert(offsetof(struct rb_meta, reader.id) ==
	      offsetof(struct trace_buffer_meta, reader.id));
static_assert(offsetof(struct rb_meta, entries) ==
	      offsetof(struct trace_buffer_meta, entries));
static_assert(RB_PAGE_SIZE == PAGE_SIZE);
static_assert(RB_PAGE_HDR_SIZE == BUF_PAGE_HDR_SIZE);

/* The remote writes the payload structs, the kernel reads the id at 0. */
static_assert(sizeof(struct hyp_event_hdr) == sizeof(struct remote_event_hdr));
static_assert(offsetof(struct hyp_event_hdr, id) ==
	      offsetof(struct remote_event_hdr, id));

/* events.c's table as trace_remote takes it; it writes .remote, .enabled */
static struct remote_event remote_events[HYP_NR_EVENTS];

/*
 * The buffer was unloaded behind our back: another EL1 caller (a fuzzer, a
 * second driver) made TRACE_UNLOAD, and every later swap, reset or enable
 * answers NOT_LOADED. What was read stays read; trace_remote's shadows
 * (shadow.c) stop promising more, so that off, clear and on start over.
 */
static void hyptrace_buffer_lost(struct hyptrace *ht)
{
	if (!xchg(&ht->lost, true))
		pr_err("the hypervisor's buffer was unloaded by another caller: the rest of it is lost; write 0 to tracing_on and to trace, then 1 to tracing_on, to start over\n");
	hyptrace_shadow_lost();
}

static struct trace_buffer_desc *hyptrace_load(unsigned long size, void *priv)
{
	struct hyptrace *ht = priv;
	struct rb_trace_desc *desc, *shadowed;

	mutex_lock(&ht->lock);
	desc = hyptrace_live_load_locked(ht, size);
	if (!IS_ERR(desc)) {
		shadowed = hyptrace_shadow_alloc(desc, ht->desc_len);
		if (!shadowed) {
			hyptrace_buffer_unload(ht);
			desc = ERR_PTR(-ENOMEM);
		} else {
			desc = shadowed;
		}
	}
	mutex_unlock(&ht->lock);
	return (struct trace_buffer_desc *)desc;
}

static void hyptrace_unload(struct trace_buffer_desc *desc, void *priv)
{
	struct hyptrace *ht = priv;

	hyptrace_shadow_free();
	hyptrace_buffer_release(ht);
}

static int hyptrace_enable_tracing(bool enable, void *priv)
{
	struct hyptrace *ht = priv;
	int ret;

	ret = hyptrace_tracing_enable(enable);
	/* No writer now: the pages trace walks in place can be checked */
	if (!enable && !ret)
		hyptrace_shadow_guard_all();
	/* trace_remote reads the counters next, to see what is left */
	hyptrace_shadow_refresh();
	if (ret == -ENODEV) {
		hyptrace_buffer_lost(ht);
		/* Off is off: let trace_remote unload what is left */
		if (!enable)
			ret = 0;
	}
	return ret;
}

static int hyptrace_swap_one(unsigned int cpu)
{
	/* AGAIN is routine here, and the ring buffer says so itself */
	return hyptrace_call(HYPTRACE_CALL_TRACE_SWAP_READER, cpu, 0, 0, 0,
			     NULL, HYPTRACE_QUIET(HYPTRACE_RET_AGAIN) |
			     HYPTRACE_QUIET(HYPTRACE_RET_NOT_LOADED));
}

static int hyptrace_swap_reader_page(unsigned int cpu, void *priv)
{
	int ret;

	/* A CPU the raw files consume has no page for trace_pipe (raw.c) */
	if (!hyptrace_raw_claim_tracefs(cpu))
		return -EBUSY;
	ret = hyptrace_shadow_swap(cpu, hyptrace_swap_one);
	if (ret == -ENODEV)
		hyptrace_buffer_lost(priv);
	return ret;
}

static int hyptrace_reset(unsigned int cpu, void *priv)
{
	struct hyptrace *ht = priv;
	int ret;

	ret = hyptrace_call(HYPTRACE_CALL_TRACE_RESET, cpu, 0, 0, 0, NULL,
			    HYPTRACE_QUIET(HYPTRACE_RET_NOT_LOADED));
	if (ret == -ENODEV) {
		hyptrace_buffer_lost(ht);
		ret = 0;
	}
	if (!ret) {
		hyptrace_shadow_reset(cpu);
		hyptrace_raw_reset(cpu);
	}
	return ret;
}

static int hyptrace_enable_event(unsigned short id, bool enable, void *priv)
{
	return hyptrace_call(HYPTRACE_CALL_TRACE_ENABLE_EVENT, id, enable, 0, 0,
			     NULL, 0);
}

/*
 * The per_cpu/cpuN directory trace_remote made for @sc's CPU, for the raw
 * files: tracefs offers modules no way to make directories, but a file may
 * go into any of them. NULL when there is none (not a possible CPU).
 */
static struct dentry *remote_cpu_dir(struct dentry *remote,
				     struct hyptrace_src_cpu *sc)
{
	struct dentry *per_cpu, *dir;
	char name[16];

	per_cpu = lookup_noperm_positive_unlocked(&QSTR("per_cpu"), remote);
	if (IS_ERR(per_cpu))
		return per_cpu;
	snprintf(name, sizeof(name), "cpu%d", sc->cpu);
	dir = lookup_noperm_positive_unlocked(&QSTR(name), per_cpu);
	dput(per_cpu);
	return IS_ERR(dir) ? NULL : dir;
}

static void remote_put_dir(struct dentry *dir)
{
	dput(dir);
}

static int remote_create_file(const char *name, umode_t mode,
			      struct dentry *parent, void *data,
			      const struct file_operations *fops)
{
	return tracefs_create_file(name, mode, parent, data, fops) ? 0 :
	       -ENOMEM;
}

static int hyptrace_init_tracefs(struct dentry *d, void *priv)
{
	struct hyptrace *ht = priv;
	int ret;

	/* From here on trace_remote keeps pointers to us even on failure */
	ht->remote_attached = true;
	if (!tracefs_create_file("write_event", 0200, d, NULL,
				 &hyptrace_write_event_fops))
		return -ENOMEM;
	if (!tracefs_create_file("trace_clock", 0440, d, NULL,
				 &hyptrace_trace_clock_fops))
		return -ENOMEM;
	if (!tracefs_create_file("overwrite", 0640, d, ht, &hyptrace_overwrite_fops))
		return -ENOMEM;
	if (!tracefs_create_file("mmio", 0640, d, NULL, &hyptrace_mmio_fops))
		return -ENOMEM;
	if (!tracefs_create_file("maint_window", 0640, d, NULL,
				 &hyptrace_maint_fops))
		return -ENOMEM;
	if (hyptrace_hyp_log_has(HYPTRACE_HYP_LOG_THIS_BOOT) &&
	    !tracefs_create_file("hyp_log", 0440, d,
				 HYPTRACE_HYP_LOG_PRIVATE(HYPTRACE_HYP_LOG_THIS_BOOT),
				 &hyptrace_hyp_log_fops))
		return -ENOMEM;
	if (hyptrace_hyp_log_has(HYPTRACE_HYP_LOG_LAST_BOOT) &&
	    !tracefs_create_file("hyp_log_last_boot", 0440, d,
				 HYPTRACE_HYP_LOG_PRIVATE(HYPTRACE_HYP_LOG_LAST_BOOT),
				 &hyptrace_hyp_log_fops))
		return -ENOMEM;
	ret = hyptrace_cpu_files(&hyptrace_remote_frontend, d,
				 hyptrace_live_source());
	if (!ret && hyptrace_remote_hook_readers(d, ht->nr_cpus))
		pr_warn("trace and trace_pipe do not copy the counters when they open: events written just before may show a poll period late\n");
	return ret;
}

static struct trace_remote_callbacks hyptrace_remote_callbacks = {
	.init			= hyptrace_init_tracefs,
	.load_trace_buffer	= hyptrace_load,
	.unload_trace_buffer	= hyptrace_unload,
	.enable_tracing		= hyptrace_enable_tracing,
	.swap_reader_page	= hyptrace_swap_reader_page,
	.reset			= hyptrace_reset,
	.enable_event		= hyptrace_enable_event,
};

/*
 * A raw file of @cpu opens: the buffer trace_remote loaded must still be
 * there, and the CPU must not be trace_pipe's.
 */
static int remote_raw_attach(struct hyptrace *ht, unsigned int cpu)
{
	lockdep_assert_held(&ht->lock);
	if (!ht->desc || ht->unload_deferred) {
		pr_info_ratelimited("trace_pipe_raw of CPU %u: no buffer is loaded (write 1 to tracing_on first)\n",
				    cpu);
		return -ENODATA;
	}
	return hyptrace_raw_claim_raw(ht, cpu);
}

/* The last raw file closed after trace_remote let the buffer go: unload */
static void remote_raw_detach(struct hyptrace *ht)
{
	lockdep_assert_held(&ht->lock);
	if (!ht->raw_open && ht->unload_deferred)
		hyptrace_buffer_unload(ht);
}

/* Where tracefs is mounted, the usual place first */
static const char *const remote_trace_pipe[] = {
	"/sys/kernel/tracing/remotes/hypervisor/trace_pipe",
	"/sys/kernel/debug/tracing/remotes/hypervisor/trace_pipe",
};

/*
 * trace_remote loads a buffer only for tracing_on or a reader, and its
 * trace file shows nothing until then; the early buffer must be there for
 * the first read. Opening trace_pipe loads it (the load callback adopts
 * it, buffer.c) and closing it leaves it loaded, as it holds events: the
 * one way in for a module, which cannot reach trace_remote's state. It
 * needs tracefs mounted; without, the first reader or tracing_on adopts.
 */
static void remote_adopt(struct hyptrace *ht)
{
	struct file *f = ERR_PTR(-ENOENT);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(remote_trace_pipe) && IS_ERR(f); i++)
		f = filp_open(remote_trace_pipe[i], O_RDONLY | O_NONBLOCK, 0);
	if (IS_ERR(f)) {
		pr_info("early buffer: tracefs is not mounted (%ld); the first reader of remotes/hypervisor/trace_pipe, or tracing_on, takes it\n",
			PTR_ERR(f));
		return;
	}
	filp_close(f, NULL);
}

static int remote_init(struct hyptrace *ht)
{
	int ret;

	/* On from the hypervisor's boot (main.c, disable_events()) */
	hyptrace_remote_events_fill(remote_events, ht->early_events);
	ret = trace_remote_register("hypervisor", &hyptrace_remote_callbacks,
				    ht, remote_events, HYP_NR_EVENTS);
	if (ret && !ht->remote_attached && ret == -ENOMEM) {
		/* Nothing in tracefs points at us: the load can fail */
		pr_err("cannot create remotes/hypervisor in tracefs (%d)\n",
		       ret);
		return ret;
	}
	if (ret) {
		/*
		 * trace_remote leaves a half-made remote holding our
		 * callbacks: unloading the module would leave it pointing
		 * at freed code.
		 */
		pr_err("remotes/hypervisor is incomplete (%d); the module stays loaded\n",
		       ret);
		return 0;
	}
	pr_info("version %s, hypervisor ABI %u.%u, %u CPUs, carve-out %pa, %zu MiB: /sys/kernel/tracing/remotes/hypervisor\n",
		HYPTRACE_VERSION, HYPTRACE_ABI_MAJOR, ht->abi_minor, ht->nr_cpus,
		&ht->carveout_base, ht->carveout_size >> 20);
	return 0;
}

/* A raw CPU's pages come straight from the hypervisor (hyptrace_raw_fill) */
const struct hyptrace_frontend_ops hyptrace_remote_frontend = {
	.init		= remote_init,
	.adopt		= remote_adopt,
	.show_last_boot	= remote_show_last_boot,
	.raw_attach	= remote_raw_attach,
	.raw_detach	= remote_raw_detach,
	.raw_page	= hyptrace_raw_fill,
	.cpu_dir	= remote_cpu_dir,
	.put_dir	= remote_put_dir,
	.create_file	= remote_create_file,
	.claims_cpus	= true,
};
