// SPDX-License-Identifier: GPL-2.0
/*
 * The live buffer as a source (source.h): the hypervisor's pages, taken by
 * reader-page swap, as the kernel's own trace_pipe_raw gives a tracing
 * instance's (raw.c makes the files), for trace-cmd-like recorders and
 * for the fallback's text readers.
 *
 * A page taken is one page in the kernel's format: the page header (time
 * stamp of the first event, commit), the events, and, when events were
 * lost before them, RB_MISSED_EVENTS in the commit and the count stored
 * after the data (RB_MISSED_STORED), as ring_buffer_read_page() does.
 *
 * One consumer per CPU
 * --------------------
 * A swap hands the hypervisor's oldest page to whoever asked, and
 * trace_remote's reader keeps a mirror of the ring that stays right only if
 * it sees every swap. So, for the life of one loaded buffer, each CPU has
 * one kind of consumer: the first to claim it. Opening a CPU's
 * trace_pipe_raw claims it for the raw files (and fails with EBUSY if
 * trace_pipe has already taken a page of it); trace_remote's first swap
 * claims it for trace_pipe (which then gets no page of a raw CPU). Every
 * event therefore reaches exactly one consuming reader. The claim ends when
 * the buffer is unloaded: a recorder resets the buffer when it is done.
 *
 * trace_remote decides whether a CPU has data from the meta page's counters
 * and would spin on a CPU whose pages it may not have. So claiming a CPU for
 * the raw files asks the hypervisor to publish that CPU's counters in its
 * meta extension instead (TRACE_HIDE_COUNTERS): the meta page trace_remote
 * reads then says "nothing to read", at no cost to any event.
 *
 * Without trace_remote (the fallback front end) there is no mirror to keep
 * right: the raw files take their pages through the front end's raw_page
 * (fallback_pages.c), which shares one place per CPU between them and
 * trace_pipe, and nobody claims.
 *
 * The page the hypervisor hands over may still be the one it writes to (a
 * swap of a partly written page, ring_buffer.c): events appended after a
 * read are given out by the next read as a page of their own, stamped with
 * the time of the last event already given out, as the kernel does for a
 * partly read reader page.
 *
 * Each page is copied once out of the carve-out (the hypervisor reuses it at
 * the next swap) into the reader's page.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "compat.h"
#include "frontend.h"
#include "hyptrace.h"
#include "source.h"

enum raw_owner {
	OWNER_NONE,
	OWNER_TRACEFS,		/* trace_remote's reader, behind trace_pipe */
	OWNER_RAW,		/* the trace_pipe_raw files */
};

/* One CPU's consumption by the raw files, for the current buffer. */
struct raw_cpu {
	atomic_t owner;			/* enum raw_owner */
	struct rb_meta *meta;		/* the hypervisor's meta page */
	struct mutex lock;		/* serialises raw reads of this CPU */
	u32 read;			/* reader-page data bytes given out */
	u64 read_ts;			/* time stamp of the last of them */
	u64 lost;			/* to report with the next page */
	bool damaged;			/* the reader page was reported so */
	/* What the raw files gave out since the buffer was loaded */
	u64 events;
	u64 pages;
	u64 bytes;
	u64 lost_total;
};

static struct hyptrace *raw_ht;
static struct raw_cpu *raw_cpus;
static struct hyptrace_source live_source;
static const struct hyptrace_source_ops live_ops;

static const char *const owner_names[] = {
	[OWNER_NONE]	= "none",
	[OWNER_TRACEFS]	= "trace_pipe",
	[OWNER_RAW]	= "trace_pipe_raw",
};

int hyptrace_raw_init(struct hyptrace *ht)
{
	unsigned int cpu;

	raw_cpus = kcalloc(ht->nr_cpus, sizeof(*raw_cpus), GFP_KERNEL);
	if (!raw_cpus)
		return -ENOMEM;
	for (cpu = 0; cpu < ht->nr_cpus; cpu++)
		mutex_init(&raw_cpus[cpu].lock);
	raw_ht = ht;
	return hyptrace_source_init(&live_source, &live_ops, "", ht->nr_cpus,
				    false);
}

