// SPDX-License-Identifier: GPL-2.0
/*
 * Concurrency test: one writer thread per simulated CPU, and one consumer
 * thread that reads the swapped reader pages the way the kernel does
 * (kreader.h), asking for swaps, and now and then resets a CPU. Each event
 * carries its writer's sequence number and raw timestamp; the consumer
 * checks, per CPU:
 *   - sequence numbers strictly increase, and every gap is exactly the
 *     lost count reported by the swaps since the previous event plus what
 *     resets in between discarded (entries - overrun - consumed at reset);
 *   - timestamps decode to the raw value, or to a clamp of it, and never
 *     go backwards within a reset epoch;
 *   - at the end, consumed + reported lost + discarded by reset == written.
 *
 * usage: concurrency_test [total_events] [nr_cpus] [nr_pages] [overwrite|keep]
 *			   [kernel|raw|raw-blind [WINDOW]]
 *
 * "kernel" (the default) reads as the kernel's reader does (kreader.h);
 * "raw" as hyptrace.ko's raw files do, from the page's commit alone, and
 * says how far it read when it asks for a swap (rb_swap_reader_after());
 * "raw-blind" is "raw" without saying it, as the raw files were before:
 * it loses events silently, and is only here to show that the test sees it.
 * WINDOW yields the consumer that many times before each swap, so that the
 * writer often fills the reader page between the reader's last look at it
 * and the swap.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "testbuf.h"
#include "kreader.h"

#define MAX_CPUS	8

struct cpu_ctx {
	struct tbuf tb;
	struct kreader rd;
	pthread_t thread;
	u64 to_write;
	u64 written;		/* writer: successful writes */
	u64 refused;		/* writer: refused attempts */
	/* consumer side */
	u64 next;		/* sequence number after the last consumed */
	u64 gap_extra;		/* discarded by resets since that event */
	u64 consumed;
	u64 lost;		/* reported through reader.lost_events */
	u64 lost_epoch;
	u64 reset_discarded;
	u64 reset_unreported;
	u64 resets;
	u64 clamps_seen;
	u64 last_ts;
	bool epoch_has_ts;
	const char *error;
};

static struct cpu_ctx ctx[MAX_CPUS];
static int nr_cpus = 2;
static volatile int writers_done;

/*
 * The writers' clock, a function of the sequence number: mostly forward,
 * sometimes a jump that needs a TIME_EXTEND, sometimes a step back.
 */
static u64 ts_of(u64 seq)
{
	u64 ts = 1000000 + seq * 97 + (seq / 50000) * (1ULL << 28);

	if (seq % 4096 == 4095)
		ts -= 5000;
	return ts;
}

static u64 max_ts_before(u64 seq)
{
	u64 m = 0;

	if (seq >= 1)
		m = ts_of(seq - 1);
	if (seq >= 2 && ts_of(seq - 2) > m)
		m = ts_of(seq - 2);
	return m;
}

static void *writer(void *arg)
{
	struct cpu_ctx *c = arg;
	u64 seq = 0;

	while (seq < c->to_write) {
		u64 v[2] = { seq, ts_of(seq) };
		bool ok;

		if (seq & 1) {
			ok = rb_write(&c->tb.cpu, v[1], v, 16);
		} else {
			u64 *p = rb_reserve(&c->tb.cpu, 16, v[1]);

			ok = p;
			if (p) {
				p[0] = v[0];
				p[1] = v[1];
				rb_commit(&c->tb.cpu);
			}
		}
		if (ok) {
			/* pace the writers so the consumer keeps up part of the time */
			if (!(++seq % 128))
				sched_yield();
		} else {
			c->refused++;
			sched_yield();
		}
	}
	c->written = seq;
	return NULL;
}

static int swap_kernel(void *arg, u64 read)
{
	(void)read;
	return rb_swap_reader(arg);
}

static int swap_raw(void *arg, u64 read)
{
	return rb_swap_reader_after(arg, read);
}

