// SPDX-License-Identifier: GPL-2.0
/*
 * write_events: write a known run of selftest events on one CPU, fast.
 *
 *   write_events CPU FIRST COUNT
 *
 * Pinned to CPU, writes the ids FIRST .. FIRST + COUNT - 1 through the
 * hypervisor remote's write_event file, one write each, and prints
 * "@written cpu=CPU first=FIRST count=COUNT" when done, so that a test can
 * check that a recording holds every one of them, or counts as lost or
 * dropped the ones it does not.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The remote's file, or hyptrace.ko's own where the kernel lacks trace_remote */
static const char *const write_event_paths[] = {
	"/sys/kernel/tracing/remotes/hypervisor/write_event",
	"/sys/kernel/debug/hyptrace/write_event",
};

int main(int argc, char **argv)
{
	unsigned long long first, i;
	int p;
	unsigned long count;
	cpu_set_t set;
	char buf[32];
	int fd, cpu, len;

	if (argc != 4) {
		fprintf(stderr, "usage: write_events CPU FIRST COUNT\n");
		return 2;
	}
	cpu = atoi(argv[1]);
	first = strtoull(argv[2], NULL, 0);
	count = strtoul(argv[3], NULL, 0);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		return 1;
	}
	for (p = 0; p < 2; p++) {
		fd = open(write_event_paths[p], O_WRONLY);
		if (fd >= 0 || errno != ENOENT || p == 1)
			break;
	}
	if (fd < 0) {
		perror(write_event_paths[p]);
		return 1;
	}
	for (i = first; i < first + count; i++) {
		len = snprintf(buf, sizeof(buf), "%llu\n", i);
		if (pwrite(fd, buf, len, 0) != len) {
			perror("write_event");
			return 1;
		}
	}
	printf("@written cpu=%d first=%llu count=%lu\n", cpu, first, count);
	return 0;
}
