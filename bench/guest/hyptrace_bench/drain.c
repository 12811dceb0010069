// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace-bench drain: the writer, one trial, and the search for the highest rate read
 * without loss.
 */
#include "bench.h"

/* drain --writer hvc: the null hypercall, and the events each one gives */
#define BENCH_HVC_BURST		BENCH_HVC_DIR "/burst"
#define BENCH_HVC_FUNC_ID	BENCH_HVC_DIR "/func_id"
#define BENCH_HVC_MAX_BURST	100000UL	/* the module's limit a write */
#define HVC_EVENTS		"hyp_enter,hyp_exit"
#define HVC_EVENTS_PER_CALL	2

/* drain: the writer writes a burst every tick of virtual time. */
#define TICK_NS			(10 * NSEC_PER_MSEC)
#define MAX_RATE		8192000UL
/* Below this share of its target rate the writer is the bottleneck. */
#define WRITER_BOUND_SHARE	0.9
/*
 * How long the reader may take, after the last write, to show the last
 * event: trace_pipe only sees new data on the 100 ms poll timer, so this is
 * several polls.
 */
#define READER_GRACE_MS		1000

/* How the reader's pages leave: local (a file), virtio (-serial) or net */
static const char *drain_transport(const struct drain_setup *d)
{
	if (d->net)
		return "net";
	return d->agent ? "virtio" : "local";
}

static bool trial_zero_loss(const struct trial *t)
{
	return t->read.events == t->total && !t->read.lost;
}

static bool trial_writer_bound(const struct trial *t)
{
	return t->achieved < WRITER_BOUND_SHARE * t->target;
}

/*
 * The writer was behind its schedule after most bursts, so it hardly ever
 * slept: it wrote as fast as it could, and CPU 1 was never idle.
 */
static bool trial_writer_flat_out(const struct trial *t)
{
	return t->slept < t->ticks / 2;
}

unsigned long long trial_lost(const struct trial *t)
{
	return t->total > t->read.events ? t->total - t->read.events : 0;
}

/* The hypercall writer: @calls null hypercalls in as few writes as can be. */
static void write_hvc_calls(int fd, unsigned long long calls)
{
	unsigned long long n;
	char text[24];
	int len;

	for (; calls; calls -= n) {
		n = calls < BENCH_HVC_MAX_BURST ? calls : BENCH_HVC_MAX_BURST;
		len = snprintf(text, sizeof(text), "%llu\n", n);
		if (pwrite(fd, text, len, 0) != len)
			die("cannot write %llu to " BENCH_HVC_BURST ": %s", n,
			    strerror(errno));
	}
}

/*
 * Write @total events in equal bursts, one every TICK_NS, sleeping between
 * bursts; a writer behind schedule goes on without sleeping. The selftest
 * writer's have ids 1..@total; the hypercall writer makes @total / 2 calls.
 * Returns the rate achieved: events per second over the scheduled
 * duration, or over the time actually taken if longer; *@slept counts the
 * bursts done ahead of schedule (the last one too, though nothing follows
 * to sleep for).
 */
static double write_bursts(const struct drain_setup *d,
			   unsigned long long total, unsigned long ticks,
			   unsigned long *slept)
{
	unsigned long long start, elapsed, id = 1, until;
	unsigned long long writes = total / d->per_write;
	unsigned long tick;

	*slept = 0;
	start = monotonic_ns();
	for (tick = 1; tick <= ticks; tick++) {
		until = writes * tick / ticks;
		if (d->hvc) {
			write_hvc_calls(d->write_fd, until - id + 1);
			id = until + 1;
		}
		for (; id <= until; id++)
			if (!write_event_id(d->write_fd, id))
				die("write_event refused event %llu: %s", id,
				    strerror(errno));
		if (monotonic_ns() >= start + tick * TICK_NS)
			continue;
		(*slept)++;
		if (tick < ticks)
			sleep_until_ns(start + tick * TICK_NS);
	}
	elapsed = monotonic_ns() - start;
	if (elapsed < ticks * TICK_NS)
		elapsed = ticks * TICK_NS;
	return (double)total * NSEC_PER_SEC / elapsed;
}

