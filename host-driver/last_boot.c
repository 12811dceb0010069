// SPDX-License-Identifier: GPL-2.0
/*
 * The previous boot's buffer, after a warm reset that kept RAM (a panic
 * with panic=N, a watchdog, PSCI SYSTEM_RESET): ABI 1.5's TRACE_LAST_BOOT.
 *
 * At its boot the hypervisor found the buffer the last boot had loaded,
 * kept the data pages that passed its checks and set them aside. QUERY
 * gives their descriptor, in TRACE_LOAD's form: per CPU, page_va[0..k-1]
 * are the k pages kept, oldest first, the rest empty, and the meta page
 * reads reader.id 0, entries = the events kept, pages_touched = k,
 * pages_lost = the pages dropped. SWAP hands a CPU's reader the next kept
 * page, RELEASE gives the pages back.
 *
 * The module checks all of it again before any reader sees a page, with
 * the live buffer's checks (buffer.c: the descriptor, every address inside
 * the carve-out) and a walk of every kept page (the records' lengths
 * inside the commit, known events, time in order): the pages are shared
 * with all of EL1 and have lain in RAM across a reset. What fails is
 * refused, whole, with one line saying why; the live buffer is not
 * affected. Then the front end shows it read-only (last_boot_remote.c,
 * last_boot_fallback.c), and this file is its source (source.h), behind
 * what both share (raw.c):
 *
 *   per_cpu/cpuN/trace_pipe_raw  the CPU's kept pages, oldest first, one
 *		per read, from the first again at each open (nothing is
 *		consumed: the pages do not change); then EAGAIN (O_NONBLOCK)
 *		or end of file
 *   per_cpu/cpuN/stats	what was kept and dropped
 *   release	write 1: give the pages back to the hypervisor (so that a
 *		new buffer can use the whole carve-out); EBUSY while they
 *		are being read, and for trace_remote that is until its
 *		trace_pipe has been read to the end
 *
 * The module cannot be unloaded (main.c), so nothing is released unless a
 * user asks: the last boot stays readable until the next reset.
 *
 * The panic notifier is here too: HOST_PANIC makes the hypervisor clean
 * the buffer to the point of coherency, so that the events survive a
 * reset that keeps RAM but not the caches.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/panic_notifier.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uio.h>

#include "compat.h"
#include "frontend.h"
#include "hyptrace.h"
#include "last_boot.h"
#include "source.h"

static struct hyptrace_last_boot last_boot;
static const struct hyptrace_source_ops lb_ops;

/**
 * hyptrace_last_boot() - the last boot's buffer, for its front end
 * @src:	its source, as the front end got it
 *
 * Return: the last boot @src is the source of.
 */
struct hyptrace_last_boot *hyptrace_last_boot(struct hyptrace_source *src)
{
	return container_of(src, struct hyptrace_last_boot, src);
}

static const struct rb_data_page *lb_page(const struct hyptrace_last_boot *lb,
					  unsigned int cpu, u32 id)
{
	const struct rb_desc_cpu *e = rb_desc_checked_entry(lb->desc, cpu);

	return (const struct rb_data_page *)(unsigned long)e->page_va[id];
}

/*
 * One kept page, as the kernel's reader will walk it in place: a commit
 * inside the page without reader flags, every record whole inside the
 * commit, every event one events.c knows with its whole payload. Its
 * events go to *@events, its commit (read once) to *@commit.
 */
static int check_page(unsigned int cpu, const struct rb_data_page *page,
		      u64 *events, u32 *commit)
{
	u64 raw = READ_ONCE(page->commit);
	const struct hyptrace_event *ev;
	enum rb_page_fault fault;
	struct rb_walk w;
	struct rb_rec rec;
	u16 id;

	fault = raw & RB_COMMIT_FLAGS ? RB_PAGE_BAD_COMMIT :
		hyptrace_walk_start(&w, page->data, raw, 0);
	if (fault)
		return hyptrace_page_damaged(cpu, "last boot, not shown",
					     fault, 0, raw);
	while (rb_event_next(&w, &rec)) {
		if (rec.payload_len < sizeof(id))
			return -EPROTO;
		id = get_unaligned_le16(rec.payload);
		ev = hyptrace_find_event(id);
		if (!ev || rec.payload_len < ev->size)
			return -EPROTO;
		(*events)++;
	}
	if (w.fault)
		return hyptrace_page_damaged(cpu, "last boot, not shown",
					     w.fault, w.off, raw);
	*commit = w.commit;
	return 0;
}

/*
 * The next event of @lb's kept page @id of @cpu, from the place @w is at
 * (a walk the caller started, or moved): true
 * with @rec, or false at the end of the page. The walk goes by the commit
 * checked at load, never the shared page's; damage found since (the page
 * is shared with all of EL1) is reported by @reader and the page cut
 * there for every reader, so it is reported once.
 */
