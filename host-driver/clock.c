// SPDX-License-Identifier: GPL-2.0
/*
 * Keeping the hypervisor's timestamps on CLOCK_BOOTTIME.
 *
 * The hypervisor stamps an event at counter value c with
 * epoch_ns + ((c - epoch_cyc) * mult >> shift); the kernel's trace files
 * print those stamps next to nothing but themselves, so they are only useful
 * if they agree with the kernel's own clock. Unlike pKVM, which measures the
 * counter rate for 100 ms before it lets tracing start, the module takes the
 * rate from CNTFRQ_EL0, which is what the kernel's arch timer clocksource is
 * built from: the very first event is then right, and enabling never waits.
 *
 * While tracing is on, a work item compares every 500 ms what the hypervisor
 * would stamp for the counter value of a fresh CLOCK_BOOTTIME snapshot with
 * that snapshot's time, and re-anchors the epoch on the snapshot when they
 * differ, so that rounding in mult never adds up to anything visible. The
 * rate itself stays CNTFRQ's: a kernel clock that NTP slews away from it
 * would drift between checks, and the check says so on the console.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/clocksource.h>
#include <linux/irqflags.h>
#include <linux/clocksource_ids.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/time64.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

#include <asm/arch_timer.h>

#include "compat.h"
#include "hyptrace.h"

/* As clocksources with a counter wider than 32 bits: 10 minutes */
#define CLOCK_MAX_CONVERSION_S	600
/* Often enough to catch a deviation while it is still tiny */
#define CLOCK_CHECK_MS		500

static void check_work(struct work_struct *work);

static struct hyptrace_clock {
	u32 mult;
	u32 shift;
	u64 epoch_ns;
	u64 epoch_cyc;
	/* Re-anchor before (c - epoch_cyc) * mult could overflow 64 bits */
	u64 max_delta_cyc;
	struct delayed_work work;
} clk = {
	.work = __DELAYED_WORK_INITIALIZER(clk.work, check_work, 0),
};

/*
 * The largest |hypervisor stamp - CLOCK_BOOTTIME| the checks have seen, in
 * ns, since the module was loaded: what a user reads to know how far to
 * trust the timestamps.
 */
static unsigned long long clock_worst_error_ns;
module_param(clock_worst_error_ns, ullong, 0444);
MODULE_PARM_DESC(clock_worst_error_ns,
		 "largest hypervisor trace clock error seen, in ns");

/* A CLOCK_BOOTTIME time and the arch counter's value at that time */
struct clock_sample {
	u64 boot_ns;
	u64 cycles;
};

#if IS_ENABLED(CONFIG_TRACE_REMOTE)
/* Kernels with trace_remote take both at once, as pKVM's hyp_trace.c does */
static int sample(struct clock_sample *s)
{
	struct system_time_snapshot snap;

	ktime_get_snapshot_id(CLOCK_BOOTTIME, &snap);
	if (!snap.valid)
		return -EAGAIN;
	/* The hypervisor reads the arch counter: so must the snapshot */
	if (snap.cs_id != CSID_ARM_ARCH_COUNTER)
		return -EOPNOTSUPP;
	s->boot_ns = ktime_to_ns(snap.systime);
	s->cycles = snap.cycles;
	return 0;
}
#else
/* Tries for a narrow window; under a busy host one may be stretched */
#define SAMPLE_TRIES	16

/*
 * Older kernels have no snapshot of CLOCK_BOOTTIME with its counter value:
 * read the counter on both sides of the clock, with interrupts off, and
 * pair the clock with the middle. The error is at most half the window
 * between the two counter reads: a few hundred ns, unless this CPU was
 * held up in between (a vCPU the host did not run for a while: 1 ms was
 * seen under a loaded host, and every event stamped on that anchor was a
 * millisecond early). So the narrowest of a few windows is kept, and the
 * tries stop at one of a microsecond or less.
 */
static int sample(struct clock_sample *s)
{
	u64 before, after, best = U64_MAX, boot_ns;
	u64 good = max_t(u64, arch_timer_get_cntfrq() / USEC_PER_SEC, 1);
	unsigned long flags;
	int i;

	for (i = 0; i < SAMPLE_TRIES && best > good; i++) {
		local_irq_save(flags);
		before = __arch_counter_get_cntvct();
		boot_ns = ktime_get_boottime_ns();
		after = __arch_counter_get_cntvct();
		local_irq_restore(flags);
		if (after - before < best) {
			best = after - before;
			s->boot_ns = boot_ns;
			s->cycles = before + best / 2;
		}
	}
	return 0;
}
#endif

/*
 * Hand the hypervisor the anchor (@ns, @cyc), remembered only once it is
 * taken. It refuses (CLOCK_STEP) a clock that would go backwards or leap
 * ahead; events are then stamped on as before, and one line says so unless
 * the caller has a better try (@quiet).
 */
static int push(u64 ns, u64 cyc, bool quiet)
{
	int ret;

	ret = hyptrace_call(HYPTRACE_CALL_TRACE_UPDATE_CLOCK, clk.mult,
			    clk.shift, ns, cyc, NULL,
			    HYPTRACE_QUIET(HYPTRACE_RET_CLOCK_STEP));
	if (!ret) {
		clk.epoch_ns = ns;
		clk.epoch_cyc = cyc;
	} else if (ret == -ERANGE && !quiet) {
		pr_warn_ratelimited("hyp trace clock: the hypervisor refused %llu ns at counter %llu (CLOCK_STEP); it keeps its clock\n",
				    ns, cyc);
	}
	return ret;
}