static int consume_one(struct cpu_ctx *c, const struct kevent *ev)
{
	u64 v[2], gap;

	if (ev->len != 16) {
		c->error = "payload length";
		return -1;
	}
	memcpy(v, ev->payload, 16);
	if (v[0] < c->next) {
		c->error = "duplicate or reordered event";
		return -1;
	}
	gap = v[0] - c->next;
	if (gap != ev->lost + c->gap_extra) {
		fprintf(stderr, "cpu %ld: seq %llu after %llu: gap %llu, "
			"reported lost %llu + reset %llu\n", (long)(c - ctx),
			(unsigned long long)v[0], (unsigned long long)c->next,
			(unsigned long long)gap, (unsigned long long)ev->lost,
			(unsigned long long)c->gap_extra);
		c->error = "gap does not match reported losses";
		return -1;
	}
	if (v[1] != ts_of(v[0])) {
		c->error = "payload corrupted";
		return -1;
	}
	if (ev->ts != v[1]) {
		if (ev->ts < v[1] || ev->ts > max_ts_before(v[0])) {
			c->error = "timestamp neither raw nor a clamp";
			return -1;
		}
		c->clamps_seen++;
	}
	if (c->epoch_has_ts && ev->ts < c->last_ts) {
		c->error = "timestamp went backwards";
		return -1;
	}
	c->last_ts = ev->ts;
	c->epoch_has_ts = true;
	c->lost += ev->lost;
	c->lost_epoch += ev->lost;
	c->gap_extra = 0;
	c->next = v[0] + 1;
	c->consumed++;
	return 0;
}

static int do_reset(struct cpu_ctx *c)
{
	struct rb_stats before;
	u64 discarded, unreported;

	rb_reset(&c->tb.cpu, &before);
	if (before.entries < before.overrun + c->rd.consumed ||
	    before.overrun < c->lost_epoch) {
		c->error = "counters inconsistent at reset";
		return -1;
	}
	discarded = before.entries - before.overrun - c->rd.consumed;
	unreported = before.overrun - c->lost_epoch;
	c->reset_discarded += discarded;
	c->reset_unreported += unreported;
	c->gap_extra += discarded + unreported;
	c->lost_epoch = 0;
	c->epoch_has_ts = false;
	c->resets++;
	kreader_reset(&c->rd);
	return 0;
}

static void *consumer(void *arg)
{
	u64 iter = 0;
	int idle_rounds = 0;

	(void)arg;
	for (;;) {
		bool done = __atomic_load_n(&writers_done, __ATOMIC_ACQUIRE);
		bool any = false;
		int i;

		for (i = 0; i < nr_cpus; i++) {
			struct cpu_ctx *c = &ctx[i];
			struct kevent ev;
			int n, rc = 0;

			for (n = 0; n < 256; n++) {
				rc = kreader_next(&c->rd, &ev);
				if (rc != 1)
					break;
				if (consume_one(c, &ev))
					return NULL;
				any = true;
			}
			if (rc < 0) {
				c->error = c->rd.error;
				return NULL;
			}
			if (!done && ++iter % 2003 == 0 && do_reset(c))
				return NULL;
		}
		if (done && !any) {
			/* writers gone: stop once every CPU reads empty */
			bool empty = true;

			for (i = 0; i < nr_cpus; i++)
				empty &= kreader_unread(&ctx[i].rd) == 0;
			if (empty || ++idle_rounds > 1000)
				return NULL;
		}
		if (!any)
			sched_yield();
	}
}

