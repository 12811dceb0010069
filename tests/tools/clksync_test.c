// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of lining the board's clock up with this machine's
 * (tools/hyptrace/lib/clksync.c, vtproto.c vtproto_parse_clock_now()): the
 * quickest exchange decides and bounds the offset; bands that overlap
 * agree; trace_clock's text gives the selected clock; clock_now payloads
 * right and wrong.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "hyptrace/clksync.h"
#include "hyptrace/vtproto.h"

static int test_estimate(void)
{
	/* host = board + 5000, round trips 400, 100 (odd placement), 900 */
	struct cs_sample s[] = {
		{ 10000, 10400, 10000 + 200 - 5000 },
		{ 20000, 20101, 20000 + 30 - 5000 },
		{ 30000, 30900, 30000 + 450 - 5000 },
	};
	struct clksync_estimate e;
	char err[128] = "";

	CHECK(!clksync_estimate(s, 3, &e, err, sizeof(err)), "%s", err);
	CHECK(e.samples == 3 && e.bound == 51, "bound %lld",
	      (long long)e.bound);
	/* the board read at host 20030: the estimate says 20051 */
	CHECK(e.offset == 5000 + 21 && e.offset - 5000 <= e.bound,
	      "offset %lld", (long long)e.offset);
	CHECK(!clksync_estimate(s, 1, &e, err, sizeof(err)) && e.offset == 5000 &&
	      e.bound == 200, "one sample");
	CHECK(clksync_estimate(s, 0, &e, err, sizeof(err)) && err[0], "none");
	s[1].t1 = s[1].t0 - 1;
	CHECK(clksync_estimate(s, 3, &e, err, sizeof(err)) &&
	      strstr(err, "before"), "answer before question: %s", err);
	return 0;
}

static int test_agree(void)
{
	struct clksync_estimate a = { .offset = 1000, .bound = 50 };
	struct clksync_estimate b = { .offset = 1090, .bound = 40 };

	CHECK(clksync_agree(&a, &b) && clksync_agree(&b, &a), "touching bands agree");
	b.offset = 1091;
	CHECK(!clksync_agree(&a, &b) && !clksync_agree(&b, &a), "apart");
	b.offset = -1000;
	CHECK(!clksync_agree(&a, &b), "other sign");
	return 0;
}

/*
 * A board that answers INT64_MAX one round and 0 the next: refused in one
 * line, and whatever clksync_estimate() takes, the estimates compare without
 * overflowing (UBSan would end the test)
 */
static int test_extremes(void)
{
	struct cs_sample max = { 1000, 1100, INT64_MAX };
	struct cs_sample neg = { 1000, 1100, -1 };
	struct cs_sample host = { INT64_MIN, 1100, 0 };
	struct cs_sample lo = { 0, 0, CS_MAX_NS - 1 };
	struct cs_sample hi = { CS_MAX_NS - 1, CS_MAX_NS - 1, 0 };
	struct clksync_estimate a, b;
	char err[128] = "";

	CHECK(clksync_estimate(&max, 1, &a, err, sizeof(err)) &&
	      strstr(err, "9223372036854775807") && !strchr(err, '\n'),
	      "INT64_MAX refused in one line: '%s'", err);
	CHECK(clksync_estimate(&neg, 1, &a, err, sizeof(err)) && err[0],
	      "a negative board time refused");
	CHECK(clksync_estimate(&host, 1, &a, err, sizeof(err)) &&
	      strstr(err, "this machine"), "host time refused: '%s'", err);
	CHECK(!clksync_estimate(&lo, 1, &a, err, sizeof(err)) &&
	      a.offset == -(CS_MAX_NS - 1), "%s", err);
	CHECK(!clksync_estimate(&hi, 1, &b, err, sizeof(err)) &&
	      b.offset == CS_MAX_NS - 1, "%s", err);
	CHECK(!clksync_agree(&a, &b) && !clksync_agree(&b, &a), "far apart");
	return 0;
}

static int test_clock_names(void)
{
	char name[16];
	clockid_t id;

	CHECK(!clksync_selected_clock("[boot]\n", name, sizeof(name)) &&
	      !strcmp(name, "boot"), "[boot]");
	CHECK(!clksync_selected_clock("local global [mono_raw] boot", name,
				 sizeof(name)) && !strcmp(name, "mono_raw"),
	      "among others");
	CHECK(clksync_selected_clock("local boot", name, sizeof(name)), "none");
	CHECK(clksync_selected_clock("[]", name, sizeof(name)), "empty");
	CHECK(clksync_selected_clock("[a_very_long_clock_name]", name,
				sizeof(name)), "too long");
	CHECK(!clksync_clockid("boot", &id) && id == CLOCK_BOOTTIME, "boot");
	CHECK(!clksync_clockid("mono", &id) && id == CLOCK_MONOTONIC, "mono");
	CHECK(!clksync_clockid("realtime", &id) && id == CLOCK_REALTIME,
	      "realtime");
	CHECK(clksync_clockid("local", &id) && clksync_clockid("x86-tsc", &id),
	      "kernel-only clocks");
	CHECK(clksync_now(CLOCK_BOOTTIME) > 0, "now");
	return 0;
}

static int parse(const char *p, char *clock, int64_t *ns)
{
	char err[128] = "";
	int r = vtproto_parse_clock_now(p, strlen(p), clock, 16, ns, err,
				   sizeof(err));

	if (r < 0 && (!err[0] || strchr(err, '\n')))
		return -2;	/* an error is one line */
	return r;
}

static int test_clock_now(void)
{
	char clock[16];
	int64_t ns = 0;
	char big[200];

	CHECK(parse("boot 123456789", clock, &ns) == 1 &&
	      !strcmp(clock, "boot") && ns == 123456789, "boot");
	CHECK(parse("local -", clock, &ns) == 0 && !strcmp(clock, "local"),
	      "unreadable");
	CHECK(parse("boot", clock, &ns) == -1, "no time");
	CHECK(parse(" 12", clock, &ns) == -1, "no name");
	CHECK(parse("boot -5", clock, &ns) == -1, "negative");
	CHECK(parse("boot 12x", clock, &ns) == -1, "junk");
	CHECK(parse("boot 99999999999999999999", clock, &ns) == -1,
	      "overflow");
	CHECK(parse("a_name_longer_than_16 1", clock, &ns) == -1,
	      "long name");
	memset(big, '1', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	big[0] = 'b';
	big[1] = ' ';
	CHECK(parse(big, clock, &ns) == -1, "long payload");
	return 0;
}

int main(void)
{
	ck_run("clksync: the quickest exchange decides", test_estimate);
	ck_run("clksync: bands agree or not", test_agree);
	ck_run("clksync: times beyond 2^62 ns refused", test_extremes);
	ck_run("clksync: clock names", test_clock_names);
	ck_run("clksync: clock_now payloads", test_clock_now);
	return ck_exit();
}