/**
 * hyptrace_live_source() - the live buffer, as the readers see it
 *
 * Return: the source, once hyptrace_raw_init() has made it.
 */
struct hyptrace_source *hyptrace_live_source(void)
{
	return &live_source;
}

/* Serialises the consumption of @cpu's pages, by any reader */
struct mutex *hyptrace_cpu_lock(unsigned int cpu)
{
	return &raw_cpus[cpu].lock;
}

static void raw_cpu_rewind(struct raw_cpu *rc)
{
	rc->read = 0;
	rc->read_ts = 0;
	rc->lost = 0;
	rc->damaged = false;
	rc->events = 0;
	rc->pages = 0;
	rc->bytes = 0;
	rc->lost_total = 0;
}

/**
 * hyptrace_live_load_locked() - load the live buffer, for a front end
 * @ht:		the hypervisor, its lock held
 * @size:	bytes per CPU
 *
 * As hyptrace_buffer_load_locked(), and the source starts over with the
 * new buffer: nobody owns any CPU yet, nothing of it was read. No raw
 * file is open (the load refuses while one is).
 *
 * Return: the descriptor, or an ERR_PTR (never NULL).
 */
struct rb_trace_desc *hyptrace_live_load_locked(struct hyptrace *ht,
						unsigned long size)
{
	struct rb_trace_desc *desc = hyptrace_buffer_load_locked(ht, size);
	unsigned int cpu;

	if (IS_ERR(desc))
		return desc;
	for (cpu = 0; cpu < ht->nr_cpus; cpu++) {
		struct rb_desc_cpu *e = hyptrace_desc_cpu(ht, cpu);

		atomic_set(&raw_cpus[cpu].owner, OWNER_NONE);
		raw_cpus[cpu].meta = hyptrace_meta(e);
		raw_cpu_rewind(&raw_cpus[cpu]);
	}
	return desc;
}

/*
 * trace_remote emptied @cpu (under its reader lock, interrupts off): the
 * reader page is empty now, whoever owns the CPU. A raw read in progress
 * holds the mutex; it then finds an empty page and a new position is taken
 * at the next swap, which is what a reset means.
 */
void hyptrace_raw_reset(unsigned int cpu)
{
	struct raw_cpu *rc = &raw_cpus[cpu];

	WRITE_ONCE(rc->read, 0);
	WRITE_ONCE(rc->lost, 0);
	WRITE_ONCE(rc->damaged, false);
}

/* trace_remote wants a page of @cpu: may it have one? (atomic context) */
bool hyptrace_raw_claim_tracefs(unsigned int cpu)
{
	int old = atomic_cmpxchg(&raw_cpus[cpu].owner, OWNER_NONE,
				 OWNER_TRACEFS);

	return old != OWNER_RAW;
}

/*
 * Claim @cpu for the raw files (trace_remote's front end, @ht->lock held):
 * -EBUSY if trace_pipe already took a page of it.
 */
int hyptrace_raw_claim_raw(struct hyptrace *ht, unsigned int cpu)
{
	int old, ret;

	old = atomic_cmpxchg(&raw_cpus[cpu].owner, OWNER_NONE, OWNER_RAW);
	if (old == OWNER_TRACEFS) {
		pr_info_ratelimited("trace_pipe_raw of CPU %u: trace_pipe is consuming this CPU's pages; reset the buffer (write to trace) to read it raw\n",
				    cpu);
		return -EBUSY;
	}
	if (old == OWNER_RAW)
		return 0;
	/* From now on trace_remote sees nothing to read on this CPU */
	ret = hyptrace_call(HYPTRACE_CALL_TRACE_HIDE_COUNTERS, cpu, 1, 0, 0,
			    NULL, 0);
	if (ret)
		atomic_set(&raw_cpus[cpu].owner, OWNER_NONE);
	return ret;
}

