// SPDX-License-Identifier: GPL-2.0
/*
 * The last boot's buffer as a second trace_remote, remotes/
 * hypervisor_last_boot/, read-only:
 *
 *   tracing_on		reads 0; writing 1 fails with EROFS
 *   trace, trace_pipe, per_cpu/cpuN/{trace,trace_pipe}
 *			trace_remote's own readers, as for the live remote;
 *			trace_pipe consumes (each page it finishes is handed
 *			on by TRACE_LAST_BOOT SWAP), trace does not
 *   trace (write)	changes nothing: the events stay (trace_remote
 *			ignores what reset answers; the reset callback only
 *			keeps the reader's count right)
 *   events/		the live remote's events; enabling one fails with
 *			EROFS, they are all shown
 *   per_cpu/cpuN/trace_pipe_raw, per_cpu/cpuN/stats
 *			raw.c's, over last_boot.c's source
 *   release, trace_clock	last_boot.c's, files.c's
 *
 * As for the live buffer (shadow.c), trace_remote never reads the shared
 * meta pages: it gets a descriptor whose meta pages are the module's
 * (shadow_set.c), and
 * every value in them is one the module worked out or checked. The counts
 * are the module's own count of the kept pages' events (last_boot.c), so
 * that the reader stops asking for pages exactly when the kept ones are
 * read; a swap takes the hypervisor's new reader.id only if it is the next
 * kept page. Nothing else changes: no writer runs.
 *
 * trace_remote loads a buffer for a reader or tracing_on only, and its
 * trace file shows nothing until then; so registering opens trace_pipe
 * once, which loads it. It stays loaded while it holds events, i.e. until
 * trace_pipe has read them all. A later load (after that, or a failed
 * one) starts at the hypervisor's current reader page: the descriptor
 * trace_remote gets is turned so that its page 0 is that page.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/namei.h>
#include <linux/ring_buffer.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_remote.h>
#include <linux/trace_remote_event.h>
#include <linux/tracefs.h>

#include "frontend.h"
#include "hyptrace.h"
#include "hyp_events.h"
#include "last_boot.h"
#include "remote.h"
#include "shadow.h"
#include "source.h"

#define LB_REMOTE	"hypervisor_last_boot"

static struct remote_event lb_events[HYP_NR_EVENTS];
static struct hyptrace_shadow_set *lb_shadows;	/* while loaded */
static bool lb_attached;

/*
 * @cpu's shadow: the hypervisor's pages turned so that its current reader
 * page is trace_remote's 0, and the counts the module made.
 */
static int lb_shadow_cpu(struct hyptrace_last_boot *lb, unsigned int cpu)
{
	const struct rb_desc_cpu *hyp = rb_desc_checked_entry(lb->desc, cpu);
	const struct hyptrace_lb_cpu *c = &lb->cpu[cpu];
	struct hyptrace_shadow *s = &lb_shadows->cpu[cpu];
	struct rb_data_page *page;
	u32 id;

	s->lb.base = READ_ONCE(s->shared->reader.id);
	if (s->lb.base >= max(c->kept, 1U)) {
		pr_err_ratelimited("last boot: CPU %u's reader page is %u of the %u kept\n",
				   cpu, s->lb.base, c->kept);
		return -EPROTO;
	}
	s->lb.kept = c->kept ? c->kept - s->lb.base : 0;
	/*
	 * The kept pages from the reader's on, in the hypervisor's order
	 * (base < kept: no wrap). trace_remote reads them in place, trusting
	 * every length: each is cut at any damage first (and again when a
	 * swap hands it over).
	 */
	for (id = s->lb.base; id < c->kept; id++) {
		page = (struct rb_data_page *)(unsigned long)hyp->page_va[id];
		hyptrace_page_guard(cpu, "last boot trace_pipe", page);
		s->lb.total += hyptrace_page_events(page);
	}
	hyptrace_shadow_init(s, hyp->page_va, s->lb.base, &(struct rb_counters) {
		.entries = s->lb.total,
		.pages_touched = c->kept,
		.pages_lost = c->pages_lost,
	});
	return 0;
}

static struct trace_buffer_desc *lb_load(unsigned long size, void *priv)
{
	struct hyptrace_last_boot *lb = priv;
	unsigned int cpu;
	int ret = -ENOMEM;

	mutex_lock(&lb->lock);
	if (lb->released) {
		pr_info_ratelimited("last boot: released, nothing to read\n");
		ret = -ENODEV;
		goto out;
	}
	lb_shadows = hyptrace_shadow_set_alloc(lb->desc, lb->desc_len);
	if (!lb_shadows)
		goto out;
	for (cpu = 0; cpu < lb->nr_cpus; cpu++) {
		ret = lb_shadow_cpu(lb, cpu);
		if (ret)
			goto out;
	}
	lb->frontend_busy = true;
	ret = 0;
out:
	if (ret) {
		hyptrace_shadow_set_free(lb_shadows);
		lb_shadows = NULL;
	}
	mutex_unlock(&lb->lock);
	return ret ? ERR_PTR(ret) : (struct trace_buffer_desc *)lb_shadows->desc;
}

static void lb_unload(struct trace_buffer_desc *desc, void *priv)
{
	struct hyptrace_last_boot *lb = priv;

	mutex_lock(&lb->lock);
	hyptrace_shadow_set_free(lb_shadows);
	lb_shadows = NULL;
	lb->frontend_busy = false;
	mutex_unlock(&lb->lock);
}