static bool lb_event(const struct hyptrace_last_boot *lb, unsigned int cpu,
		     u32 id, struct rb_walk *w, struct rb_rec *rec,
		     const char *reader)
{
	if (rb_event_next(w, rec))
		return true;
	if (w->fault) {
		hyptrace_page_damaged(cpu, reader, w->fault, w->off,
				      w->commit);
		WRITE_ONCE(lb->cpu[cpu].commit[id], w->off);
	}
	return false;
}

/* One line, rate-limited: what is wrong with the last boot's pages */
#define lb_refuse(fmt, ...) \
	pr_err_ratelimited("last boot: " fmt "; not shown\n", ##__VA_ARGS__)

/*
 * @cpu's pages: k = pages_touched of them kept, each one sound and not
 * older than the one before, the rest empty, as QUERY promises; the
 * kernel's reader trusts all of it (ring_buffer.c's remote reader finds
 * the end of the data by the pages' time stamps).
 */
static int check_cpu(struct hyptrace_last_boot *lb, unsigned int cpu)
{
	const struct rb_desc_cpu *e = rb_desc_checked_entry(lb->desc, cpu);
	const struct rb_meta *meta = hyptrace_meta(e);
	struct hyptrace_lb_cpu *c = &lb->cpu[cpu];
	u64 touched = READ_ONCE(meta->pages_touched);
	u64 last_ts = 0, events = 0;
	const struct rb_data_page *page;
	u32 id;
	int ret;

	if (touched > e->nr_page_va) {
		lb_refuse("CPU %u: %llu pages kept of %u", cpu, touched,
			  e->nr_page_va);
		return -EPROTO;
	}
	c->kept = touched;
	c->commit = kcalloc(max(c->kept, 1U), sizeof(*c->commit), GFP_KERNEL);
	if (!c->commit) {
		lb_refuse("no memory");
		return -ENOMEM;
	}
	c->pages_lost = READ_ONCE(meta->pages_lost);
	c->hyp_entries = READ_ONCE(meta->entries);
	if (c->pages_lost > RB_MAX_PAGES) {
		lb_refuse("CPU %u: %llu pages dropped", cpu, c->pages_lost);
		return -EPROTO;
	}
	for (id = 0; id < e->nr_page_va; id++) {
		page = lb_page(lb, cpu, id);
		if (id >= c->kept) {
			if (READ_ONCE(page->commit)) {
				lb_refuse("CPU %u: page %u after the %u kept is not empty",
					  cpu, id, c->kept);
				return -EPROTO;
			}
			continue;
		}
		ret = check_page(cpu, page, &events, &c->commit[id]);
		if (ret == -EPROTO)
			lb_refuse("CPU %u: kept page %u holds an unknown event",
				  cpu, id);
		if (ret)
			return ret;
		if (READ_ONCE(page->time_stamp) < last_ts) {
			lb_refuse("CPU %u: kept page %u is older than page %u",
				  cpu, id, id - 1);
			return -EPROTO;
		}
		last_ts = READ_ONCE(page->time_stamp);
	}
	c->events = events;
	/* The count the readers go by is the module's own */
	if (c->hyp_entries != events)
		pr_warn("last boot: CPU %u: the hypervisor counts %llu events, the module %llu; showing the %llu there are\n",
			cpu, c->hyp_entries, events, events);
	lb->kept += c->kept;
	return 0;
}

/*
 * Ask for the last boot and check it. 0 with lb->desc NULL when there is
 * none (a cold boot, or a hypervisor before ABI 1.5: silently).
 */
static int last_boot_find(struct hyptrace_last_boot *lb)
{
	struct hyptrace *ht = lb->ht;
	struct rb_trace_desc *desc;
	struct arm_smccc_res res;
	unsigned int cpu;
	u64 pa, len;
	int ret;

	ret = hyptrace_call(HYPTRACE_CALL_TRACE_LAST_BOOT,
			    HYPTRACE_LAST_BOOT_QUERY, 0, 0, 0, &res, 0);
	if (ret)
		return ret;
	pa = res.a1;
	len = res.a2;
	if (!pa)
		return 0;
	if (len < sizeof(*desc) || len > SZ_16M ||
	    !hyptrace_carveout_holds(ht, pa, len)) {
		lb_refuse("the descriptor at %#llx, %llu bytes, is not inside the carve-out",
			  pa, len);
		return -EPROTO;
	}
	desc = kvmalloc(len, GFP_KERNEL);
	if (!desc) {
		lb_refuse("no memory for its descriptor");
		return -ENOMEM;
	}
	memcpy(desc, ht->carveout + (pa - ht->carveout_base), len);
	/* It says why, naming the last boot */
	ret = hyptrace_import_desc(ht, desc, len, "last boot");
	if (ret)
		goto fail;
	lb->desc = desc;
	lb->desc_len = len;
	lb->nr_cpus = desc->nr_cpus;
	lb->dropped = res.a3;
	lb->cpu = kcalloc(lb->nr_cpus, sizeof(*lb->cpu), GFP_KERNEL);
	if (!lb->cpu) {
		lb_refuse("no memory");
		ret = -ENOMEM;
		goto fail;
	}
	for (cpu = 0; cpu < lb->nr_cpus; cpu++) {
		ret = check_cpu(lb, cpu);
		if (ret)
			goto fail;
	}
	return 0;

fail:
	for (cpu = 0; lb->cpu && cpu < lb->nr_cpus; cpu++)
		kfree(lb->cpu[cpu].commit);
	kfree(lb->cpu);
	lb->cpu = NULL;
	lb->desc = NULL;
	kvfree(desc);
	return ret;
}

int hyptrace_last_boot_init(struct hyptrace *ht)
{
	struct hyptrace_last_boot *lb = &last_boot;
	u64 events = 0;
	unsigned int cpu;
	int ret;

	if (ht->abi_minor < 5)
		return 0;
	mutex_init(&lb->lock);
	lb->ht = ht;
	ret = last_boot_find(lb);
	if (ret || !lb->desc)
		return ret;
	for (cpu = 0; cpu < lb->nr_cpus; cpu++)
		events += lb->cpu[cpu].events;
	pr_info("last boot: %llu pages kept, %llu dropped, %llu events on %u CPUs\n",
		lb->kept, lb->dropped, events, lb->nr_cpus);
	ret = hyptrace_source_init(&lb->src, &lb_ops, "last boot ",
				   lb->nr_cpus, true);
	if (ret)
		return ret;
	return ht->fe->show_last_boot(&lb->src);
}

/*
 * A reader opens (@raw: a trace_pipe_raw of @cpu): none once the pages are
 * given back, and none can be given back while one is open.
 */
static int lb_open(struct hyptrace_source *src, int cpu, bool raw)
{
	struct hyptrace_last_boot *lb = hyptrace_last_boot(src);
	int ret = 0;

	if (cpu >= (int)lb->nr_cpus)
		return -ENODEV;
	mutex_lock(&lb->lock);
	if (lb->released)
		ret = -ENODEV;
	else
		lb->raw_open++;
	mutex_unlock(&lb->lock);
	if (ret)
		pr_info_ratelimited("last boot: released, nothing to read\n");
	return ret;
}

static void lb_release(struct hyptrace_source *src, int cpu, bool raw)
{
	struct hyptrace_last_boot *lb = hyptrace_last_boot(src);

	mutex_lock(&lb->lock);
	lb->raw_open--;
	mutex_unlock(&lb->lock);
}

/*
 * Kept page @id of @cpu into @dst: a copy, up to the commit checked at
 * load, walked again, so that the page a reader gets is sound whatever
 * was written into the shared one since; @reader names it in a report.
 */
static void lb_copy_page(struct hyptrace_last_boot *lb, unsigned int cpu,
			 u32 id, struct rb_data_page *dst, const char *reader)
{
	const struct rb_data_page *src = lb_page(lb, cpu, id);
	struct rb_walk w;
	struct rb_rec rec;

	memset(dst, 0, PAGE_SIZE);
	dst->time_stamp = READ_ONCE(src->time_stamp);
	dst->commit = READ_ONCE(lb->cpu[cpu].commit[id]);
	memcpy(dst->data, src->data, dst->commit);
	hyptrace_walk_start(&w, dst->data, dst->commit, 0);
	while (lb_event(lb, cpu, id, &w, &rec, reader))
		;
	dst->commit = w.off;
	memset(dst->data + w.off, 0, RB_PAGE_CAPACITY - w.off);
}

/*
 * per_cpu/cpuN/trace_pipe_raw: the kept pages, oldest first, from the
 * first again at each open (*@cursor): nothing is consumed.
 */
static int lb_raw_page(struct hyptrace_source *src, unsigned int cpu,
		       u32 *cursor, struct rb_data_page *dst)
{
	struct hyptrace_last_boot *lb = hyptrace_last_boot(src);

	if (*cursor >= lb->cpu[cpu].kept)
		return -ENODATA;
	lb_copy_page(lb, cpu, (*cursor)++, dst, "last boot trace_pipe_raw");
	return 0;
}

/*
 * The text readers' next page, consumed: one place per CPU, which the
 * hypervisor's reader follows (it only counts here), page by page with
 * TRACE_LAST_BOOT SWAP. Under the CPU's text lock (fallback_pages.c).
 */
static int lb_take_page(struct hyptrace_source *src, unsigned int cpu,
			struct rb_data_page *dst)
{
	struct hyptrace_last_boot *lb = hyptrace_last_boot(src);
	struct hyptrace_lb_cpu *c = &lb->cpu[cpu];

	if (c->taken >= c->kept)
		return -ENODATA;
	if (c->taken)
		hyptrace_call(HYPTRACE_CALL_TRACE_LAST_BOOT,
			      HYPTRACE_LAST_BOOT_SWAP, cpu, 0, 0, NULL,
			      HYPTRACE_QUIET(HYPTRACE_RET_AGAIN));
	lb_copy_page(lb, cpu, c->taken++, dst, "last boot trace");
	return 0;
}

static u32 lb_capacity(struct hyptrace_source *src, unsigned int cpu)
{
	return hyptrace_last_boot(src)->cpu[cpu].kept;
}

/* per_cpu/cpuN/stats: the kernel's per-CPU stats lines that apply */
static void lb_stats(struct hyptrace_source *src, unsigned int cpu,
		     struct seq_file *m)
{
	struct hyptrace_last_boot *lb = hyptrace_last_boot(src);
	const struct hyptrace_lb_cpu *c = &lb->cpu[cpu];

	mutex_lock(&lb->lock);
	seq_printf(m, "buffer: %s\n", lb->released ? "released" : "last boot");
	mutex_unlock(&lb->lock);
	seq_printf(m, "written events: %llu\n", c->events);
	seq_puts(m, "overrun: 0\n");
	seq_puts(m, "dropped events: 0\n");
	seq_printf(m, "pages kept: %u\n", c->kept);
	seq_printf(m, "pages dropped: %llu\n", c->pages_lost);
	seq_printf(m, "hypervisor entries: %llu\n", c->hyp_entries);
	seq_printf(m, "damaged pages: %llu\n", hyptrace_page_damage(cpu));
}

static const struct hyptrace_source_ops lb_ops = {
	.open		= lb_open,
	.release	= lb_release,
	.raw_page	= lb_raw_page,
	.take_page	= lb_take_page,
	.capacity	= lb_capacity,
	.stats		= lb_stats,
};

/* release: 0 while kept, 1 once given back; write 1 to give them back */
static ssize_t lb_release_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct hyptrace_last_boot *lb = &last_boot;
	char buf[4];
	int len;

	mutex_lock(&lb->lock);
	len = scnprintf(buf, sizeof(buf), "%d\n", lb->released);
	mutex_unlock(&lb->lock);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t lb_release_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct hyptrace_last_boot *lb = &last_boot;
	bool val;
	int ret;

	ret = kstrtobool_from_user(ubuf, count, &val);
	if (ret)
		return ret;
	if (!val)
		return -EINVAL;
	mutex_lock(&lb->lock);
	if (lb->released) {
		ret = 0;
	} else if (lb->raw_open || lb->frontend_busy) {
		pr_info_ratelimited("last boot: still being read (one of its files is open, or trace_pipe has not read it to the end): not released\n");
		ret = -EBUSY;
	} else {
		ret = hyptrace_call(HYPTRACE_CALL_TRACE_LAST_BOOT,
				    HYPTRACE_LAST_BOOT_RELEASE, 0, 0, 0, NULL,
				    0);
		/* NOT_LOADED: someone else gave them back; gone either way */
		if (!ret || ret == -ENODEV) {
			lb->released = true;
			ret = 0;
			pr_info("last boot: released\n");
		}
	}
	mutex_unlock(&lb->lock);
	return ret ? ret : count;
}

const struct file_operations hyptrace_lb_release_fops = {
	.owner		= THIS_MODULE,
	.read		= lb_release_read,
	.write		= lb_release_write,
	.llseek		= default_llseek,
};

/*
 * The host is going down: the hypervisor traces the call and cleans the
 * buffer to the point of coherency, so that the next boot finds it. No
 * printing, no locks: any CPU, any state.
 */
static int hyptrace_panic(struct notifier_block *nb, unsigned long event,
			  void *buf)
{
	struct arm_smccc_res res;

	arm_smccc_1_1_hvc(HYPTRACE_CALL_HOST_PANIC, &res);
	return NOTIFY_DONE;
}

static struct notifier_block hyptrace_panic_nb = {
	.notifier_call	= hyptrace_panic,
	/* Before the notifiers that may not return (kdump's, a reboot) */
	.priority	= INT_MAX,
};

void hyptrace_panic_notifier_init(struct hyptrace *ht)
{
	if (ht->abi_minor < 5)
		return;
	/* Never unregistered: the module stays loaded (main.c) */
	atomic_notifier_chain_register(&panic_notifier_list,
				       &hyptrace_panic_nb);
}