int main(int argc, char **argv)
{
	u64 total = argc > 1 ? strtoull(argv[1], NULL, 0) : 10000000;
	u32 nr_pages = argc > 3 ? (u32)atoi(argv[3]) : 16;
	enum rb_mode mode = RB_MODE_OVERWRITE;
	u64 sum_written = 0, sum_consumed = 0, sum_lost = 0, sum_reset = 0;
	u64 sum_refused = 0, sum_swaps = 0, sum_busy = 0, sum_resets = 0;
	u64 sum_clamps = 0, sum_dropped = 0, sum_unread = 0;
	const char *how = argc > 5 ? argv[5] : "kernel";
	bool raw = !strncmp(how, "raw", 3);
	u32 window = argc > 6 ? (u32)atoi(argv[6]) : 0;
	pthread_t cons;
	int i;

	if (argc > 2)
		nr_cpus = atoi(argv[2]);
	if (argc > 4 && !strcmp(argv[4], "keep"))
		mode = RB_MODE_NO_OVERWRITE;
	if (nr_cpus < 1 || nr_cpus > MAX_CPUS)
		return 2;

	for (i = 0; i < nr_cpus; i++) {
		struct cpu_ctx *c = &ctx[i];

		if (tb_init(&c->tb, i, nr_pages, mode))
			return 2;
		kreader_init(&c->rd, c->tb.meta, c->tb.pages, nr_pages,
			     strcmp(how, "raw") ? swap_kernel : swap_raw,
			     &c->tb.cpu);
		c->rd.swap_window = window;
		c->rd.commit_first = raw;
		c->to_write = total / nr_cpus;
		rb_enable(&c->tb.cpu);
	}
	pthread_create(&cons, NULL, consumer, NULL);
	for (i = 0; i < nr_cpus; i++)
		pthread_create(&ctx[i].thread, NULL, writer, &ctx[i]);
	for (i = 0; i < nr_cpus; i++)
		pthread_join(ctx[i].thread, NULL);
	__atomic_store_n(&writers_done, 1, __ATOMIC_RELEASE);
	pthread_join(cons, NULL);

	for (i = 0; i < nr_cpus; i++) {
		struct cpu_ctx *c = &ctx[i];
		struct rb_stats st;
		u64 accounted;
		int ok;

		rb_get_stats(&c->tb.cpu, &st);
		accounted = c->consumed + c->lost + c->reset_discarded +
			    c->reset_unreported;
		ok = !c->error && accounted == c->written &&
		     c->next + c->gap_extra == c->written &&
		     rb_check(&c->tb.cpu) == 0 && kreader_unread(&c->rd) == 0;
		ck_begin();
		printf("# cpu%d %s: written %llu = consumed %llu"
		       " + lost %llu + discarded by %llu resets %llu"
		       " (+%llu overrun unreported at reset)%s%s\n",
		       i, mode ? "no-overwrite" : "overwrite",
		       (unsigned long long)c->written,
		       (unsigned long long)c->consumed,
		       (unsigned long long)c->lost,
		       (unsigned long long)c->resets,
		       (unsigned long long)c->reset_discarded,
		       (unsigned long long)c->reset_unreported,
		       c->error ? ": " : "", c->error ? c->error : "");
		EXPECT(ok, "accounted %llu next %llu+%llu rb_check %d "
		       "unread %llu%s%s", (unsigned long long)accounted,
		       (unsigned long long)c->next,
		       (unsigned long long)c->gap_extra,
		       rb_check(&c->tb.cpu),
		       (unsigned long long)kreader_unread(&c->rd),
		       c->error ? ": " : "", c->error ? c->error : "");
		ck_end("concurrency cpu%d %s: every event accounted for", i,
		       mode ? "no-overwrite" : "overwrite");
		sum_written += c->written;
		sum_consumed += c->consumed;
		sum_lost += c->lost + c->reset_unreported;
		sum_reset += c->reset_discarded;
		sum_refused += c->refused;
		sum_swaps += c->rd.swaps;
		sum_busy += c->rd.swap_fail;
		sum_unread += c->rd.swap_unread;
		sum_resets += c->resets;
		sum_clamps += c->clamps_seen;
		sum_dropped += st.dropped;
	}
	printf("# total: %llu written, %llu consumed, %llu lost to overwrite, "
	       "%llu discarded by %llu resets; %llu swaps (%llu -EAGAIN, "
	       "%llu over an unread page refused), "
	       "%llu refused writes, %llu clamped timestamps read, "
	       "%llu dropped since last reset\n",
	       (unsigned long long)sum_written,
	       (unsigned long long)sum_consumed,
	       (unsigned long long)sum_lost, (unsigned long long)sum_reset,
	       (unsigned long long)sum_resets, (unsigned long long)sum_swaps,
	       (unsigned long long)sum_busy, (unsigned long long)sum_unread,
	       (unsigned long long)sum_refused,
	       (unsigned long long)sum_clamps,
	       (unsigned long long)sum_dropped);
	ck_begin();
	EXPECT(sum_written >= total - (u64)nr_cpus,
	       "only %llu events written", (unsigned long long)sum_written);
	ck_end("concurrency: the writers wrote their %llu events",
	       (unsigned long long)total);
	for (i = 0; i < nr_cpus; i++)
		tb_free(&ctx[i].tb);
	return ck_exit();
}