/*
 * Walk the records of @w, a walk over the file's copy of the page, but no
 * record that would end past @limit: returns where the walk stopped, with
 * *@ts the time of the last record walked and *@events the data events
 * among them. At damage the walk stops there too, @w->fault says so, and
 * the page is handed out up to it.
 */
static u32 raw_walk(struct rb_walk *w, u32 limit, u64 *ts, u64 *events)
{
	struct rb_rec rec;
	u32 end = 0;

	while (rb_rec_next(w, &rec)) {
		if (rec.off + rec.size > limit)
			return end;
		end = w->off;
		*ts = rec.ts;
		*events += rec.kind == RB_REC_DATA;
	}
	/* A null padding ends the page: all of it was walked */
	return w->fault ? end : w->off;
}

/*
 * Put the events of @cpu's reader page from @rc->read to @commit into @dst,
 * in the kernel's format. When events were lost before them, their count
 * goes after the data; if the events fill the page, the last ones wait for
 * the next read so that the count always fits (the kernel would set the
 * flag alone and leave the count unknown). @raw_commit is the page's, read
 * once; @commit, the same clamped to the page.
 */
static void raw_take(struct rb_data_page *dst, unsigned int cpu,
		     struct raw_cpu *rc, const struct rb_data_page *src,
		     u32 commit, u64 raw_commit)
{
	bool bad_commit = raw_commit > RB_PAGE_CAPACITY;
	u32 len = commit - rc->read, limit = len, end, skip = 0;
	u64 flags = 0, ts, events = 0;
	struct rb_walk w;

	if (rc->lost && len > RB_PAGE_CAPACITY - sizeof(u64))
		limit = RB_PAGE_CAPACITY - sizeof(u64);
	ts = rc->read ? rc->read_ts : READ_ONCE(src->time_stamp);
	dst->time_stamp = ts;
	/* The walk is of the copy: what is handed out is what was checked */
	memcpy(dst->data, src->data + rc->read, len);
	hyptrace_walk_start(&w, dst->data, len, ts);
	len = raw_walk(&w, limit, &ts, &events);
	end = len;
	if (w.fault || bad_commit) {
		hyptrace_page_damaged(cpu, "trace_pipe_raw",
				      bad_commit ? RB_PAGE_BAD_COMMIT : w.fault,
				      rc->read + len, raw_commit);
		/* The damaged rest of the page is never handed out */
		skip = commit - rc->read - len;
		rc->damaged = true;
	}
	if (rc->lost) {
		flags |= RB_MISSED_EVENTS;
		if (RB_PAGE_CAPACITY - end >= sizeof(u64)) {
			put_unaligned(rc->lost, (u64 *)(dst->data + end));
			flags |= RB_MISSED_STORED;
			end += sizeof(u64);
		}
		rc->lost_total += rc->lost;
		rc->lost = 0;
	}
	memset(dst->data + end, 0, RB_PAGE_CAPACITY - end);
	dst->commit = len | flags;

	rc->read += len + skip;
	rc->read_ts = ts;
	rc->events += events;
	rc->pages++;
	rc->bytes += len;
}

/*
 * Fill @dst with the next events of @cpu from the hypervisor: 0, -EAGAIN
 * when there are none yet, or another -errno. Called with the CPU's lock
 * held.
 */
int hyptrace_raw_fill(struct hyptrace *ht, unsigned int cpu,
		      struct rb_data_page *dst)
{
	struct raw_cpu *rc = &raw_cpus[cpu];
	struct rb_desc_cpu *e = hyptrace_desc_cpu(ht, cpu);
	struct rb_meta *meta = rc->meta;
	bool swapped = false, unread = false;
	int ret;

