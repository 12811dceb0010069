// SPDX-License-Identifier: GPL-2.0
/*
 * carveout_use: how much of the trace carve-out a buffer size takes, by the
 * sizing rule the hypervisor itself applies (shared/trace_desc.h).
 *
 *   carveout_use NR_CPUS BUFFER_KB...
 *
 * prints one line per size:
 *
 *   kb=<size> data_pages=<per CPU, reader page included>
 *   per_cpu_bytes=<meta page + data pages> total_bytes=<all CPUs + descriptor>
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../shared/ring_buffer.h"
#include "../../shared/trace_desc.h"

static unsigned long parse_or_die(const char *what, const char *arg)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 10);

	if (!*arg || *end || !v) {
		fprintf(stderr, "carveout_use: %s '%s' is not a positive number\n",
			what, arg);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	unsigned long nr_cpus, kb;
	u64 data_pages;
	int i;

	if (argc < 3) {
		fprintf(stderr, "usage: carveout_use NR_CPUS BUFFER_KB...\n");
		return 2;
	}
	nr_cpus = parse_or_die("NR_CPUS", argv[1]);
	for (i = 2; i < argc; i++) {
		kb = parse_or_die("BUFFER_KB", argv[i]);
		data_pages = rb_nr_data_pages(kb << 10, RB_PAGE_CAPACITY);
		printf("kb=%lu data_pages=%llu per_cpu_bytes=%llu total_bytes=%llu\n",
		       kb, (unsigned long long)data_pages,
		       (unsigned long long)(data_pages + 1) * RB_PAGE_SIZE,
		       (unsigned long long)rb_load_pages(nr_cpus, data_pages,
							 RB_PAGE_SIZE) *
		       RB_PAGE_SIZE);
	}
	return 0;
}
