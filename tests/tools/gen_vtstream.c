// SPDX-License-Identifier: GPL-2.0
/*
 * What `hyptrace agent -N` sends a listener for one round, into a file:
 * hello, the generated metadata (gen_formats.c), started, PAGES pages per
 * CPU as page:N messages (events built by hand, check.h), each CPU's
 * stats, stopped with the counts, and one clock_now. The listener's fuzzer
 * starts from such files, and t-listen-limits.sh's fake agent sends their
 * messages.
 *
 *   gen_vtstream [--cpus N] [--pages N] FILE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "page_builder.h"
#include "gen_formats.h"
#include "hyp_events.h"
#include "hyptrace/vtproto.h"

#define PAGE_SIZE	4096

static void msg(FILE *f, const char *name, const void *p, size_t len)
{
	fprintf(f, "%s %zu\n", name, len);
	fwrite(p, 1, len, f);
}

static void text(FILE *f, const char *name, const char *s)
{
	msg(f, name, s, strlen(s));
}

/* Page @pg of CPU @cpu: enter/exit pairs, a second apart per page */
static void page(struct pb *b, unsigned int cpu, unsigned int pg)
{
	struct hyp_event_hyp_enter en = { .hdr.id = HYP_EVENT_hyp_enter,
					  .reason = 1, .func_id = 0x84000000 };
	struct hyp_event_hyp_exit ex = { .hdr.id = HYP_EVENT_hyp_exit,
					 .reason = 1, .func_id = 0x84000000 };
	unsigned int i;

	pb_init(b, 1000000000ULL * (pg + 1) + cpu);
	for (i = 0; i < 8; i++) {
		pb_data(b, i ? 300 : 0, &en, sizeof(en), 0);
		pb_data(b, 200, &ex, sizeof(ex), 0);
	}
	pb_commit(b, 0, 0);
}

static void meta(FILE *f, unsigned int cpus)
{
	struct gen_text hp = gen_header_page(PAGE_SIZE);
	struct gen_text he = gen_header_event();
	struct gen_text *fmt;
	unsigned int n = gen_event_formats(&fmt), i;
	char hello[64];

	snprintf(hello, sizeof(hello), "version=%u cpus=%u page_size=%u",
		 VT_VERSION, cpus, PAGE_SIZE);
	text(f, "hello", hello);
	msg(f, "header_page", hp.text, hp.len);
	msg(f, "header_event", he.text, he.len);
	for (i = 0; i < n; i++)
		msg(f, "format:hypervisor", fmt[i].text, fmt[i].len);
	gen_free_texts(fmt, n);
	free(fmt);
	gen_free_texts(&hp, 1);
	gen_free_texts(&he, 1);
	text(f, "clock", "[boot]\n");
	text(f, "uname", "Linux board 7.3.0 #1 SMP aarch64\n");
}

int main(int argc, char **argv)
{
	unsigned int cpus = 2, pages = 1, cpu, pg;
	char name[32], stopped[4096];
	size_t len;
	struct pb b;
	FILE *f;
	int i;

	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--cpus"))
			cpus = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--pages"))
			pages = atoi(argv[i + 1]);
		else
			break;
	}
	if (i != argc - 1 || !cpus || cpus > 16) {
		fprintf(stderr, "usage: gen_vtstream [--cpus 1-16] [--pages N] FILE\n");
		return 2;
	}
	f = fopen(argv[i], "w");
	if (!f) {
		perror(argv[i]);
		return 1;
	}
	meta(f, cpus);
	text(f, "started", "1");
	for (pg = 0; pg < pages; pg++) {
		for (cpu = 0; cpu < cpus; cpu++) {
			page(&b, cpu, pg);
			snprintf(name, sizeof(name), "page:%u", cpu);
			msg(f, name, b.page, PAGE_SIZE);
		}
	}
	len = snprintf(stopped, sizeof(stopped), "1\n");
	for (cpu = 0; cpu < cpus; cpu++) {
		snprintf(name, sizeof(name), "cpustat:%u", cpu);
		text(f, name, "entries: 0\noverrun: 0\n");
		len += snprintf(stopped + len, sizeof(stopped) - len,
				"cpu %u sent %u dropped 0 events 0\n", cpu,
				pages);
	}
	msg(f, "stopped", stopped, len);
	text(f, "clock_now", "boot 5000000000");
	if (fclose(f)) {
		perror(argv[i]);
		return 1;
	}
	return 0;
}
