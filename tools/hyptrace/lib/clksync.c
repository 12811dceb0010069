// SPDX-License-Identifier: GPL-2.0
/* The board's trace clock against this machine's (clksync.h). */
#include <stdio.h>
#include <string.h>

#include "hyptrace/clksync.h"
#include "hyptrace/compiler.h"
#include "hyptrace/errmsg.h"

int clksync_estimate(const struct cs_sample *s, unsigned int n,
		struct clksync_estimate *e, char *err, size_t errlen)
{
	const struct cs_sample *best = NULL;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (s[i].board < 0 || s[i].board >= CS_MAX_NS)
			return errmsg(err, errlen,
				      "the board's clock says %lld ns, not a time below 2^62 ns (146 years)",
				      (long long)s[i].board);
		if (s[i].t0 < 0 || s[i].t0 >= CS_MAX_NS ||
		    s[i].t1 < 0 || s[i].t1 >= CS_MAX_NS)
			return errmsg(err, errlen,
				      "this machine's clock says %lld ns, not a time below 2^62 ns",
				      (long long)(s[i].t0 < 0 || s[i].t0 >= CS_MAX_NS ?
						  s[i].t0 : s[i].t1));
		if (s[i].t1 < s[i].t0)
			return errmsg(err, errlen,
				      "an answer came %lld ns before its question",
				      (long long)(s[i].t0 - s[i].t1));
		if (!best || s[i].t1 - s[i].t0 < best->t1 - best->t0)
			best = &s[i];
	}
	if (!best)
		return errmsg(err, errlen, "no exchange to estimate from");
	/* the middle of [t0, t1], rounded up, bounds the error both ways */
	e->bound = (best->t1 - best->t0 + 1) / 2;
	e->offset = best->t0 + e->bound - best->board;
	e->samples = n;
	return 0;
}

int clksync_agree(const struct clksync_estimate *a, const struct clksync_estimate *b)
{
	int64_t d = a->offset - b->offset;

	return (d < 0 ? -d : d) <= a->bound + b->bound;
}

static const struct {
	const char *name;
	clockid_t id;
} clocks[] = {
	{ "boot", CLOCK_BOOTTIME },
	{ "mono", CLOCK_MONOTONIC },
	{ "mono_raw", CLOCK_MONOTONIC_RAW },
	{ "realtime", CLOCK_REALTIME },
};

int clksync_clockid(const char *name, clockid_t *id)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(clocks); i++) {
		if (!strcmp(name, clocks[i].name)) {
			*id = clocks[i].id;
			return 0;
		}
	}
	return -1;
}

int64_t clksync_now(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int clksync_selected_clock(const char *text, char *name, size_t len)
{
	const char *open = strchr(text, '[');
	const char *close = open ? strchr(open, ']') : NULL;

	if (!close || close == open + 1 || (size_t)(close - open - 1) >= len)
		return -1;
	memcpy(name, open + 1, close - open - 1);
	name[close - open - 1] = '\0';
	return 0;
}