/* What the hypervisor stamps at counter value @cyc, by the last anchor */
static u64 hyp_stamp(u64 cyc)
{
	return clk.epoch_ns + mul_u64_u32_shr(cyc - clk.epoch_cyc, clk.mult,
					      clk.shift);
}

/*
 * Re-anchor on @snap, whose counter value the hypervisor stamps @stamp,
 * without moving its time backwards, which it would refuse: where it is
 * ahead of CLOCK_BOOTTIME the anchor is its own stamp, plus the 1 ns that
 * rounding the product in two parts can lose.
 */
static int reanchor(const struct clock_sample *snap, u64 stamp, bool quiet)
{
	return push(max(snap->boot_ns, stamp + 1), snap->cycles, quiet);
}

static void check_work(struct work_struct *work)
{
	struct clock_sample snap;
	u64 delta, stamp, boot, err;

	if (sample(&snap))
		goto resched;

	boot = snap.boot_ns;
	delta = snap.cycles - clk.epoch_cyc;
	stamp = hyp_stamp(snap.cycles);
	err = abs_diff(stamp, boot);
	clock_worst_error_ns = max(clock_worst_error_ns, err);
	if (err > NSEC_PER_USEC)
		pr_warn_ratelimited("hyp trace clock off by %llu ns, re-anchored\n",
				    err);
	/* Ahead, it waits for CLOCK_BOOTTIME: at the same rate, by nothing */
	if (stamp < boot || delta >= clk.max_delta_cyc)
		reanchor(&snap, stamp, false);

resched:
	schedule_delayed_work(&clk.work, msecs_to_jiffies(CLOCK_CHECK_MS));
}

/* A CLOCK_BOOTTIME sample and CNTFRQ's mult and shift, in @snap and clk */
static int prepare(struct clock_sample *snap)
{
	u32 freq = arch_timer_get_cntfrq();
	int ret;

	ret = sample(snap);
	if (ret) {
		pr_err("no CLOCK_BOOTTIME snapshot of the arch counter (%d)\n",
		       ret);
		return ret;
	}
	if (!freq) {
		pr_err("CNTFRQ_EL0 is 0: no counter rate for the trace clock\n");
		return -EINVAL;
	}
	clocks_calc_mult_shift(&clk.mult, &clk.shift, freq, NSEC_PER_SEC,
			       CLOCK_MAX_CONVERSION_S);
	/* Half of the overflow bound: the check may run late */
	clk.max_delta_cyc = div_u64(U64_MAX, clk.mult) / 2;
	return 0;
}

/*
 * The early buffer was just adopted: the first clock update moves its
 * stamps, taken on the hypervisor's boot clock (nanoseconds of counter at
 * CNTFRQ since 0), onto CLOCK_BOOTTIME, and says by how much. Events from
 * before CLOCK_BOOTTIME's zero (on a NO_HZ kernel it stalls while idle
 * until the arch counter becomes its clocksource) cannot be stamped on
 * it: the hypervisor starts their pages at 0, in order, spacing kept, and
 * says how late that makes them. Tracing is off: no work.
 */
int hyptrace_clock_align(void)
{
	struct clock_sample snap;
	struct arm_smccc_res res;
	int ret;

	ret = prepare(&snap);
	if (ret)
		return ret;
	ret = hyptrace_call(HYPTRACE_CALL_TRACE_UPDATE_CLOCK, clk.mult,
			    clk.shift, snap.boot_ns, snap.cycles, &res, 0);
	if (ret)
		return ret;
	clk.epoch_ns = snap.boot_ns;
	clk.epoch_cyc = snap.cycles;
	pr_info("early buffer adopted: stamps moved by %lld ns onto CLOCK_BOOTTIME; events from before its zero start at 0, %lu ns late; others up to %lu ns late\n",
		(s64)res.a1, res.a2, res.a3);
	return 0;
}

/*
 * Give the hypervisor its clock before tracing starts, then keep it there.
 * Called from enable_tracing, under trace_remote's mutex, with the work
 * stopped.
 */
int hyptrace_clock_start(void)
{
	struct clock_sample snap;
	bool anchored = clk.mult;
	int ret;

	ret = prepare(&snap);
	if (ret)
		return ret;

	/*
	 * A freshly loaded buffer takes any clock. One still loaded from the
	 * last time tracing was on keeps the clock it was stamped with, which
	 * may be a nanosecond ahead: re-anchor as the checks do. If the
	 * hypervisor still refuses (someone else moved its clock), tracing
	 * starts on its clock, and the checks report how far off it is.
	 */
	ret = push(snap.boot_ns, snap.cycles, anchored);
	if (ret == -ERANGE && anchored)
		ret = reanchor(&snap, hyp_stamp(snap.cycles), false);
	if (ret && ret != -ERANGE)
		return ret;

	schedule_delayed_work(&clk.work, msecs_to_jiffies(CLOCK_CHECK_MS));
	return 0;
}

void hyptrace_clock_stop(void)
{
	cancel_delayed_work_sync(&clk.work);
}

/*
 * Start or stop the hypervisor's writers. The clock goes first, so that the
 * first event is stamped right; it stops with tracing, since nothing is
 * stamped then. On failure both keep their old state.
 */
int hyptrace_tracing_enable(bool enable)
{
	int ret;

	if (enable) {
		ret = hyptrace_clock_start();
		if (ret)
			return ret;
	} else {
		hyptrace_clock_stop();
	}

	ret = hyptrace_call(HYPTRACE_CALL_TRACE_ENABLE, enable, 0, 0, 0, NULL,
			    0);
	if (ret) {
		if (enable)
			hyptrace_clock_stop();
		else
			hyptrace_clock_start();
	}
	return ret;
}
