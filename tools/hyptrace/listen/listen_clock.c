// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace listen: lining the board's trace clock up with this machine's.
 * After every round, with the link quiet, the listener asks the agent for
 * its clock LST_CLOCK_SAMPLES times and keeps the quickest exchange
 * (hyptrace/clksync.h). It says what it found after each round and at the
 * end, and with --align writes the offset into the trace.dat as trace-cmd's
 * OFFSET option, so that trace-cmd report (and hyptrace's own readers)
 * show the events on this machine's clock, beside a trace recorded here.
 */
#include <stdio.h>
#include <string.h>

#include "hyptrace/errmsg.h"
#include "hyptrace/cmdline.h"
#include "listen.h"

#define SUB		"listen"

int listen_clock_init(struct lst *l, const char *align)
{
	struct lst_clock *k = &l->clk;

	k->host_name = align ? align : "boot";
	k->align = align != NULL;
	if (clksync_clockid(k->host_name, &k->host_id)) {
		cmdline_err(SUB, "--align %s: this machine's clocks are boot, mono, mono_raw and realtime",
		       k->host_name);
		return -1;
	}
	return 0;
}

void listen_clock_burst(struct lst *l)
{
	struct lst_clock *k = &l->clk;

	if (k->failed)
		return;
	k->want = LST_CLOCK_SAMPLES;
	k->n = 0;
}

bool listen_clock_busy(const struct lst *l)
{
	return l->clk.want && !l->clk.failed && l->ctl >= 0;
}

void listen_clock_give_up(struct lst *l, const char *why)
{
	printf("hyptrace listen: %s: the trace's timestamps stay on the board's clock\n",
	       why);
	l->clk.failed = true;
	l->clk.want = 0;
	l->clk.asked = 0;
}

int listen_clock_poll(struct lst *l)
{
	struct lst_clock *k = &l->clk;
	char err[256];

	/*
	 * An asked question waits for its answer, however long: every agent
	 * of this protocol version (hello's) answers "clock", a slow one (a
	 * loaded board or host) later, and a timer here would only turn a
	 * slow answer into a lost alignment. An agent that never answers
	 * holds only the quit, up to its deadline (listen.c).
	 */
	if (!listen_clock_busy(l) || k->asked)
		return 0;
	k->asked = clksync_now(k->host_id);
	if (vtproto_send_raw(l->ctl, "clock\n", err, sizeof(err))) {
		cmdline_err(SUB, "%s: %s", l->tp->ctl_name(l), err);
		return -1;
	}
	return 0;
}

static void fmt_ns(char *buf, size_t len, int64_t ns)
{
	uint64_t a = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;

	snprintf(buf, len, "%s%llu.%09llu s", ns < 0 ? "- " : "+ ",
		 (unsigned long long)(a / 1000000000),
		 (unsigned long long)(a % 1000000000));
}

/* A burst is complete: its estimate, against the rounds' before it */
static int take_estimate(struct lst *l, char *err, size_t errlen)
{
	struct lst_clock *k = &l->clk;
	struct clksync_estimate e;
	char off[48];

	if (clksync_estimate(k->s, k->n, &e, err, errlen))
		return -1;
	fmt_ns(off, sizeof(off), e.offset);
	printf("hyptrace listen: clock after round %u: the board's %s %s = this machine's %s, within %lld us (best of %u round trips)\n",
	       l->rounds_done, k->board, off, k->host_name,
	       (long long)(e.bound + 999) / 1000, e.samples);
	if (!k->rounds) {
		k->first = k->best = e;
		k->lo = k->hi = e.offset;
	} else {
		if (!clksync_agree(&k->first, &e) && !k->drift) {
			k->drift = true;
			fmt_ns(off, sizeof(off), e.offset - k->first.offset);
			printf("hyptrace listen: the offset moved %s since the first round, more than the two bounds: the clocks drift apart, or the guest was paused\n",
			       off);
		}
		if (e.bound < k->best.bound)
			k->best = e;
		k->lo = e.offset < k->lo ? e.offset : k->lo;
		k->hi = e.offset > k->hi ? e.offset : k->hi;
	}
	k->rounds++;
	return 0;
}

int listen_clock_answer(struct lst *l, const struct vt_msg *m, char *err,
		     size_t errlen)
{
	struct lst_clock *k = &l->clk;
	int64_t board;
	int64_t now = clksync_now(k->host_id);
	char why[96];
	int r;

	r = vtproto_parse_clock_now(m->payload, m->len, k->board, sizeof(k->board),
			       &board, err, errlen);
	if (r < 0)
		return -1;
	/* an answer after giving up, or nobody asked: nothing to time */
	if (!k->asked || k->failed)
		return 0;
	if (!r) {
		snprintf(why, sizeof(why),
			 "the board's trace clock '%.32s' cannot be read from user space",
			 k->board);
		listen_clock_give_up(l, why);
		return 0;
	}
	k->s[k->n++] = (struct cs_sample){ k->asked, now, board };
	k->asked = 0;
	if (--k->want)
		return 0;
	return take_estimate(l, err, errlen);
}

int listen_clock_offset(const struct lst *l, char *buf, size_t len)
{
	if (!l->clk.align || !l->clk.rounds)
		return -1;
	snprintf(buf, len, "%lld", (long long)l->clk.best.offset);
	return 0;
}

void listen_clock_summary(const struct lst *l)
{
	const struct lst_clock *k = &l->clk;
	char off[48];

	if (!k->rounds) {
		if (k->align)
			printf("  not lined up with this machine's clock: no clock answer from the agent\n");
		return;
	}
	fmt_ns(off, sizeof(off), k->best.offset);
	/* offsets within +-2^62 (CS_MAX_NS): the spread fits unsigned */
	printf("  clock: the board's %s %s = this machine's %s, within %lld us; the rounds' offsets spread %llu us\n",
	       k->board, off, k->host_name,
	       (long long)(k->best.bound + 999) / 1000,
	       ((unsigned long long)(k->hi - k->lo) + 999) / 1000);
	if (k->align)
		printf("  timestamps on this machine's %s clock (OFFSET %lld ns in the file)\n",
		       k->host_name, (long long)k->best.offset);
	if (!strcmp(k->host_name, "realtime"))
		return;
	printf("  to merge with a trace taken here by trace-cmd record -C %s: trace-cmd report -i host.dat -i %s",
	       k->host_name, l->output);
	if (k->align)
		printf("\n");
	else
		printf(" --ts-offset %lld (or listen --align %s)\n",
		       (long long)k->best.offset, k->host_name);
}
