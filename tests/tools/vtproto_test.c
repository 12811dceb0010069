// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the agent's orders (tools/hyptrace/lib/vtproto.c
 * vtproto_next_order()) and round counts (vtproto_format_stopped(), the payload
 * agent_round_stop() sends): the longest lines there are, 256 CPUs of ten-digit
 * numbers and UINT64_MAX counts, read back as they were by
 * vtproto_parse_stopped(). Built with ASan: a payload sized short (the agent's
 * old 96 bytes a line, when a line can be 98) ends the test.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hyptrace/vtproto.h"

#define CPUS	256

static int test_longest(void)
{
	static struct vt_cpu_round c[CPUS], back[CPUS];
	unsigned int i, round = 0;
	char err[128] = "";
	size_t len = 0;
	char *text;
	int n;

	for (i = 0; i < CPUS; i++)
		c[i] = (struct vt_cpu_round){ UINT_MAX - i, UINT64_MAX,
					      UINT64_MAX - i, UINT64_MAX };
	text = vtproto_format_stopped(UINT_MAX, c, CPUS, &len);
	CHECK(text, "out of memory");
	/* "4294967295\n", then 98 bytes a line */
	CHECK(len == 11 + 98 * CPUS && strlen(text) == len, "%zu bytes",
	      len);
	n = vtproto_parse_stopped(text, len, &round, back, CPUS, err, sizeof(err));
	free(text);
	CHECK(n == CPUS && round == UINT_MAX, "%d lines: %s", n, err);
	for (i = 0; i < CPUS; i++)
		CHECK(back[i].cpu == c[i].cpu && back[i].sent == c[i].sent &&
		      back[i].dropped == c[i].dropped &&
		      back[i].dropped_events == c[i].dropped_events,
		      "line %u read back as written", i);
	return 0;
}

static int test_no_cpu(void)
{
	unsigned int round = 0;
	char err[128] = "";
	size_t len = 0;
	char *text = vtproto_format_stopped(7, NULL, 0, &len);
	int n;

	CHECK(text && len == 2 && !strcmp(text, "7\n"), "round only");
	n = vtproto_parse_stopped(text, len, &round, NULL, 0, err, sizeof(err));
	free(text);
	CHECK(n == 0 && round == 7, "%d: %s", n, err);
	return 0;
}

static int test_orders(void)
{
	static const char in[] = "1\r\n0\n\nclock\nping\npings\nx\x01y\n1";
	static const enum vt_order want[] = {
		VT_ORDER_START, VT_ORDER_STOP, VT_ORDER_EMPTY, VT_ORDER_CLOCK,
		VT_ORDER_PING, VT_ORDER_BAD, VT_ORDER_BAD, VT_ORDER_MORE,
	};
	struct vt_orders o = { .have = 0 };
	char line[8] = "";
	unsigned int i;

	memcpy(o.buf, in, sizeof(in) - 1);
	o.have = sizeof(in) - 1;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		enum vt_order ord = vtproto_next_order(&o, line, sizeof(line));

		CHECK(ord == want[i], "order %u: %d", i, ord);
	}
	CHECK(!strcmp(line, "x?y"), "bad order shown as '%s'", line);
	CHECK(o.have == 1 && o.buf[0] == '1', "the rest kept");
	/* a line as long as the buffer, no newline: one bad order */
	memset(o.buf, 'z', sizeof(o.buf));
	o.have = vtproto_orders_room(&o) + o.have;
	CHECK(!vtproto_orders_room(&o), "full");
	CHECK(vtproto_next_order(&o, line, sizeof(line)) == VT_ORDER_BAD &&
	      !strcmp(line, "zzzzzzz") && !o.have, "long line");
	return 0;
}

int main(void)
{
	ck_run("vtproto: stopped, the longest lines, read back",
	       test_longest);
	ck_run("vtproto: stopped, no CPU", test_no_cpu);
	ck_run("vtproto: the agent's orders", test_orders);
	return ck_exit();
}
