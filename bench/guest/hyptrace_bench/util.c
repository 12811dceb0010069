// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace-bench Errors, clocks, CPU affinity and small sysfs/tracefs file helpers.
 */
#include "bench.h"

_Noreturn void vdie_status(int status, const char *tail, const char *fmt,
			   va_list ap)
{
	fprintf(stderr, PROG ": ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "%s\n", tail);
	exit(status);
}

_Noreturn __printf(1, 2) void
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie_status(1, "", fmt, ap);
}

pid_t fork_or_die(void)
{
	pid_t pid;

	fflush(NULL);	/* or the child would print our buffered output too */
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	return pid;
}

static unsigned long long timeval_ns(const struct timeval *tv)
{
	return tv->tv_sec * NSEC_PER_SEC + tv->tv_usec * 1000ULL;
}

unsigned long long rusage_ns(const struct rusage *ru)
{
	return timeval_ns(&ru->ru_utime) + timeval_ns(&ru->ru_stime);
}

void sleep_until_ns(unsigned long long deadline)
{
	struct timespec ts = {
		.tv_sec = deadline / NSEC_PER_SEC,
		.tv_nsec = deadline % NSEC_PER_SEC,
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

void pin_to_cpu(unsigned long cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("cannot run on CPU %lu: sched_setaffinity: %s", cpu,
		    strerror(errno));
}

/* Check early that a child will be able to run on @cpu. */
void check_cpu_allowed(unsigned long cpu)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		die("sched_getaffinity: %s", strerror(errno));
	if (cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &set))
		die("cannot run on CPU %lu: not online or not allowed", cpu);
}


/* Write a short text to a sysfs or tracefs file in one write(), or die. */
void vwrite_file(const char *path, const char *fmt, va_list ap)
{
	char text[64];
	ssize_t n;
	int len;
	int fd;

	len = vsnprintf(text, sizeof(text), fmt, ap);
	if (len < 0 || len >= (int)sizeof(text))
		die("text for %s too long", path);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		die("cannot open %s: %s", path, strerror(errno));
	n = write(fd, text, len);
	if (n != len)
		die("cannot write \"%.*s\" to %s: %s",
		    len - (text[len - 1] == '\n'), text, path,
		    n < 0 ? strerror(errno) : "short write");
	close(fd);
}

void __printf(2, 3)
write_file(const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwrite_file(path, fmt, ap);
	va_end(ap);
}

/* Read a small file into a NUL-terminated buffer, or die. */
void read_file(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		die("cannot open %s: %s", path, strerror(errno));
	n = read(fd, buf, size - 1);
	if (n < 0)
		die("cannot read %s: %s", path, strerror(errno));
	buf[n] = '\0';
	close(fd);
}
