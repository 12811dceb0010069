// SPDX-License-Identifier: GPL-2.0
/*
 * clock_check: stamp selftest events between two CLOCK_BOOTTIME reads.
 *
 *   clock_check N [WRITE_EVENT]
 *
 * On every online CPU in turn (pinned there), writes N selftest events
 * through the hypervisor remote's write_event file; event i carries the id
 * cpu * 1000000 + i. For each it prints "id before after" with the
 * CLOCK_BOOTTIME nanoseconds read just before and just after the write, so
 * that the event's timestamp in the trace can be checked against them.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static unsigned long long boottime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

int main(int argc, char **argv)
{
	const char *path = "/sys/kernel/tracing/remotes/hypervisor/write_event";
	long n = argc > 1 ? strtol(argv[1], NULL, 0) : 1000;
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long long before, after, id;
	char buf[32];
	int fd, cpu, len;
	long i;

	if (argc > 2)
		path = argv[2];
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	for (cpu = 0; cpu < ncpus; cpu++) {
		if (pin(cpu)) {
			perror("sched_setaffinity");
			return 1;
		}
		for (i = 0; i < n; i++) {
			id = cpu * 1000000ULL + i;
			len = snprintf(buf, sizeof(buf), "%llu\n", id);
			before = boottime_ns();
			if (pwrite(fd, buf, len, 0) != len) {
				perror("write_event");
				return 1;
			}
			after = boottime_ns();
			printf("%llu %llu %llu\n", id, before, after);
		}
	}
	return 0;
}
