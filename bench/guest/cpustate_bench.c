// SPDX-License-Identifier: GPL-2.0
/*
 * cpustate-bench: what the CPU-state window (hyp/arch/cpu_state.c) costs a
 * CPU coming online, for bench/run.sh (rows 3h, 3i).
 *
 *   cpustate-bench DIR CPU ROUNDS
 *
 * DIR is the hypervisor's trace directory (hyptrace-dir). With tracing on
 * and cpu_sysreg off, then on (only "none" for a hypervisor without it),
 * CPU goes offline and online ROUNDS times;
 * each online write (the PSCI CPU_ON, the CPU's boot through Linux's
 * head.S, which the window traps 7 to 9 times, and the wait for it) is
 * timed on CLOCK_MONOTONIC, which under QEMU's -icount shift=0 counts
 * instructions. One line per round, then the window's traps per round
 * (cpu_sysreg events in the trace, read once all rounds are done):
 *
 *   @bench cpustate window=off|on|none ns=N
 *   @bench cpustate_traps rounds=R events=E per_round=E/R
 *
 * The event costs are in the "on" figures too: the window is there to
 * record them.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void put(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_TRUNC);

	if (fd < 0)
		die(path);
	if (write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		die(path);
	close(fd);
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* cpu_sysreg lines in the trace file */
static unsigned int count_events(const char *dir)
{
	char path[256], line[512];
	unsigned int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/trace", dir);
	f = fopen(path, "r");
	if (!f)
		die(path);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, " cpu_sysreg "))
			n++;
	fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	char path[256], online[128];
	const char *dir;
	int cpu, rounds, on, r, has_window;
	unsigned int n;
	cpu_set_t set;

	if (argc != 4) {
		fprintf(stderr, "usage: cpustate-bench DIR CPU ROUNDS\n");
		return 2;
	}
	dir = argv[1];
	cpu = atoi(argv[2]);
	rounds = atoi(argv[3]);
	if (cpu <= 0 || rounds <= 0) {
		fprintf(stderr, "cpustate-bench: CPU > 0 and ROUNDS > 0\n");
		return 2;
	}
	/* The timing CPU stays put while the other comes and goes */
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
	snprintf(online, sizeof(online), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	snprintf(path, sizeof(path), "%s/events/enable", dir);
	put(path, "0");
	snprintf(path, sizeof(path), "%s/trace", dir);
	put(path, "0");
	snprintf(path, sizeof(path), "%s/tracing_on", dir);
	put(path, "1");
	/* A hypervisor without the event (the one from before): "off" only */
	snprintf(path, sizeof(path), "%s/events/hypervisor/cpu_sysreg/enable",
		 dir);
	has_window = !access(path, W_OK);
	for (on = 0; on <= has_window; on++) {
		if (has_window)
			put(path, on ? "1" : "0");
		for (r = 0; r < rounds; r++) {
			unsigned long long t0, t1;

			put(online, "0");
			t0 = now_ns();
			put(online, "1");
			t1 = now_ns();
			printf("@bench cpustate window=%s ns=%llu\n",
			       !has_window ? "none" : on ? "on" : "off",
			       t1 - t0);
			fflush(stdout);
		}
	}
	snprintf(path, sizeof(path), "%s/tracing_on", dir);
	put(path, "0");
	n = count_events(dir);
	printf("@bench cpustate_traps rounds=%d events=%u per_round=%.1f\n",
	       rounds, n, (double)n / rounds);
	return 0;
}
