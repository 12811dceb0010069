// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the framing of `hyptrace agent -N` / `hyptrace listen -N`
 * (tools/hyptrace/lib/vtproto.c vtproto_page_msg(), lib/vtnet.c vtnet_split()):
 * page:N messages right and wrong, ADDR:PORT right and wrong, and a
 * fuzz-ish run: a valid stream (hello, pages) with bytes flipped, cut or
 * inserted at random, parsed message by message as the listener does;
 * it must end in whole messages, "need more" or one error, never a crash
 * (built with ASan + UBSan) or a page of the wrong size or CPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hyptrace/vtnet.h"
#include "hyptrace/vtproto.h"

#define PAGE	4096
#define CPUS	4

static int page_msg(const char *name, size_t len, unsigned int *cpu)
{
	struct vt_msg m = { .len = len };
	char err[256] = "";
	int r;

	snprintf(m.name, sizeof(m.name), "%s", name);
	r = vtproto_page_msg(&m, CPUS, PAGE, cpu, err, sizeof(err));
	if (r < 0 && (!err[0] || strchr(err, '\n')))
		return -2;	/* an error must be one line */
	return r;
}

static int test_page_names(void)
{
	unsigned int cpu = 99;

	CHECK(page_msg("page:0", PAGE, &cpu) == 1 && cpu == 0, "page:0");
	CHECK(page_msg("page:3", PAGE, &cpu) == 1 && cpu == 3, "page:3");
	CHECK(page_msg("hello", 10, &cpu) == 0, "hello is not a page");
	CHECK(page_msg("pages", PAGE, &cpu) == 0, "pages");
	CHECK(page_msg("page:4", PAGE, &cpu) == -1, "CPU 4 of 4");
	CHECK(page_msg("page:", PAGE, &cpu) == -1, "no number");
	CHECK(page_msg("page:01", PAGE, &cpu) == -1, "leading zero");
	CHECK(page_msg("page:1x", PAGE, &cpu) == -1, "trailing x");
	CHECK(page_msg("page:-1", PAGE, &cpu) == -1, "negative");
	CHECK(page_msg("page:99999999999999999999", PAGE, &cpu) == -1,
	      "huge");
	CHECK(page_msg("page:1", PAGE - 1, &cpu) == -1, "short page");
	CHECK(page_msg("page:1", PAGE + 1, &cpu) == -1, "long page");
	CHECK(page_msg("page:1", 0, &cpu) == -1, "empty page");
	return 0;
}

static int split(const char *w, char *host, char *port)
{
	char err[256] = "";
	int r = vtnet_split(w, host, 64, port, 16, err, sizeof(err));

	return r < 0 && !err[0] ? -2 : r;
}

static int test_split(void)
{
	char h[64], p[16];

	CHECK(!split("127.0.0.1:4000", h, p) && !strcmp(h, "127.0.0.1") &&
	      !strcmp(p, "4000"), "v4");
	CHECK(!split("[::1]:1", h, p) && !strcmp(h, "::1") &&
	      !strcmp(p, "1"), "v6");
	CHECK(!split("0.0.0.0:65535", h, p), "wildcard written out");
	CHECK(split("4000", h, p) == -1, "no address: no default");
	CHECK(split(":4000", h, p) == -1, "empty address");
	CHECK(split("127.0.0.1:", h, p) == -1, "no port");
	CHECK(split("127.0.0.1:0", h, p) == -1, "port 0");
	CHECK(split("127.0.0.1:65536", h, p) == -1, "port 65536");
	CHECK(split("127.0.0.1:99999999999", h, p) == -1, "huge port");
	CHECK(split("127.0.0.1:80x", h, p) == -1, "port 80x");
	CHECK(split("[]:80", h, p) == -1, "empty brackets");
	return 0;
}

/* A valid stream: hello, then @pages pages over the CPUs */
static size_t valid_stream(char *buf, size_t cap, unsigned int pages)
{
	static const char hello[] = "version=1 cpus=4 page_size=4096";
	size_t len = snprintf(buf, cap, "hello %zu\n%s", strlen(hello), hello);
	unsigned int i;

	for (i = 0; i < pages && len + PAGE + 32 < cap; i++) {
		len += snprintf(buf + len, cap - len, "page:%u %u\n", i % CPUS,
				PAGE);
		memset(buf + len, i, PAGE);
		len += PAGE;
	}
	return len;
}

/* Parse as the listener does: 0 (ended cleanly or needing more), -1 */
static int parse(const char *data, size_t len, unsigned int *pages)
{
	struct vt_reader r = { 0 };
	struct vt_msg m;
	char err[256];
	unsigned int cpu;
	int ret;

	r.buf = malloc(len + 1);
	if (!r.buf)
		return -2;
	memcpy(r.buf, data, len);
	r.len = r.cap = len;
	while ((ret = vtproto_next(&r, &m, err, sizeof(err))) == 1) {
		ret = vtproto_page_msg(&m, CPUS, PAGE, &cpu, err, sizeof(err));
		if (ret < 0)
			break;
		if (ret == 1) {
			if (m.len != PAGE || cpu >= CPUS) {
				ret = -3;
				break;
			}
			(*pages)++;
		}
		ret = 0;
	}
	if (ret == -1 && (!err[0] || strchr(err, '\n')))
		ret = -2;
	vtproto_reader_free(&r);
	return ret;
}

static int test_fuzz(void)
{
	size_t cap = 16 * (PAGE + 32) + 128, len, n;
	char *good = malloc(cap), *bad = malloc(cap + 64);
	unsigned int i, j, pages, errors = 0;
	int r;

	CHECK(good && bad, "memory");
	len = valid_stream(good, cap, 12);
	pages = 0;
	CHECK(parse(good, len, &pages) == 0 && pages == 12,
	      "the valid stream: %u pages", pages);
	srand(14);
	for (i = 0; i < 20000; i++) {
		memcpy(bad, good, len);
		n = len;
		switch (i % 4) {
		case 0:		/* flip bytes, mostly in the headers */
			for (j = 0; j < 1 + (unsigned int)rand() % 4; j++)
				bad[rand() % (j ? n : 64)] ^= 1 << (rand() % 8);
			break;
		case 1:		/* cut */
			n = rand() % len;
			break;
		case 2:		/* junk in front */
			for (j = 0; j < 40; j++)
				bad[j] = rand();
			break;
		default:	/* a header made up */
			n = snprintf(bad, cap, "page:%d %d\n", rand() % 8 - 2,
				     rand() % (2 * PAGE));
			memset(bad + n, 0, len - n);
			n = len;
			break;
		}
		pages = 0;
		r = parse(bad, n, &pages);
		CHECK(r == 0 || r == -1, "case %u: parse gave %d", i, r);
		errors += r == -1;
	}
	CHECK(errors > 1000, "only %u of 20000 broken streams were errors",
	      errors);
	free(good);
	free(bad);
	return 0;
}

int main(void)
{
	ck_run("vtnet_page_names", test_page_names);
	ck_run("vtnet_split", test_split);
	ck_run("vtnet_fuzz", test_fuzz);
	return ck_exit();
}