	for (;;) {
		/* Pairs with the release store of reader.id at a swap */
		u32 id = smp_load_acquire(&meta->reader.id);
		const struct rb_data_page *src;
		u64 raw_commit;
		u32 commit;

		if (id >= e->nr_page_va) {
			pr_err_ratelimited("CPU %u: reader page %u, the buffer has %u\n",
					   cpu, id, e->nr_page_va);
			return -EIO;
		}
		src = (const struct rb_data_page *)(unsigned long)e->page_va[id];
		/*
		 * The writer publishes commit after the bytes below it. Read
		 * once, and clamped: a commit beyond the page is damage, and
		 * what the page holds is handed out up to the first bad record
		 */
		raw_commit = smp_load_acquire(&src->commit) & ~RB_COMMIT_FLAGS;
		commit = min_t(u64, raw_commit, RB_PAGE_CAPACITY);
		if (commit > rc->read) {
			raw_take(dst, cpu, rc, src, commit, raw_commit);
			return 0;
		}
		if (swapped)
			return -EAGAIN;
		/*
		 * The hypervisor said the page holds more, and its commit
		 * still does not: the commit was scribbled on. What lies
		 * past it is lost to the damage; the page goes back.
		 */
		if (unread && !rc->damaged) {
			hyptrace_page_damaged(cpu, "trace_pipe_raw",
					      RB_PAGE_SHORT_COMMIT, rc->read,
					      raw_commit);
			rc->damaged = true;
		}

		/*
		 * The writer may have filled this page and moved on since its
		 * commit was read: say how far we read, and the hypervisor
		 * keeps the page here while it holds more (UNREAD).
		 */
		ret = hyptrace_call(HYPTRACE_CALL_TRACE_SWAP_READER, cpu,
				    unread ? 0 : HYPTRACE_SWAP_READ, rc->read,
				    0, NULL,
				    HYPTRACE_QUIET(HYPTRACE_RET_AGAIN) |
				    HYPTRACE_QUIET(HYPTRACE_RET_UNREAD));
		if (ret == -ENOTEMPTY && !unread) {
			unread = true;
			continue;
		}
		if (ret)
			return ret;
		/* The swap ran on this CPU: its meta-page stores are visible */
		rc->read = 0;
		rc->damaged = false;
		rc->lost += READ_ONCE(meta->reader.lost_events);
		swapped = true;
	}
}

/*
 * per_cpu/cpuN/stats, in the lines of the kernel's own per-CPU stats file
 * that mean something here. Counts are the hypervisor's, from the meta page
 * it keeps up to date and the counters it keeps beside it.
 */
static void live_stats(struct hyptrace_source *src, unsigned int cpu,
		       struct seq_file *m)
{
	struct hyptrace *ht = raw_ht;
	struct raw_cpu *rc = &raw_cpus[cpu];
	const struct rb_counters *counters;
	const struct rb_meta_ext *ext;
	const struct rb_meta *meta;
	u64 dropped = 0;

	/* Pages any reader of this CPU found damaged (page.c), any buffer */
	seq_printf(m, "damaged pages: %llu\n", hyptrace_page_damage(cpu));
	mutex_lock(&ht->lock);
	if (!ht->desc) {
		mutex_unlock(&ht->lock);
		seq_puts(m, "buffer: unloaded\n");
		return;
	}
	meta = rc->meta;
	ext = (const void *)meta + RB_META_EXT_OFFSET;
	/* Where the hypervisor publishes them for a raw CPU, or as usual */
	counters = (const struct rb_counters *)&meta->entries;
	if (READ_ONCE(ext->magic) == RB_META_EXT_MAGIC) {
		dropped = READ_ONCE(ext->dropped);
		if (READ_ONCE(ext->hidden))
			counters = &ext->counters;
	}

