// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace-bench drain: the reader, a child that reads one CPU's trace_pipe and counts
 * the writer's events and the lost ones.
 */
#include "bench.h"

#define READ_CHUNK		(64 * 1024)

static void reader_stop_handler(int sig)
{
	(void)sig;
}

/*
 * Caught without SA_RESTART, a stop signal makes a read() blocked in
 * trace_pipe fail with EINTR: that is how the reader learns it must stop,
 * as no other signal is caught.
 */
static void reader_catch_stop_signals(void)
{
	struct sigaction sa = { .sa_handler = reader_stop_handler };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
}

/*
 * Account one line of trace_pipe: "CPU:<n> [LOST <count> EVENTS]" or an
 * event line, of which only the writer's count (see struct reader_want).
 * With the hypercall writer, whose events carry no id, the reader is done
 * once the events it read and those lost add up to all that were due.
 */
static void reader_count_line(const char *line, const struct reader_want *w,
			      struct reader_counts *c)
{
	unsigned long long id;
	const char *p;

	p = strstr(line, "[LOST ");
	if (p) {
		c->lost += strtoull(p + strlen("[LOST "), NULL, 10);
	} else if (w->hvc_match[0]) {
		if (strstr(line, w->hvc_match))
			c->events++;
	} else if (strstr(line, "selftest")) {
		p = strstr(line, " id=");
		id = p ? strtoull(p + strlen(" id="), NULL, 10) : 0;
		if (id >= 1 && id <= w->last_id)
			c->events++;
		if (id && id == w->last_id)
			c->saw_last = true;
	}
	if (w->hvc_match[0])
		c->saw_last = c->events + c->lost >= w->last_id;
}

/*
 * Account the complete lines of @buf[0..@len) and move a trailing partial
 * line to the start of @buf, for the next read() to complete. Returns the
 * length of that partial line.
 */
static size_t reader_count_lines(char *buf, size_t len, size_t size,
				 const struct reader_want *w,
				 struct reader_counts *c)
{
	char *line = buf;
	char *nl;

	while ((nl = memchr(line, '\n', buf + len - line))) {
		*nl = '\0';
		reader_count_line(line, w, c);
		line = nl + 1;
	}
	len = buf + len - line;
	if (len == size)	/* a line longer than the buffer: drop it */
		return 0;
	memmove(buf, line, len);
	return len;
}

static void reader_read_until_last(int fd, const struct reader_want *w,
				   struct reader_counts *c)
{
	static char buf[READ_CHUNK];
	size_t len = 0;
	ssize_t n;

	while (!c->saw_last) {
		n = read(fd, buf + len, sizeof(buf) - len);
		if (n < 0 && errno == EINTR)
			break;
		if (n < 0)
			die("reader: cannot read trace_pipe: %s",
			    strerror(errno));
		if (n == 0)
			break;
		len = reader_count_lines(buf, len + n, sizeof(buf), w, c);
	}
}

/* The reader child: tells the parent it is ready, reads, reports, exits. */
static _Noreturn void
reader_main(const char *path, unsigned long cpu, const struct reader_want *w,
	    int report_fd)
{
	struct reader_counts c = { 0 };
	const char ready = 'R';
	struct rusage ru;
	int fd;

	reader_catch_stop_signals();
	pin_to_cpu(cpu);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		die("reader: cannot open %s: %s", path, strerror(errno));
	if (write(report_fd, &ready, 1) != 1)
		_exit(1);

	reader_read_until_last(fd, w, &c);
	getrusage(RUSAGE_SELF, &ru);
	c.cpu_ns = rusage_ns(&ru);

	if (write(report_fd, &c, sizeof(c)) != sizeof(c))
		_exit(1);
	_exit(0);
}

/* Fork a reader of @r's per_cpu/cpu@cpu/trace_pipe and wait till it reads. */
void reader_start(struct reader *rd, const struct remote *r,
		  unsigned long cpu, unsigned long reader_cpu,
		  const struct reader_want *w)
{
	char file[64], path[PATH_MAX];
	int fds[2];
	char ready;

	snprintf(file, sizeof(file), "per_cpu/cpu%lu/trace_pipe", cpu);
	remote_path(r, file, path, sizeof(path));
	if (pipe(fds))
		die("pipe: %s", strerror(errno));

	rd->pid = fork_or_die();
	if (!rd->pid) {
		close(fds[0]);
		reader_main(path, reader_cpu, w, fds[1]);
	}
	close(fds[1]);
	rd->fd = fds[0];
	if (read(rd->fd, &ready, 1) != 1)
		die("the reader of %s did not start", path);
}

bool wait_readable(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, timeout_ms) > 0;
}

/*
 * Collect the reader's counts: give it @grace_ms to reach the last event,
 * then tell it to stop. The signal is repeated in case it came just before
 * the reader blocked in read(), where it would not interrupt it.
 */
void reader_finish(struct reader *rd, int grace_ms,
		   struct reader_counts *c)
{
	int tries = 0;

	if (!wait_readable(rd->fd, grace_ms)) {
		do {
			if (++tries > 50) {
				kill(rd->pid, SIGKILL);
				die("the trace_pipe reader does not stop");
			}
			kill(rd->pid, SIGUSR1);
		} while (!wait_readable(rd->fd, 100));
	}
	if (read(rd->fd, c, sizeof(*c)) != sizeof(*c))
		die("the trace_pipe reader failed");
	close(rd->fd);
	waitpid(rd->pid, NULL, 0);
}