/*
 * The same writer with hyptrace record as the reader. The recorder sets up
 * the buffer itself (-b, -e EVENT), as a user's recording would, and
 * drains whatever is left once the writer is done, so it needs no grace
 * time: loss is only what it let the writer overwrite meanwhile.
 *
 * The hypervisor's count of what it wrote must be the writer's. With the
 * hypercall writer it may be higher: the host kernel's own hypercalls on
 * the CPU (a clock update) are traced too. Those few count as events like
 * the writer's, to be recorded and lost with them, but not in the rate.
 */
static void record_trial(const struct drain_setup *d, unsigned long ticks,
			 struct trial *t)
{
	struct record_counts *c = &t->rec;
	unsigned long long cpu0;
	struct recorder rec;
	pid_t spin;

	rec.agent = d->agent;
	rec.net = d->net;
	rec.key = d->key;
	spin = spinner_start(d->net ? d->spin_cpu : -1);
	recorder_start(&rec, d->self, d->kb, d->events, d->cpu,
		       d->reader_cpu);
	spinner_stop(spin);
	cpu0 = recorder_cpu_ns(&rec);
	t->achieved = write_bursts(d, t->total, ticks, &t->slept);
	c->run_cpu_ns = recorder_cpu_ns(&rec) - cpu0;
	spin = spinner_start(d->net ? d->spin_cpu : -1);
	recorder_finish(&rec, d->cpu, c);
	spinner_stop(spin);

	if (c->written < t->total || (!d->hvc && c->written != t->total))
		die("the hypervisor wrote %llu events on CPU %lu, the writer %llu: another writer?",
		    c->written, d->cpu, t->total);
	t->other = c->written - t->total;
	t->read.events = c->events > t->other ? c->events - t->other : 0;
	t->read.lost = c->lost + c->dropped + c->lost_unknown;
	t->read.saw_last = c->events == c->written;

	fprintf(stderr,
		"drain: %s %lu KiB, hyptrace %s (%s), %s: target %lu/s achieved %.0f/s (ahead of schedule in %lu of %lu bursts): %llu written (+%llu not the writer's), %llu recorded, %llu lost (%llu%s counted lost, %llu dropped); %llu pages, %.1f events a page; recorder CPU %.1f ms, %.1f ms of it while writing\n",
		d->remote.name, d->kb, d->agent ? "agent" : "record",
		drain_transport(d), d->events, t->target, t->achieved,
		t->slept, t->ticks, t->total, t->other,
		c->events, trial_lost(t), c->lost, c->lost_unknown ? "+" : "",
		c->dropped, c->pages,
		c->pages ? (double)c->events / c->pages : 0.0,
		(double)c->cpu_ns / NSEC_PER_MSEC,
		(double)c->run_cpu_ns / NSEC_PER_MSEC);
}

void drain_trial(const struct drain_setup *d, unsigned long rate,
		 struct trial *t)
{
	unsigned long ticks = d->seconds * NSEC_PER_SEC / TICK_NS + 0.5;
	struct reader_want want = { 0 };
	struct reader rd;

	if (!ticks)
		ticks = 1;
	memset(t, 0, sizeof(*t));
	t->ticks = ticks;
	t->target = rate;
	/* Whole writes: a call of the hypercall writer is two events */
	t->total = (unsigned long long)((double)rate * ticks * TICK_NS /
					NSEC_PER_SEC / d->per_write + 0.5) *
		   d->per_write;

	if (d->record) {
		record_trial(d, ticks, t);
		return;
	}
	want.last_id = t->total;
	snprintf(want.hvc_match, sizeof(want.hvc_match), "%s", d->hvc_match);
	remote_configure(&d->remote, d->kb, d->events);
	reader_start(&rd, &d->remote, d->cpu, d->reader_cpu, &want);
	t->achieved = write_bursts(d, t->total, ticks, &t->slept);
	reader_finish(&rd, READER_GRACE_MS, &t->read);
	remote_stop(&d->remote);