	/*
	 * Not "entries": in the kernel's stats that means "still unread",
	 * and trace-cmd says so next to it. These are the writer's totals.
	 */
	seq_printf(m, "written events: %llu\n", READ_ONCE(counters->entries));
	seq_printf(m, "overrun: %llu\n", READ_ONCE(counters->overrun));
	seq_printf(m, "dropped events: %llu\n", dropped);
	seq_printf(m, "pages touched: %llu\n",
		   READ_ONCE(counters->pages_touched));
	seq_printf(m, "pages lost: %llu\n", READ_ONCE(counters->pages_lost));
	/* Without trace_remote, trace_pipe and the raw files share a place */
	seq_printf(m, "consumer: %s\n",
		   ht->fe->claims_cpus ?
		   owner_names[atomic_read(&rc->owner)] : "shared");
	seq_printf(m, "raw read events: %llu\n", rc->events);
	seq_printf(m, "raw read pages: %llu\n", rc->pages);
	seq_printf(m, "raw read bytes: %llu\n", rc->bytes);
	seq_printf(m, "raw lost events: %llu\n", rc->lost_total);
	mutex_unlock(&ht->lock);
}

/*
 * A reader opens. A raw file of @cpu must be let in by the front end
 * (trace_remote's: the buffer it loaded must still be there, and the CPU
 * must not be trace_pipe's); the text readers load through the front end
 * themselves.
 */
static int live_open(struct hyptrace_source *src, int cpu, bool raw)
{
	struct hyptrace *ht = raw_ht;
	int ret;

	if (!raw)
		return 0;
	mutex_lock(&ht->lock);
	ret = ht->fe->raw_attach(ht, cpu);
	if (!ret)
		ht->raw_open++;
	mutex_unlock(&ht->lock);
	return ret;
}

static void live_release(struct hyptrace_source *src, int cpu, bool raw)
{
	struct hyptrace *ht = raw_ht;

	if (!raw)
		return;
	mutex_lock(&ht->lock);
	ht->raw_open--;
	ht->fe->raw_detach(ht);
	mutex_unlock(&ht->lock);
}

/* One place per CPU for every raw reader: the cursor is not needed */
static int live_raw_page(struct hyptrace_source *src, unsigned int cpu,
			 u32 *cursor, struct rb_data_page *dst)
{
	struct hyptrace *ht = raw_ht;
	int ret;

	mutex_lock(&raw_cpus[cpu].lock);
	ret = ht->fe->raw_page(ht, cpu, dst);
	mutex_unlock(&raw_cpus[cpu].lock);
	return ret;
}

static int live_take_page(struct hyptrace_source *src, unsigned int cpu,
			  struct rb_data_page *dst)
{
	lockdep_assert_held(&raw_cpus[cpu].lock);
	return hyptrace_raw_fill(raw_ht, cpu, dst);
}

static u32 live_capacity(struct hyptrace_source *src, unsigned int cpu)
{
	return hyptrace_desc_cpu(raw_ht, cpu)->nr_page_va;
}

/* Empty @cpu (or every CPU) in the hypervisor, with @ht->lock held */
static int live_reset(struct hyptrace_source *src, int cpu)
{
	struct hyptrace *ht = raw_ht;
	unsigned int c;
	int ret;

	lockdep_assert_held(&ht->lock);
	if (!ht->desc)
		return 0;
	for (c = 0; c < ht->nr_cpus; c++) {
		if (cpu != HYPTRACE_ALL_CPUS && c != cpu)
			continue;
		ret = hyptrace_call(HYPTRACE_CALL_TRACE_RESET, c, 0, 0, 0,
				    NULL, 0);
		if (ret)
			return ret;
		hyptrace_raw_reset(c);
	}
	return 0;
}

static const struct hyptrace_source_ops live_ops = {
	.open		= live_open,
	.release	= live_release,
	.raw_page	= live_raw_page,
	.take_page	= live_take_page,
	.capacity	= live_capacity,
	.reset		= live_reset,
	.stats		= live_stats,
};