static int lb_enable_tracing(bool enable, void *priv)
{
	if (!enable)
		return 0;
	pr_info_ratelimited("last boot: read-only, tracing_on stays 0\n");
	return -EROFS;
}

/*
 * trace_remote has read @cpu's reader page (kernel id old) and wants the
 * next. Called under its per-CPU raw spinlock, interrupts off.
 */
static int lb_swap_reader_page(unsigned int cpu, void *priv)
{
	struct hyptrace_shadow *s = &lb_shadows->cpu[cpu];
	u32 old = s->meta->reader.id, hyp_old = (s->lb.base + old) % s->nr_pages;
	u64 done = hyptrace_page_events(hyptrace_shadow_page(s, old));
	u32 id;
	int ret;

	if (old + 1 >= s->lb.kept) {
		ret = -ENODATA;
	} else {
		ret = hyptrace_call(HYPTRACE_CALL_TRACE_LAST_BOOT,
				    HYPTRACE_LAST_BOOT_SWAP, cpu, 0, 0, NULL,
				    HYPTRACE_QUIET(HYPTRACE_RET_AGAIN));
		id = READ_ONCE(s->shared->reader.id);
		if (!ret && id == hyp_old + 1) {
			s->meta->reader.lost_events = 0;
			hyptrace_shadow_hand(s, cpu, old + 1, done,
					     "last boot trace_pipe");
			return 0;
		}
		if (!ret) {
			pr_warn_ratelimited("last boot: CPU %u: SWAP gave page %u after %u: not taken\n",
					    cpu, id, hyp_old);
			ret = -EIO;
		}
	}
	pr_warn_ratelimited("last boot: CPU %u: no page after %u of %u (%d): the rest is not shown\n",
			    cpu, hyp_old, s->lb.kept + s->lb.base, ret);
	/* What was read is all there is: the reader stops asking */
	WRITE_ONCE(s->meta->entries, s->handed_back + done);
	return ret;
}

/*
 * echo > trace: the reader starts its count over, from the start of the
 * page it holds, and nothing is dropped (read-only): the count says so.
 */
static int lb_reset(unsigned int cpu, void *priv)
{
	struct hyptrace_shadow *s = &lb_shadows->cpu[cpu];

	WRITE_ONCE(s->meta->entries, s->lb.total - s->handed_back);
	return 0;
}

static int lb_enable_event(unsigned short id, bool enable, void *priv)
{
	pr_info_ratelimited("last boot: read-only, its events cannot be turned on or off\n");
	return -EROFS;
}

static int lb_init_tracefs(struct dentry *d, void *priv)
{
	struct hyptrace_last_boot *lb = priv;

	lb_attached = true;
	if (!tracefs_create_file("trace_clock", 0440, d, NULL,
				 &hyptrace_trace_clock_fops) ||
	    !tracefs_create_file("release", 0640, d, NULL,
				 &hyptrace_lb_release_fops))
		return -ENOMEM;
	/* The front end is remote.c's: reached through main.c's pointer */
	return hyptrace_cpu_files(lb->ht->fe, d, &lb->src);
}

static struct trace_remote_callbacks lb_callbacks = {
	.init			= lb_init_tracefs,
	.load_trace_buffer	= lb_load,
	.unload_trace_buffer	= lb_unload,
	.enable_tracing		= lb_enable_tracing,
	.swap_reader_page	= lb_swap_reader_page,
	.reset			= lb_reset,
	.enable_event		= lb_enable_event,
};

static const char *const lb_trace_pipe[] = {
	"/sys/kernel/tracing/remotes/" LB_REMOTE "/trace_pipe",
	"/sys/kernel/debug/tracing/remotes/" LB_REMOTE "/trace_pipe",
};

/* Load it now, so that trace shows it at once (see the top) */
static void lb_load_now(void)
{
	struct file *f = ERR_PTR(-ENOENT);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lb_trace_pipe) && IS_ERR(f); i++)
		f = filp_open(lb_trace_pipe[i], O_RDONLY | O_NONBLOCK, 0);
	if (IS_ERR(f)) {
		pr_info("last boot: tracefs is not mounted (%ld); remotes/" LB_REMOTE "/trace shows it once trace_pipe has been opened\n",
			PTR_ERR(f));
		return;
	}
	filp_close(f, NULL);
}

/* The front end's show_last_boot (remote.c) */
int remote_show_last_boot(struct hyptrace_source *src)
{
	struct hyptrace_last_boot *lb = hyptrace_last_boot(src);
	int ret;

	hyptrace_remote_events_fill(lb_events, 0);
	ret = trace_remote_register(LB_REMOTE, &lb_callbacks, lb, lb_events,
				    HYP_NR_EVENTS);
	if (ret && !lb_attached) {
		pr_err("cannot create remotes/" LB_REMOTE " in tracefs (%d)\n",
		       ret);
		return ret;
	}
	if (ret) {
		/* As for the live remote: it keeps our callbacks */
		pr_err("remotes/" LB_REMOTE " is incomplete (%d)\n", ret);
		return 0;
	}
	lb_load_now();
	pr_info("last boot: /sys/kernel/tracing/remotes/" LB_REMOTE "\n");
	return 0;
}