	fprintf(stderr,
		"drain: %s %lu KiB, %s: target %lu/s achieved %.0f/s (ahead of schedule in %lu of %lu bursts): %llu written, %llu read, %llu lost (%llu in LOST lines); reader CPU %.1f ms\n",
		d->remote.name, d->kb, d->events, t->target, t->achieved,
		t->slept, t->ticks, t->total,
		t->read.events, trial_lost(t), t->read.lost,
		(double)t->read.cpu_ns / NSEC_PER_MSEC);
}

struct drain_result {
	unsigned int trials;
	struct trial last;		/* the latest trial */
	bool have_best;
	struct trial best;		/* highest achieved rate at zero loss */
	bool have_loss;
	struct trial first_loss;	/* lowest target rate with loss */
	bool writer_bound;		/* stopped as the writer fell behind */
};

/*
 * The first loss came with the writer flat out: no rate above the best was
 * tried at which the writer kept to its schedule, so the reader's own
 * limit was not found. What was lost then depends on how long the writer
 * kept CPU 1 busy (see bench/README.md on late timer wake-ups).
 */
static bool drain_loss_writer_bound(const struct drain_result *res)
{
	return res->have_loss && trial_writer_flat_out(&res->first_loss);
}

/* Run a trial at @rate and keep it if it is the best or first loss yet. */
static bool drain_try_rate(const struct drain_setup *d, unsigned long rate,
			   struct drain_result *res)
{
	struct trial t;

	drain_trial(d, rate, &t);
	res->trials++;
	res->last = t;
	if (trial_zero_loss(&t)) {
		if (!res->have_best || t.achieved > res->best.achieved)
			res->best = t;
		res->have_best = true;
		return true;
	}
	if (!res->have_loss || t.target < res->first_loss.target)
		res->first_loss = t;
	res->have_loss = true;
	return false;
}

/*
 * Double the rate while there is no loss and the writer keeps up; after
 * the first loss, bisect between the last good rate and it.
 */
static void drain_search(const struct drain_setup *d,
			 unsigned long first_rate, unsigned long steps,
			 struct drain_result *res)
{
	unsigned long good = 0, bad, rate, mid;

	for (rate = first_rate; ; rate *= 2) {
		if (!drain_try_rate(d, rate, res))
			break;
		/* No loss, but the reader was not pushed to its limit. */
		res->writer_bound = trial_writer_bound(&res->last);
		if (res->writer_bound || rate >= MAX_RATE)
			return;
		good = rate;
	}

	bad = rate;
	while (steps--) {
		mid = good + (bad - good) / 2;
		if (mid == good || mid == bad)
			break;
		if (drain_try_rate(d, mid, res))
			good = mid;
		else
			bad = mid;
	}
}

static void print_drain_result(const struct drain_setup *d,
			       const struct drain_result *res)
{
	char loss_rate[32] = "none", loss_pct[32] = "none";
	char loss_target[32] = "none";
	const struct trial *f = &res->first_loss;

	if (res->have_loss) {
		snprintf(loss_rate, sizeof(loss_rate), "%.0f", f->achieved);
		snprintf(loss_pct, sizeof(loss_pct), "%.1f",
			 100.0 * trial_lost(f) / f->total);
		snprintf(loss_target, sizeof(loss_target), "%lu", f->target);
	}
	printf("@bench drain remote=%s reader=%s transport=%s writer=%s kb=%lu zero_loss_rate=%.0f zero_loss_target=%lu loss_rate=%s loss_pct=%s loss_target=%s writer_bound=%d loss_writer_bound=%d trials=%u",
	       d->remote.name,
	       d->agent ? "agent" : d->record ? "record" : "pipe",
	       drain_transport(d),
	       d->hvc ? "hvc" : "event", d->kb,
	       res->have_best ? res->best.achieved : 0.0,
	       res->have_best ? res->best.target : 0, loss_rate, loss_pct,
	       loss_target, res->writer_bound, drain_loss_writer_bound(res),
	       res->trials);
	if (d->record) {
		char poll_ms[32];

		raw_poll_ms(poll_ms, sizeof(poll_ms));
		printf(" raw_poll_ms=%s", poll_ms);
	}
	printf("\n");
}

/*
 * The hypercall writer: bench_hvc's burst file, and how trace_pipe shows
 * its calls. Its first burst, made here with tracing off, is the only one
 * that asks whether the hypervisor answers; then every call is one
 * hyp_enter and one hyp_exit.
 */
