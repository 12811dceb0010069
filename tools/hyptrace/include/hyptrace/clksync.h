/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lining the board's trace clock up with a clock of this machine, the way
 * NTP and trace-cmd's PTP-like time sync do: this side notes its clock
 * (t0), asks the board for its trace clock, and notes its clock again when
 * the answer is in (t1). The board read its clock at some host time inside
 * [t0, t1]; taking the middle, the offset (host - board) is known to within
 * half the round trip. Of several exchanges the quickest one bounds it
 * best. Both clocks must run at the same rate, which holds for QEMU's
 * guest clock against CLOCK_BOOTTIME or CLOCK_MONOTONIC here (not under
 * -icount, where a guest nanosecond is an instruction).
 */
#ifndef HYPTRACE_TOOLS_CLKSYNC_H
#define HYPTRACE_TOOLS_CLKSYNC_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* One exchange, all in ns */
struct cs_sample {
	int64_t t0;		/* this machine, before the question left */
	int64_t t1;		/* this machine, when the answer was in */
	int64_t board;		/* the board's trace clock, in the answer */
};

struct clksync_estimate {
	int64_t offset;		/* host = board + offset */
	int64_t bound;		/* |error| <= bound: half the round trip */
	unsigned int samples;	/* exchanges it was chosen from */
};

/*
 * The largest time an exchange may hold, in ns (2^62, 146 years): both
 * clocks are far below it, and with every time in [0, CS_MAX_NS) the
 * offsets, their differences and their spread stay within 64 bits.
 */
#define CS_MAX_NS	(1LL << 62)

/*
 * The estimate from the exchange with the shortest round trip of @n; 0,
 * or -1 with the reason (none, a sample whose t1 is before its t0, or a
 * time outside [0, CS_MAX_NS): a board that says INT64_MAX).
 */
int clksync_estimate(const struct cs_sample *s, unsigned int n,
		struct clksync_estimate *e, char *err, size_t errlen);

/*
 * Do two estimates agree, their error bands overlapping? If not, the
 * clocks drifted apart (or one stopped) between them.
 */
int clksync_agree(const struct clksync_estimate *a, const struct clksync_estimate *b);

/*
 * The POSIX clock behind a trace clock's name, as trace_clock and
 * trace-cmd record -C spell them: boot, mono, mono_raw; and realtime,
 * which only this side offers (wall-clock time). 0, or -1 if there is
 * none (local, global, counter, ... are not readable from user space).
 */
int clksync_clockid(const char *name, clockid_t *id);

/* @id's time in ns */
int64_t clksync_now(clockid_t id);

/*
 * The clock's name out of trace_clock's text ("local [boot] mono" gives
 * "boot"), into @name; 0, or -1 if no name is in brackets.
 */
int clksync_selected_clock(const char *text, char *name, size_t len);

#endif /* HYPTRACE_TOOLS_CLKSYNC_H */
