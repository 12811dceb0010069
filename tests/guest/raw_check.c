// SPDX-License-Identifier: GPL-2.0
/*
 * raw_check: what a program reading remotes/hypervisor/per_cpu/cpuN/
 * trace_pipe_raw sees, checked the way such a program uses the file.
 *
 *   raw_check CPU
 *   raw_check drain CPU	print "id N" for every selftest event the CPU's
 *				raw file has now, then exit
 *
 * Expects tracing on with only the selftest event enabled and CPU's pages
 * not yet claimed by anyone. Prints "ok: what" per check, or "FAIL: what"
 * and exits 1 at the first that does not hold:
 *   - an O_NONBLOCK read of an empty CPU answers EAGAIN, poll() times out;
 *   - after a write_event on CPU, poll() says POLLIN and a read returns one
 *     page in the kernel's format holding that event;
 *   - reads smaller than a page return the page in pieces;
 *   - splice() moves a page into a pipe;
 *   - a blocking read waits for an event written later (by a child);
 *   - a second open of the same CPU reads the same stream (no event twice).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The one record decoder of the hypervisor, the module and the tool */
#include "../../shared/rb_rec.c"

#define REMOTE		"/sys/kernel/tracing/remotes/hypervisor"
#define PAGE		4096
#define SELFTEST_ID	3	/* shared/hyp_events.h */

static int cpu;

static void fail(const char *what)
{
	printf("FAIL: %s (%s)\n", what, errno ? strerror(errno) : "-");
	exit(1);
}

static void ok(const char *what)
{
	printf("ok: %s\n", what);
}

static void write_event(unsigned long long id)
{
	char buf[32];
	cpu_set_t set;
	int fd, len;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fail("pin to the CPU");
	fd = open(REMOTE "/write_event", O_WRONLY);
	len = snprintf(buf, sizeof(buf), "%llu", id);
	if (fd < 0 || write(fd, buf, len) != len)
		fail("write_event");
	close(fd);
}

/*
 * The selftest ids on one page, in order, into @ids; how many. Fails on a
 * page that is not in the kernel's format: the shared decoder says.
 */
static int page_ids(const unsigned char *page, unsigned long long *ids,
		    int max)
{
	uint64_t commit, ts;
	struct rb_walk w;
	struct rb_rec rec;
	int n = 0;

	memcpy(&ts, page, 8);
	memcpy(&commit, page + 8, 8);
	if (rb_walk_start(&w, page + 16, commit & ~RB_COMMIT_FLAGS,
			  PAGE - 16, ts))
		fail("page commit beyond the page");
	while (rb_event_next(&w, &rec)) {
		if (n < max && rec.payload_len >= 16 &&
		    rec.payload[0] == SELFTEST_ID)
			memcpy(&ids[n++], rec.payload + 8, 8);
	}
	if (w.fault)
		fail("events do not end at the page's commit");
	return n;
}

static int open_raw(int flags)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), REMOTE "/per_cpu/cpu%d/trace_pipe_raw",
		 cpu);
	fd = open(path, O_RDONLY | flags);
	if (fd < 0)
		fail("open trace_pipe_raw");
	return fd;
}

int main(int argc, char **argv)
{
	unsigned char page[PAGE], piece[PAGE];
	unsigned long long ids[512];
	struct pollfd pfd;
	int fd, fd2, p[2], n, got;
	pid_t child;

	if (argc > 2 && !strcmp(argv[1], "drain")) {
		cpu = atoi(argv[2]);
		fd = open_raw(O_NONBLOCK);
		while (read(fd, page, PAGE) == PAGE) {
			int i;

			n = page_ids(page, ids, 512);
			for (i = 0; i < n; i++)
				printf("id %llu\n", ids[i]);
		}
		if (errno != EAGAIN)
			fail("drain ends with EAGAIN");
		return 0;
	}
	cpu = argc > 1 ? atoi(argv[1]) : 1;
	fd = open_raw(O_NONBLOCK);

	errno = 0;
	if (read(fd, page, PAGE) != -1 || errno != EAGAIN)
		fail("O_NONBLOCK read of an empty CPU answers EAGAIN");
	ok("O_NONBLOCK read of an empty CPU: EAGAIN");
	pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
	if (poll(&pfd, 1, 100) != 0)
		fail("poll of an empty CPU times out");
	ok("poll of an empty CPU times out");

	write_event(101);
	pfd.revents = 0;
	if (poll(&pfd, 1, 2000) != 1 || !(pfd.revents & POLLIN))
		fail("poll says POLLIN after write_event");
	ok("poll: POLLIN after write_event");
	if (read(fd, page, PAGE) != PAGE)
		fail("read returns a whole page");
	n = page_ids(page, ids, 512);
	if (n != 1 || ids[0] != 101)
		fail("the page holds the one event written");
	ok("read: one page in the kernel's format with id 101");

	write_event(102);
	write_event(103);
	usleep(50000);
	got = 0;
	while (got < PAGE) {
		n = read(fd, piece + got, 1000);
		if (n <= 0)
			fail("reads of 1000 bytes return the page in pieces");
		got += n;
	}
	n = page_ids(piece, ids, 512);
	if (n != 2 || ids[0] != 102 || ids[1] != 103)
		fail("the pieces make the page of ids 102, 103");
	ok("1000-byte reads: the page in pieces, ids 102 103");

	write_event(104);
	usleep(50000);
	if (pipe(p))
		fail("pipe");
	if (splice(fd, NULL, p[1], NULL, PAGE, SPLICE_F_NONBLOCK) != PAGE)
		fail("splice moves a page into a pipe");
	if (read(p[0], page, PAGE) != PAGE || page_ids(page, ids, 512) != 1 ||
	    ids[0] != 104)
		fail("the spliced page holds id 104");
	ok("splice: a page into a pipe, id 104");

	/* A blocking read waits for what a child writes half a second later */
	fcntl(fd, F_SETFL, 0);
	child = fork();
	if (child == 0) {
		usleep(500000);
		write_event(105);
		_exit(0);
	}
	if (read(fd, page, PAGE) != PAGE || page_ids(page, ids, 512) != 1 ||
	    ids[0] != 105)
		fail("a blocking read returns the event written later");
	waitpid(child, NULL, 0);
	ok("blocking read: waited for id 105");

	/* Two readers of one CPU share one stream */
	fd2 = open_raw(O_NONBLOCK);
	fcntl(fd, F_SETFL, O_NONBLOCK);
	write_event(106);
	usleep(50000);
	n = read(fd2, page, PAGE);
	errno = 0;
	if (n != PAGE || page_ids(page, ids, 512) != 1 || ids[0] != 106 ||
	    read(fd, page, PAGE) != -1 || errno != EAGAIN)
		fail("a second reader takes id 106 and the first gets nothing");
	ok("two readers: id 106 reached one of them");
	close(fd2);
	close(fd);
	return 0;
}