static void drain_prepare_hvc(struct drain_setup *d)
{
	char text[32];

	if (access(BENCH_HVC_BURST, W_OK))
		die("bench_hvc module not loaded? %s: %s", BENCH_HVC_BURST,
		    strerror(errno));
	read_file(BENCH_HVC_FUNC_ID, text, sizeof(text));
	snprintf(d->hvc_match, sizeof(d->hvc_match), "reason=hvc func_id=%#lx",
		 strtoul(text, NULL, 10));
	d->write_fd = open(BENCH_HVC_BURST, O_WRONLY | O_CLOEXEC);
	if (d->write_fd < 0)
		die("cannot open %s: %s", BENCH_HVC_BURST, strerror(errno));
	remote_stop(&d->remote);
	write_hvc_calls(d->write_fd, 1);
}

/*
 * The highest CPU we may use that is neither the writer's nor the
 * reader's (CPU 0 takes the network's interrupts).
 */
static long spare_cpu(const struct drain_setup *d)
{
	cpu_set_t set;
	long cpu;

	if (sched_getaffinity(0, sizeof(set), &set))
		die("sched_getaffinity: %s", strerror(errno));
	for (cpu = CPU_SETSIZE - 1; cpu >= 0; cpu--)
		if (CPU_ISSET(cpu, &set) && cpu != (long)d->cpu &&
		    cpu != (long)d->reader_cpu)
			return cpu;
	return -1;
}

/*
 * Shared by drain and record-cpu: the writer runs here, on --cpu, and the
 * reader on --reader-cpu.
 */
void drain_prepare(struct drain_setup *d, const struct options *o,
		   const char *remote, bool record, bool hvc)
{
	ssize_t n;

	*d = (struct drain_setup) {
		.cpu = o->cpu,
		.reader_cpu = o->reader_cpu,
		.kb = o->buffer_kb,
		.seconds = o->seconds,
		.record = record,
		.hvc = hvc,
		.events = hvc ? HVC_EVENTS : "selftest",
		.per_write = hvc ? HVC_EVENTS_PER_CALL : 1,
	};
	if (d->cpu == d->reader_cpu)
		usage_error("--cpu and --reader-cpu must differ");
	if (record && strcmp(remote, "hypervisor"))
		usage_error("hyptrace record records the hypervisor remote only");
	if (hvc && strcmp(remote, "hypervisor"))
		usage_error("--writer hvc writes to the hypervisor remote only");
	check_cpu_allowed(d->reader_cpu);
	if (record) {
		if (access(RECORDER, X_OK))
			die("no recorder: %s: %s (make tools, then rebuild the initramfs)",
			    RECORDER, strerror(errno));
		/* The recorder runs us again as its command */
		n = readlink("/proc/self/exe", d->self, sizeof(d->self) - 1);
		if (n < 0)
			die("readlink /proc/self/exe: %s", strerror(errno));
		d->self[n] = '\0';
	}
	d->spin_cpu = spare_cpu(d);	/* before we give up the others */
	pin_to_cpu(d->cpu);
	remote_open(&d->remote, remote);
	if (hvc)
		drain_prepare_hvc(d);
	else
		d->write_fd = remote_open_write_event(&d->remote);
}

void drain_cleanup(struct drain_setup *d)
{
	close(d->write_fd);
	remote_stop(&d->remote);
	remote_write(&d->remote, "trace", "0\n");
}

int cmd_drain(const struct options *o)
{
	struct drain_result res = { 0 };
	struct drain_setup d;

	drain_prepare(&d, o, o->remote, o->record, o->hvc);
	if (o->net && !o->record)
		usage_error("--net goes with --reader record or agent");
	if (o->agent && o->net && !o->key)
		usage_error("--reader agent --net wants --key FILE, the agent's key");
	if (o->key && !(o->agent && o->net))
		usage_error("--key goes with --reader agent --net");
	d.agent = o->agent;
	d.net = o->net;
	d.key = o->key;
	drain_search(&d, o->first_rate, o->steps, &res);
	drain_cleanup(&d);
	print_drain_result(&d, &res);
	return 0;
}
