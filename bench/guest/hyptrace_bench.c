// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace-bench: what tracing costs, and how fast a trace can be read out,
 * measured from inside the guest on the trace remotes of
 * /sys/kernel/tracing/remotes/ (the hypervisor's, and the kernel's "test"
 * remote as a reference with no hypervisor in the path).
 *
 * Run it under qemu-system-aarch64 -icount shift=0,sleep=off: every guest
 * instruction then advances the virtual clock by exactly one nanosecond and
 * idle time is skipped, so a CLOCK_MONOTONIC difference is a count of
 * instructions, the same on any host and, within a percent or so (where
 * timer interrupts land), on every run. Read every "ns" below as
 * "instructions". icount keeps one clock for the whole machine, so
 * the instructions of other busy CPUs count too: the figures of "loop" and
 * "hvc" are clean only on an otherwise idle guest, and in "drain" the
 * reader's work takes virtual time away from the writer.
 *
 * loop    The cost of one pwrite() to a remote's write_event file, syscall
 *         and tracefs included. With events=none nothing is recorded (the
 *         hypervisor remote still makes its hypercall; the test remote fails
 *         the write at once); with events=selftest one event is recorded;
 *         with hyp_enter,hyp_exit too, the hypervisor also records its own
 *         entry and exit. The differences are the cost of an event.
 * hvc     The cost of one null hypercall, made by the bench_hvc module with
 *         interrupts off, so without the syscall: the hypervisor's entry and
 *         exit, with or without tracing them.
 * drain   The highest rate of selftest events per second, written on one
 *         CPU, that a reader of that CPU's trace_pipe keeps up with without
 *         losing a single event, for one buffer size. The reader only learns
 *         of new data from the trace_remote poll timer (every 100 ms), so
 *         the buffer must hold about 100 ms of events plus the time it takes
 *         to read them out. writer_bound=1 means the writer could not write
 *         faster, so the reader's limit is higher than the rate reported.
 *         With --reader record the reader is `hyptrace record` instead,
 *         draining per_cpu/cpuN/trace_pipe_raw with splice into a trace.dat;
 *         the same writer, rates and search, and the loss is what the
 *         recorder's summary counts. --reader agent: `hyptrace agent`,
 *         sending every CPU's pages over virtio-serial. --net ADDR:PORT
 *         moves either onto the network: `hyptrace record -N ADDR:PORT`
 *         streaming to trace-cmd listen there, or `hyptrace agent -N
 *         ADDR:PORT` serving a `hyptrace listen -N` that connects to it
 *         and starts the round. With --writer hvc the writer is the
 *         bench_hvc module's null hypercall instead of write_event: far
 *         cheaper, so that the reader, not the writer, sets the limit. The
 *         events are then its hyp_enter and hyp_exit, two a call.
 * record-cpu
 *         The CPU time (user + sys, from wait4()) `hyptrace record` takes
 *         for one such trial at a fixed rate, per MiB of pages recorded.
 *         Under -icount that time is virtual too: instructions again.
 *
 * Results go to stdout, one "@bench key=value ..." line per run, for a host
 * script to tabulate; progress and errors go to stderr.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <glob.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PROG			"hyptrace-bench"
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
/* As the kernel's (and tools/include/linux/compiler.h's): check formats. */
#define __printf(fmt, args)	__attribute__((__format__(printf, fmt, args)))
#define REMOTES_DIR		"/sys/kernel/tracing/remotes"
#define BENCH_HVC_DIR		"/sys/module/bench_hvc/parameters"
/* drain --writer hvc: the null hypercall, and the events each one gives */
#define BENCH_HVC_BURST		BENCH_HVC_DIR "/burst"
#define BENCH_HVC_FUNC_ID	BENCH_HVC_DIR "/func_id"
#define BENCH_HVC_MAX_BURST	100000UL	/* the module's limit a write */
#define HVC_EVENTS		"hyp_enter,hyp_exit"
#define HVC_EVENTS_PER_CALL	2
#define NSEC_PER_SEC		1000000000ULL
#define NSEC_PER_MSEC		1000000ULL

#define WARMUP_WRITES		1000
#define WARMUP_HVC_CALLS	1000

/* drain: the writer writes a burst every tick of virtual time. */
#define TICK_NS			(10 * NSEC_PER_MSEC)
#define FIRST_RATE		1000UL
#define MAX_RATE		8192000UL
/* Below this share of its target rate the writer is the bottleneck. */
#define WRITER_BOUND_SHARE	0.9
/*
 * How long the reader may take, after the last write, to show the last
 * event: trace_pipe only sees new data on the 100 ms poll timer, so this is
 * several polls.
 */
#define READER_GRACE_MS		1000
#define READ_CHUNK		(64 * 1024)

/* drain --reader record: the recorder the initramfs carries (make tools) */
#define RECORDER		"/usr/bin/hyptrace"
#define RECORD_FILE		"/tmp/hyptrace-bench.dat"
#define RAW_POLL_MS_PARAM	"/sys/module/hyptrace/parameters/raw_poll_ms"
/*
 * How long the recorder may stay silent: its start, or its final drain and
 * the writing of the trace.dat. Only a hung recorder takes that long.
 */
#define RECORDER_TIMEOUT_MS	60000
/* What the gate (the recorder's command) prints once it runs */
#define GATE_READY		"@gate ready\n"
/* What hyptrace agent prints once tracing is on (--start, or a client) */
#define AGENT_READY		"hyptrace agent: started (round 1)\n"
#define MIB			(1024.0 * 1024.0)
/* The pacer of a networked recorder's start and end (see spinner_start) */
#define PACE_SPIN_NS		(1 * NSEC_PER_MSEC)
#define PACE_SLEEP_NS		(9 * NSEC_PER_MSEC)

/* ---------------------------------------------------------------------- */
/* Errors and small helpers                                               */
/* ---------------------------------------------------------------------- */

static _Noreturn __printf(1, 2) void
die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static unsigned long long monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static unsigned long long timeval_ns(const struct timeval *tv)
{
	return tv->tv_sec * NSEC_PER_SEC + tv->tv_usec * 1000ULL;
}

static unsigned long long rusage_ns(const struct rusage *ru)
{
	return timeval_ns(&ru->ru_utime) + timeval_ns(&ru->ru_stime);
}

static void sleep_until_ns(unsigned long long deadline)
{
	struct timespec ts = {
		.tv_sec = deadline / NSEC_PER_SEC,
		.tv_nsec = deadline % NSEC_PER_SEC,
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

static void pin_to_cpu(unsigned long cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("cannot run on CPU %lu: sched_setaffinity: %s", cpu,
		    strerror(errno));
}

/* Check early that a child will be able to run on @cpu. */
static void check_cpu_allowed(unsigned long cpu)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		die("sched_getaffinity: %s", strerror(errno));
	if (cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &set))
		die("cannot run on CPU %lu: not online or not allowed", cpu);
}

/* ---------------------------------------------------------------------- */
/* Files                                                                  */
/* ---------------------------------------------------------------------- */

/* Write a short text to a sysfs or tracefs file in one write(), or die. */
static void vwrite_file(const char *path, const char *fmt, va_list ap)
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

static void __printf(2, 3)
write_file(const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwrite_file(path, fmt, ap);
	va_end(ap);
}

/* Read a small file into a NUL-terminated buffer, or die. */
static void read_file(const char *path, char *buf, size_t size)
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

/* ---------------------------------------------------------------------- */
/* Trace remotes                                                          */
/* ---------------------------------------------------------------------- */

struct remote {
	const char *name;
	char dir[PATH_MAX];
};

static void remote_open(struct remote *r, const char *name)
{
	struct stat st;

	r->name = name;
	snprintf(r->dir, sizeof(r->dir), REMOTES_DIR "/%s", name);
	if (stat(r->dir, &st))
		die("no remote \"%s\": %s: %s%s", name, r->dir, strerror(errno),
		    strcmp(name, "test") ? "" :
		    " (insmod remote_test.ko first)");
}

static void remote_path(const struct remote *r, const char *file, char *buf,
			size_t size)
{
	if (snprintf(buf, size, "%s/%s", r->dir, file) >= (int)size)
		die("path too long: %s/%s", r->dir, file);
}

static void __printf(3, 4)
remote_write(const struct remote *r, const char *file, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;

	remote_path(r, file, path, sizeof(path));
	va_start(ap, fmt);
	vwrite_file(path, fmt, ap);
	va_end(ap);
}

/* Each remote has its own event group directory (hypervisor/, test/). */
static void remote_enable_event(const struct remote *r, const char *event)
{
	char pattern[PATH_MAX];
	glob_t found;

	if (snprintf(pattern, sizeof(pattern), "%s/events/*/%s/enable",
		     r->dir, event) >= (int)sizeof(pattern))
		die("event name too long: %s", event);
	if (glob(pattern, 0, NULL, &found) || found.gl_pathc != 1)
		die("no event \"%s\" in remote %s: %s: %s", event, r->name,
		    pattern, strerror(ENOENT));
	write_file(found.gl_pathv[0], "1\n");
	globfree(&found);
}

static bool events_none(const char *events)
{
	return !strcmp(events, "none");
}

/*
 * Start the remote from a clean state: tracing off, an empty buffer of
 * @kb KiB per CPU (0 keeps the current size), only the comma-separated
 * @events enabled, and tracing on unless @events is "none". The size is set
 * while tracing is off and the buffer empty, when the remote takes it.
 */
static void remote_configure(const struct remote *r, unsigned long kb,
			     const char *events)
{
	char list[256];
	char *save;
	char *ev;

	remote_write(r, "tracing_on", "0\n");
	remote_write(r, "trace", "0\n");
	if (kb)
		remote_write(r, "buffer_size_kb", "%lu\n", kb);
	remote_write(r, "events/enable", "0\n");
	if (events_none(events))
		return;

	if (snprintf(list, sizeof(list), "%s", events) >= (int)sizeof(list))
		die("event list too long: %s", events);
	for (ev = strtok_r(list, ",", &save); ev;
	     ev = strtok_r(NULL, ",", &save))
		remote_enable_event(r, ev);
	remote_write(r, "tracing_on", "1\n");
}

static void remote_stop(const struct remote *r)
{
	remote_write(r, "tracing_on", "0\n");
}

static int remote_open_write_event(const struct remote *r)
{
	char path[PATH_MAX];
	int fd;

	remote_path(r, "write_event", path, sizeof(path));
	/* Not for the readers and recorders we start */
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		die("cannot open %s: %s", path, strerror(errno));
	return fd;
}

/* Emit one selftest event from its decimal id; false if refused. */
static bool write_event_text(int fd, const char *text, size_t len)
{
	return pwrite(fd, text, len, 0) == (ssize_t)len;
}

static bool write_event_id(int fd, unsigned long long id)
{
	char text[24];
	int len;

	len = snprintf(text, sizeof(text), "%llu\n", id);
	return write_event_text(fd, text, len);
}

/* ---------------------------------------------------------------------- */
/* Options                                                                */
/* ---------------------------------------------------------------------- */

enum option_id {
	OPT_REMOTE,
	OPT_EVENTS,
	OPT_ITERATIONS,
	OPT_CALLS,
	OPT_CPU,
	OPT_BUFFER_KB,
	OPT_SECONDS,
	OPT_READER_CPU,
	OPT_STEPS,
	OPT_READER,
	OPT_RATE,
	OPT_WRITER,
	OPT_NET,
	OPT_KEY,
	OPT_FIRST_RATE,
	OPT_HELP,
};

#define OPT_BIT(id)	(1U << (id))

struct options {
	unsigned int given;	/* OPT_BIT()s of the options on the line */
	const char *remote;
	const char *events;
	unsigned long iterations;
	unsigned long calls;
	unsigned long cpu;
	unsigned long buffer_kb;
	double seconds;
	unsigned long reader_cpu;
	unsigned long steps;
	bool record;		/* --reader record (or agent) */
	bool agent;		/* --reader agent */
	unsigned long rate;
	bool hvc;		/* --writer hvc */
	const char *net;	/* --net ADDR:PORT: record -N, agent -N */
	const char *key;	/* --key FILE: agent -N's key */
	unsigned long first_rate;
};

static const struct option long_options[] = {
	{ "remote",	required_argument, NULL, OPT_REMOTE },
	{ "events",	required_argument, NULL, OPT_EVENTS },
	{ "iterations",	required_argument, NULL, OPT_ITERATIONS },
	{ "calls",	required_argument, NULL, OPT_CALLS },
	{ "cpu",	required_argument, NULL, OPT_CPU },
	{ "buffer-kb",	required_argument, NULL, OPT_BUFFER_KB },
	{ "seconds",	required_argument, NULL, OPT_SECONDS },
	{ "reader-cpu",	required_argument, NULL, OPT_READER_CPU },
	{ "steps",	required_argument, NULL, OPT_STEPS },
	{ "reader",	required_argument, NULL, OPT_READER },
	{ "rate",	required_argument, NULL, OPT_RATE },
	{ "writer",	required_argument, NULL, OPT_WRITER },
	{ "net",	required_argument, NULL, OPT_NET },
	{ "key",	required_argument, NULL, OPT_KEY },
	{ "first-rate",	required_argument, NULL, OPT_FIRST_RATE },
	{ "help",	no_argument,	   NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: " PROG " COMMAND [options]\n"
		"\n"
		"Run in the guest under qemu -icount shift=0,sleep=off, where 1 ns\n"
		"of CLOCK_MONOTONIC is 1 instruction. Results go to stdout as\n"
		"'@bench key=value ...' lines, progress to stderr.\n"
		"\n"
		"  loop --remote R --events LIST --iterations N [--cpu C]\n"
		"      time N writes to remotes/R/write_event on CPU C (default 1)\n"
		"      with the events of LIST enabled: 'none' (tracing off) or\n"
		"      names separated by commas, e.g. selftest,hyp_enter,hyp_exit\n"
		"  hvc --calls N --events LIST [--cpu C]\n"
		"      time N null hypercalls made by the bench_hvc module on\n"
		"      CPU C (default 1), with LIST enabled in the hypervisor remote\n"
		"  drain --remote R --buffer-kb KB --seconds S [--cpu C]\n"
		"        [--reader-cpu C2] [--steps K] [--reader pipe|record|agent]\n"
		"        [--writer event|hvc] [--net ADDR:PORT [--key FILE]]\n"
		"        [--first-rate N]\n"
		"      find the highest rate of selftest events per second on\n"
		"      CPU C (default 1) that a reader of its trace_pipe on CPU C2\n"
		"      (default 2) keeps up with at zero loss, with KB KiB buffers;\n"
		"      each trial lasts S virtual seconds (a decimal, e.g. 0.2);\n"
		"      doubles the rate from N/s (default %lu) until the first\n"
		"      loss, then bisects K times (default 5). --reader record:\n"
		"      the reader is " RECORDER " record -C C (remote\n"
		"      hypervisor only).\n"
		"      --reader agent: " RECORDER " agent --start, sending every\n"
		"      CPU's pages over virtio-serial (to hyptrace listen --virtio\n"
		"      on the host), its threads pinned to their CPUs\n"
		"      --net ADDR:PORT: over the network instead: record -N\n"
		"      ADDR:PORT (to trace-cmd listen there), or agent -N\n"
		"      ADDR:PORT --key FILE (the key, which --key gives; required\n"
		"      with agent), waiting for a hyptrace listen -N to start it\n"
		"      --writer hvc: the events are the hyp_enter and hyp_exit of\n"
		"      bench_hvc's null hypercalls, two a call, not selftest\n"
		"      events from write_event (remote hypervisor only)\n"
		"  record-cpu --buffer-kb KB --seconds S --rate N [--cpu C]\n"
		"        [--reader-cpu C2]\n"
		"      one such trial with the recorder at N events per second:\n"
		"      the recorder's CPU time per MiB recorded\n"
		"  record-gate\n"
		"      (internal) the command the recorder runs during a trial\n"
		"\n"
		"Remotes: hypervisor, test (insmod remote_test.ko first).\n",
		FIRST_RATE);
}

static _Noreturn __printf(1, 2) void
usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see " PROG " --help)\n");
	exit(2);
}

static unsigned long parse_ulong(const char *text, const char *option,
				 unsigned long min)
{
	unsigned long val;
	char *end;

	errno = 0;
	val = strtoul(text, &end, 10);
	if (errno || end == text || *end || text[0] == '-' || val < min)
		usage_error("--%s wants a whole number >= %lu, not \"%s\"",
			    option, min, text);
	return val;
}

static double parse_seconds(const char *text)
{
	double val;
	char *end;

	errno = 0;
	val = strtod(text, &end);
	if (errno || end == text || *end || !(val >= 0.01 && val <= 3600))
		usage_error("--seconds wants a duration from 0.01 to 3600, not \"%s\"",
			    text);
	return val;
}

static void parse_options(int argc, char **argv, struct options *o)
{
	int id;

	*o = (struct options) {
		.cpu = 1,
		.reader_cpu = 2,
		.steps = 5,
		.first_rate = FIRST_RATE,
	};
	while ((id = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
		switch (id) {
		case OPT_REMOTE:
			o->remote = optarg;
			break;
		case OPT_EVENTS:
			o->events = optarg;
			break;
		case OPT_ITERATIONS:
			o->iterations = parse_ulong(optarg, "iterations", 1);
			break;
		case OPT_CALLS:
			o->calls = parse_ulong(optarg, "calls", 1);
			break;
		case OPT_CPU:
			o->cpu = parse_ulong(optarg, "cpu", 0);
			break;
		case OPT_BUFFER_KB:
			o->buffer_kb = parse_ulong(optarg, "buffer-kb", 1);
			break;
		case OPT_SECONDS:
			o->seconds = parse_seconds(optarg);
			break;
		case OPT_READER_CPU:
			o->reader_cpu = parse_ulong(optarg, "reader-cpu", 0);
			break;
		case OPT_STEPS:
			o->steps = parse_ulong(optarg, "steps", 0);
			break;
		case OPT_READER:
			if (strcmp(optarg, "pipe") && strcmp(optarg, "record") &&
			    strcmp(optarg, "agent"))
				usage_error("--reader wants pipe, record or agent, not \"%s\"",
					    optarg);
			o->agent = !strcmp(optarg, "agent");
			o->record = o->agent || !strcmp(optarg, "record");
			break;
		case OPT_RATE:
			o->rate = parse_ulong(optarg, "rate", 1);
			break;
		case OPT_WRITER:
			if (strcmp(optarg, "event") && strcmp(optarg, "hvc"))
				usage_error("--writer wants event or hvc, not \"%s\"",
					    optarg);
			o->hvc = !strcmp(optarg, "hvc");
			break;
		case OPT_FIRST_RATE:
			o->first_rate = parse_ulong(optarg, "first-rate", 1);
			break;
		case OPT_NET:
			if (!strchr(optarg, ':'))
				usage_error("--net wants ADDR:PORT, not \"%s\"",
					    optarg);
			o->net = optarg;
			break;
		case OPT_KEY:
			o->key = optarg;
			break;
		case OPT_HELP:
			usage(stdout);
			exit(0);
		default:
			usage_error("bad option");
		}
		o->given |= OPT_BIT(id);
	}
	if (optind < argc)
		usage_error("unexpected argument \"%s\"", argv[optind]);
}

/* ---------------------------------------------------------------------- */
/* loop: the cost of one write_event                                      */
/* ---------------------------------------------------------------------- */

static int cmd_loop(const struct options *o)
{
	static const char one[] = "1\n";
	unsigned long long start, ns;
	unsigned long failed = 0;
	struct remote r;
	unsigned long i;
	int fd;

	pin_to_cpu(o->cpu);
	remote_open(&r, o->remote);
	remote_configure(&r, 0, o->events);
	fd = remote_open_write_event(&r);

	fprintf(stderr, "loop: %s events=%s: %lu writes on CPU %lu\n",
		r.name, o->events, o->iterations, o->cpu);
	for (i = 0; i < WARMUP_WRITES; i++)
		write_event_text(fd, one, sizeof(one) - 1);

	start = monotonic_ns();
	for (i = 0; i < o->iterations; i++)
		if (!write_event_text(fd, one, sizeof(one) - 1))
			failed++;
	ns = monotonic_ns() - start;

	close(fd);
	remote_stop(&r);
	printf("@bench loop remote=%s events=%s iterations=%lu ns=%llu per_op=%.1f failed=%lu\n",
	       r.name, o->events, o->iterations, ns,
	       (double)ns / o->iterations, failed);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* hvc: the cost of one null hypercall                                    */
/* ---------------------------------------------------------------------- */

static int cmd_hvc(const struct options *o)
{
	const char *calls = BENCH_HVC_DIR "/calls";
	const char *elapsed = BENCH_HVC_DIR "/elapsed_ns";
	unsigned long long ns;
	struct remote r;
	char text[32];

	if (access(calls, W_OK))
		die("bench_hvc module not loaded? %s: %s", calls,
		    strerror(errno));
	/* bench_hvc makes the hypercalls on the CPU of the task writing. */
	pin_to_cpu(o->cpu);
	remote_open(&r, "hypervisor");
	remote_configure(&r, 0, o->events);

	fprintf(stderr, "hvc: events=%s: %lu hypercalls on CPU %lu\n",
		o->events, o->calls, o->cpu);
	write_file(calls, "%d\n", WARMUP_HVC_CALLS);
	write_file(calls, "%lu\n", o->calls);
	read_file(elapsed, text, sizeof(text));
	remote_stop(&r);

	ns = strtoull(text, NULL, 10);
	printf("@bench hvc events=%s calls=%lu ns=%llu per_call=%.1f\n",
	       o->events, o->calls, ns, (double)ns / o->calls);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* drain: the reader                                                      */
/* ---------------------------------------------------------------------- */

/* What the reader child saw; sent to the parent through a pipe. */
struct reader_counts {
	unsigned long long events;	/* the writer's events */
	unsigned long long lost;	/* sum of the [LOST n EVENTS] lines */
	bool saw_last;			/* all accounted for: stop reading */
	unsigned long long cpu_ns;	/* the reader's user + sys time */
};

/*
 * The writer's events, as the reader tells them from others: selftest
 * events with ids 1..@last_id, or (@hvc_match set) the lines that show
 * the null hypercall, of which @last_id are due.
 */
struct reader_want {
	unsigned long long last_id;
	char hvc_match[48];
};

struct reader {
	pid_t pid;
	int fd;		/* read end of the pipe from the child */
};

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
static void reader_start(struct reader *rd, const struct remote *r,
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

	fflush(NULL);	/* or the child would print our buffered output too */
	rd->pid = fork();
	if (rd->pid < 0)
		die("fork: %s", strerror(errno));
	if (!rd->pid) {
		close(fds[0]);
		reader_main(path, reader_cpu, w, fds[1]);
	}
	close(fds[1]);
	rd->fd = fds[0];
	if (read(rd->fd, &ready, 1) != 1)
		die("the reader of %s did not start", path);
}

static bool wait_readable(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, timeout_ms) > 0;
}

/*
 * Collect the reader's counts: give it @grace_ms to reach the last event,
 * then tell it to stop. The signal is repeated in case it came just before
 * the reader blocked in read(), where it would not interrupt it.
 */
static void reader_finish(struct reader *rd, int grace_ms,
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

/* ---------------------------------------------------------------------- */
/* drain: hyptrace record as the reader                                   */
/* ---------------------------------------------------------------------- */

/*
 * The recorder runs "hyptrace record ... -- hyptrace-bench record-gate". It
 * starts its command only once it has emptied and loaded the buffer and
 * opened the raw file, so the gate's line says the writer may start; and
 * it stops when the gate exits, which the gate does when we close its
 * stdin. The gate prints to the recorder's stdout, the pipe that also
 * brings us the recorder's summary. With -N the recorder streams to
 * trace-cmd listen instead of writing a file, and runs the gate once the
 * listener has taken the metadata and opened its CPU ports.
 *
 * hyptrace agent has no gate: with --start it starts at once (virtio);
 * with -N it starts when its client, hyptrace listen -N on the host, says
 * so. Either way its "started" line lets the writer go, and SIGTERM ends
 * the round.
 */
struct recorder {
	bool agent;		/* hyptrace agent, not record */
	const char *net;	/* ADDR:PORT of record -N or agent -N, or NULL */
	const char *key;	/* agent -N's --key FILE */
	pid_t pid;
	int out_fd;		/* read end of the recorder's stdout and stderr */
	int go_fd;		/* write end of the gate's stdin */
	clockid_t clock;	/* the recorder's CPU time */
	char out[4096];		/* what the recorder and the gate printed */
	size_t len;
};

/* One CPU's line of the recorder's summary, and what the recording cost */
struct record_counts {
	unsigned long long events;
	unsigned long long lost;	/* overwritten before they were read */
	bool lost_unknown;		/* a page said "lost" without a count */
	unsigned long long dropped;	/* --no-overwrite: never written */
	unsigned long long written;	/* every event the hypervisor wrote */
	unsigned long long bytes;
	unsigned long long pages;
	unsigned long long cpu_ns;	/* user + sys of the whole recorder */
	unsigned long long run_cpu_ns;	/* ... of it while the writer wrote */
};

/*
 * record-gate: the recorder's command in a trial. Says it runs, waits for
 * its stdin to close, then tells the CPU time it took itself: wait4()
 * counts it in the recorder's, and it is none of the recorder's work.
 */
static int cmd_record_gate(const struct options *o)
{
	struct rusage ru;
	char c;

	(void)o;
	if (write(STDOUT_FILENO, GATE_READY, strlen(GATE_READY)) < 0)
		return 1;
	while (read(STDIN_FILENO, &c, 1) > 0)
		;
	getrusage(RUSAGE_SELF, &ru);
	printf("@gate cpu_ns=%llu\n", rusage_ns(&ru));
	return 0;
}

/* The module's raw_poll_ms, for the record, or "unknown". */
static void raw_poll_ms(char *buf, size_t size)
{
	if (access(RAW_POLL_MS_PARAM, R_OK)) {
		snprintf(buf, size, "unknown");
		return;
	}
	read_file(RAW_POLL_MS_PARAM, buf, size);
	buf[strcspn(buf, "\n")] = '\0';
}

static _Noreturn void recorder_die(struct recorder *rec, const char *what)
{
	if (rec->pid > 0)
		kill(rec->pid, SIGKILL);
	die("hyptrace record %s; it printed:\n%.*s", what, (int)rec->len,
	    rec->out);
}

/*
 * Read what the recorder prints until @text is among it (true), or to its
 * end if @text is NULL (true), or until it ends without @text (false).
 * Silence for @timeout_ms (-1: no limit) is a hung recorder.
 */
static bool recorder_read(struct recorder *rec, const char *text,
			  int timeout_ms)
{
	ssize_t n;

	for (;;) {
		rec->out[rec->len] = '\0';
		if (text && strstr(rec->out, text))
			return true;
		if (rec->len == sizeof(rec->out) - 1)
			recorder_die(rec, "printed too much");
		if (!wait_readable(rec->out_fd, timeout_ms))
			recorder_die(rec, "does not answer");
		n = read(rec->out_fd, rec->out + rec->len,
			 sizeof(rec->out) - 1 - rec->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die("reading from hyptrace record: %s", strerror(errno));
		if (!n)
			return !text;
		rec->len += n;
	}
}

/*
 * Start "hyptrace record -b @kb -e EVENT... -C @cpu" on CPU @reader_cpu,
 * EVENT each of the comma-separated @events, with our own program @self as
 * the gate, and wait till it records.
 */
static void recorder_start(struct recorder *rec, const char *self,
			   unsigned long kb, const char *events,
			   unsigned long cpu, unsigned long reader_cpu)
{
	char kb_text[24], cpu_text[24], list[64];
	char *argv[32];
	int out[2], go[2];
	unsigned int n = 0;
	char *save, *ev;

	snprintf(kb_text, sizeof(kb_text), "%lu", kb);
	snprintf(cpu_text, sizeof(cpu_text), "%lu", cpu);
	if (snprintf(list, sizeof(list), "%s", events) >= (int)sizeof(list))
		die("event list too long: %s", events);
	argv[n++] = RECORDER;
	argv[n++] = rec->agent ? "agent" : "record";
	if (rec->net) {
		argv[n++] = "-N";
		argv[n++] = (char *)rec->net;
	}
	if (rec->agent && rec->net) {
		argv[n++] = "--key";
		argv[n++] = (char *)rec->key;
		/* Virtual time runs ahead while we wait: keep the client */
		argv[n++] = "--idle-s";
		argv[n++] = "0";
	} else if (rec->agent) {
		argv[n++] = "--start";
	}
	argv[n++] = "-b";
	argv[n++] = kb_text;
	for (ev = strtok_r(list, ",", &save); ev;
	     ev = strtok_r(NULL, ",", &save)) {
		if (n + 12 > ARRAY_SIZE(argv))
			die("too many events: %s", events);
		argv[n++] = "-e";
		argv[n++] = ev;
	}
	if (!rec->agent) {
		argv[n++] = "-C";
		argv[n++] = cpu_text;
		if (!rec->net) {
			argv[n++] = "-o";
			argv[n++] = RECORD_FILE;
		}
		argv[n++] = "--";
		argv[n++] = (char *)self;
		argv[n++] = "record-gate";
	}
	argv[n] = NULL;
	if (pipe2(out, O_CLOEXEC) || pipe2(go, O_CLOEXEC))
		die("pipe: %s", strerror(errno));

	fflush(NULL);	/* or the child would print our buffered output too */
	rec->pid = fork();
	if (rec->pid < 0)
		die("fork: %s", strerror(errno));
	if (!rec->pid) {
		pin_to_cpu(reader_cpu);
		/*
		 * stderr into the pipe too: its errors reach us, and it
		 * draws no progress line, as stderr is no terminal.
		 */
		if (dup2(go[0], STDIN_FILENO) < 0 ||
		    dup2(out[1], STDOUT_FILENO) < 0 ||
		    dup2(out[1], STDERR_FILENO) < 0)
			_exit(127);
		execv(RECORDER, argv);
		fprintf(stderr, "cannot run " RECORDER ": %s\n",
			strerror(errno));
		_exit(127);
	}
	close(out[1]);
	close(go[0]);
	rec->out_fd = out[0];
	rec->go_fd = go[1];
	rec->len = 0;
	if (clock_getcpuclockid(rec->pid, &rec->clock))
		die("no CPU clock for hyptrace record (pid %d)", rec->pid);
	/*
	 * agent -N waits for the host's client, which comes when the host
	 * next tries, whatever the guest's clock says meanwhile (it need
	 * not be paced: see spinner_start). The boot's own timeout catches
	 * a client that never comes.
	 */
	if (!recorder_read(rec, rec->agent ? AGENT_READY : GATE_READY,
			   rec->agent && rec->net ? -1 : RECORDER_TIMEOUT_MS))
		recorder_die(rec, rec->agent ? "ended before it started" :
			     "ended before it ran its command");
}

/*
 * Under -icount sleep=off the clock of an idle guest jumps straight to its
 * next timer. A wait on this machine's end of the network, which runs in
 * real time, then looks endless from inside, and the timeouts of the
 * recorder's handshake and of its end (and ours) expire at once. So while
 * we wait for a networked recorder to start or to finish, outside the
 * measured time, a child on a CPU that neither the writer nor the reader
 * uses paces the clock: it spins for PACE_SPIN_NS, which takes the real
 * time QEMU needs to run that many instructions (about ten times as long
 * on the hosts we use), then sleeps PACE_SLEEP_NS, which takes none. The
 * clock then runs at roughly the pace of real time.
 */
static pid_t spinner_start(long cpu)
{
	pid_t pid;

	if (cpu < 0)
		return 0;
	fflush(NULL);	/* or the child would print our buffered output too */
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		/* Hold no pipe open: the gate waits for its stdin's end */
		close_range(STDERR_FILENO + 1, ~0U, 0);
		pin_to_cpu(cpu);
		for (;;) {
			unsigned long long t = monotonic_ns();

			while (monotonic_ns() < t + PACE_SPIN_NS)
				;
			sleep_until_ns(t + PACE_SPIN_NS + PACE_SLEEP_NS);
		}
	}
	return pid;
}

static void spinner_stop(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* The recorder's CPU time so far (it runs till we close the gate). */
static unsigned long long recorder_cpu_ns(const struct recorder *rec)
{
	struct timespec ts;

	if (clock_gettime(rec->clock, &ts))
		die("the CPU time of hyptrace record: %s", strerror(errno));
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/*
 * @cpu's line of the summary: "CPU events lost dropped written bytes
 * pages", with a "+" after lost if a page did not say how many it lost.
 */
static bool parse_summary_line(const char *line, unsigned long cpu,
			       struct record_counts *c)
{
	unsigned long n;
	int end;

	if (sscanf(line, " %lu %llu %llu%n", &n, &c->events, &c->lost,
		   &end) != 3 || n != cpu)
		return false;
	c->lost_unknown = line[end] == '+';
	line += end + c->lost_unknown;
	return sscanf(line, " %llu %llu %llu %llu", &c->dropped, &c->written,
		      &c->bytes, &c->pages) == 4;
}

/*
 * The agent's line for @cpu at its stop: "hyptrace agent: CPU N: W written,
 * S pages sent, D dropped (E events), L lost". What it sent is what the
 * hypervisor wrote less what was dropped and lost.
 */
static bool parse_agent_line(const char *line, unsigned long cpu,
			     struct record_counts *c)
{
	unsigned long long dropped_pages;
	unsigned long n;

	if (sscanf(line, "hyptrace agent: CPU %lu: %llu written, %llu pages sent, %llu dropped (%llu events), %llu lost",
		   &n, &c->written, &c->pages, &dropped_pages, &c->dropped,
		   &c->lost) != 6 || n != cpu)
		return false;
	c->events = c->written - c->dropped - c->lost;
	c->bytes = c->pages * sysconf(_SC_PAGESIZE);
	return true;
}

/* Take @cpu's counts and the gate's CPU time from what the recorder printed. */
static void recorder_parse(struct recorder *rec, unsigned long cpu,
			   struct record_counts *c,
			   unsigned long long *gate_ns)
{
	bool have_line = false, have_gate = false;
	char *line, *p;

	for (line = rec->out; line && *line; line = p) {
		p = strchr(line, '\n');
		if (p)
			*p++ = '\0';
		if (sscanf(line, "@gate cpu_ns=%llu", gate_ns) == 1)
			have_gate = true;
		else if (!have_line && rec->agent)
			have_line = parse_agent_line(line, cpu, c);
		else if (!have_line)
			have_line = parse_summary_line(line, cpu, c);
		if (p)
			p[-1] = '\n';	/* keep the text whole for errors */
	}
	if (rec->agent) {
		*gate_ns = 0;	/* no gate */
		have_gate = true;
	}
	if (!have_line || !have_gate)
		recorder_die(rec, have_line ? "ran no gate" :
			     "printed no summary line for the CPU");
}

/*
 * Let the gate go, which ends the recording; collect the counts and the
 * recorder's CPU time, less the gate's.
 */
static void recorder_finish(struct recorder *rec, unsigned long cpu,
			    struct record_counts *c)
{
	unsigned long long gate_ns;
	struct rusage ru;
	int status;

	close(rec->go_fd);
	/* The agent stops its round, sends it, and exits on SIGTERM */
	if (rec->agent)
		kill(rec->pid, SIGTERM);
	recorder_read(rec, NULL, RECORDER_TIMEOUT_MS);
	close(rec->out_fd);
	if (wait4(rec->pid, &status, 0, &ru) != rec->pid)
		die("wait4 for hyptrace record: %s", strerror(errno));
	rec->pid = 0;	/* reaped: nothing left to kill */
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		recorder_die(rec, "failed");
	recorder_parse(rec, cpu, c, &gate_ns);
	c->cpu_ns = rusage_ns(&ru) - gate_ns;
	unlink(RECORD_FILE);
}

/* ---------------------------------------------------------------------- */
/* drain: the writer, one trial, and the search                           */
/* ---------------------------------------------------------------------- */

struct drain_setup {
	struct remote remote;
	int write_fd;			/* write_event, or bench_hvc's burst */
	unsigned long cpu;
	unsigned long reader_cpu;
	unsigned long kb;
	double seconds;
	bool record;			/* hyptrace record reads, not trace_pipe */
	bool agent;			/* ... hyptrace agent, over virtio-serial */
	const char *net;		/* ... over the network: -N ADDR:PORT */
	const char *key;		/* ... agent -N's --key FILE */
	bool hvc;			/* the null hypercall writes, not write_event */
	long spin_cpu;			/* with net: the spinner's CPU, or -1 */
	const char *events;		/* what the writer's events are */
	unsigned int per_write;		/* events a write makes: 1, or 2 a call */
	char hvc_match[48];		/* with hvc: how trace_pipe shows them */
	char self[PATH_MAX];		/* this program, the recorder's gate */
};

struct trial {
	unsigned long target;		/* events per second asked for */
	double achieved;		/* events per second written */
	unsigned long long total;	/* events written, ids 1..total */
	unsigned long long other;	/* recorder: events not the writer's */
	unsigned long ticks;		/* bursts */
	unsigned long slept;		/* bursts done ahead of schedule */
	struct reader_counts read;
	struct record_counts rec;	/* with hyptrace record */
};

/* How the reader's pages leave: local (a file), virtio (-serial) or net */
static const char *drain_transport(const struct drain_setup *d)
{
	if (d->net)
		return "net";
	return d->agent ? "virtio" : "local";
}

static bool trial_zero_loss(const struct trial *t)
{
	return t->read.events == t->total && !t->read.lost;
}

static bool trial_writer_bound(const struct trial *t)
{
	return t->achieved < WRITER_BOUND_SHARE * t->target;
}

/*
 * The writer was behind its schedule after most bursts, so it hardly ever
 * slept: it wrote as fast as it could, and CPU 1 was never idle.
 */
static bool trial_writer_flat_out(const struct trial *t)
{
	return t->slept < t->ticks / 2;
}

static unsigned long long trial_lost(const struct trial *t)
{
	return t->total > t->read.events ? t->total - t->read.events : 0;
}

/* The hypercall writer: @calls null hypercalls in as few writes as can be. */
static void write_hvc_calls(int fd, unsigned long long calls)
{
	unsigned long long n;
	char text[24];
	int len;

	for (; calls; calls -= n) {
		n = calls < BENCH_HVC_MAX_BURST ? calls : BENCH_HVC_MAX_BURST;
		len = snprintf(text, sizeof(text), "%llu\n", n);
		if (pwrite(fd, text, len, 0) != len)
			die("cannot write %llu to " BENCH_HVC_BURST ": %s", n,
			    strerror(errno));
	}
}

/*
 * Write @total events in equal bursts, one every TICK_NS, sleeping between
 * bursts; a writer behind schedule goes on without sleeping. The selftest
 * writer's have ids 1..@total; the hypercall writer makes @total / 2 calls.
 * Returns the rate achieved: events per second over the scheduled
 * duration, or over the time actually taken if longer; *@slept counts the
 * bursts done ahead of schedule (the last one too, though nothing follows
 * to sleep for).
 */
static double write_bursts(const struct drain_setup *d,
			   unsigned long long total, unsigned long ticks,
			   unsigned long *slept)
{
	unsigned long long start, elapsed, id = 1, until;
	unsigned long long writes = total / d->per_write;
	unsigned long tick;

	*slept = 0;
	start = monotonic_ns();
	for (tick = 1; tick <= ticks; tick++) {
		until = writes * tick / ticks;
		if (d->hvc) {
			write_hvc_calls(d->write_fd, until - id + 1);
			id = until + 1;
		}
		for (; id <= until; id++)
			if (!write_event_id(d->write_fd, id))
				die("write_event refused event %llu: %s", id,
				    strerror(errno));
		if (monotonic_ns() >= start + tick * TICK_NS)
			continue;
		(*slept)++;
		if (tick < ticks)
			sleep_until_ns(start + tick * TICK_NS);
	}
	elapsed = monotonic_ns() - start;
	if (elapsed < ticks * TICK_NS)
		elapsed = ticks * TICK_NS;
	return (double)total * NSEC_PER_SEC / elapsed;
}

/*
 * The same writer with hyptrace record as the reader. The recorder sets up
 * the buffer itself (-b, -e EVENT), as a user's recording would, and
 * drains whatever is left once the writer is done, so it needs no grace
 * time: loss is only what it let the writer overwrite meanwhile.
 *
 * The hypervisor's count of what it wrote must be the writer's. With the
 * hypercall writer it may be higher: the host kernel's own hypercalls on
 * the CPU (a clock update) are traced too. Those few count as events like
 * the writer's, to be recorded and lost with them, but not in the rate.
 */
static void record_trial(const struct drain_setup *d, unsigned long ticks,
			 struct trial *t)
{
	struct record_counts *c = &t->rec;
	unsigned long long cpu0;
	struct recorder rec;
	pid_t spin;

	rec.agent = d->agent;
	rec.net = d->net;
	rec.key = d->key;
	spin = spinner_start(d->net ? d->spin_cpu : -1);
	recorder_start(&rec, d->self, d->kb, d->events, d->cpu,
		       d->reader_cpu);
	spinner_stop(spin);
	cpu0 = recorder_cpu_ns(&rec);
	t->achieved = write_bursts(d, t->total, ticks, &t->slept);
	c->run_cpu_ns = recorder_cpu_ns(&rec) - cpu0;
	spin = spinner_start(d->net ? d->spin_cpu : -1);
	recorder_finish(&rec, d->cpu, c);
	spinner_stop(spin);

	if (c->written < t->total || (!d->hvc && c->written != t->total))
		die("the hypervisor wrote %llu events on CPU %lu, the writer %llu: another writer?",
		    c->written, d->cpu, t->total);
	t->other = c->written - t->total;
	t->read.events = c->events > t->other ? c->events - t->other : 0;
	t->read.lost = c->lost + c->dropped + c->lost_unknown;
	t->read.saw_last = c->events == c->written;

	fprintf(stderr,
		"drain: %s %lu KiB, hyptrace %s (%s), %s: target %lu/s achieved %.0f/s (ahead of schedule in %lu of %lu bursts): %llu written (+%llu not the writer's), %llu recorded, %llu lost (%llu%s counted lost, %llu dropped); %llu pages, %.1f events a page; recorder CPU %.1f ms, %.1f ms of it while writing\n",
		d->remote.name, d->kb, d->agent ? "agent" : "record",
		drain_transport(d), d->events, t->target, t->achieved,
		t->slept, t->ticks, t->total, t->other,
		c->events, trial_lost(t), c->lost, c->lost_unknown ? "+" : "",
		c->dropped, c->pages,
		c->pages ? (double)c->events / c->pages : 0.0,
		(double)c->cpu_ns / NSEC_PER_MSEC,
		(double)c->run_cpu_ns / NSEC_PER_MSEC);
}

static void drain_trial(const struct drain_setup *d, unsigned long rate,
			struct trial *t)
{
	unsigned long ticks = d->seconds * NSEC_PER_SEC / TICK_NS + 0.5;
	struct reader_want want = { 0 };
	struct reader rd;

	if (!ticks)
		ticks = 1;
	memset(t, 0, sizeof(*t));
	t->ticks = ticks;
	t->target = rate;
	/* Whole writes: a call of the hypercall writer is two events */
	t->total = (unsigned long long)((double)rate * ticks * TICK_NS /
					NSEC_PER_SEC / d->per_write + 0.5) *
		   d->per_write;

	if (d->record) {
		record_trial(d, ticks, t);
		return;
	}
	want.last_id = t->total;
	snprintf(want.hvc_match, sizeof(want.hvc_match), "%s", d->hvc_match);
	remote_configure(&d->remote, d->kb, d->events);
	reader_start(&rd, &d->remote, d->cpu, d->reader_cpu, &want);
	t->achieved = write_bursts(d, t->total, ticks, &t->slept);
	reader_finish(&rd, READER_GRACE_MS, &t->read);
	remote_stop(&d->remote);

	fprintf(stderr,
		"drain: %s %lu KiB, %s: target %lu/s achieved %.0f/s (ahead of schedule in %lu of %lu bursts): %llu written, %llu read, %llu lost (%llu in LOST lines); reader CPU %.1f ms\n",
		d->remote.name, d->kb, d->events, t->target, t->achieved,
		t->slept, t->ticks, t->total,
		t->read.events, trial_lost(t), t->read.lost,
		(double)t->read.cpu_ns / NSEC_PER_MSEC);
}

struct drain_result {
	unsigned int trials;
	struct trial last;		/* the latest trial */
	bool have_best;
	struct trial best;		/* highest achieved rate at zero loss */
	bool have_loss;
	struct trial first_loss;	/* lowest target rate with loss */
	bool writer_bound;		/* stopped as the writer fell behind */
};

/*
 * The first loss came with the writer flat out: no rate above the best was
 * tried at which the writer kept to its schedule, so the reader's own
 * limit was not found. What was lost then depends on how long the writer
 * kept CPU 1 busy (see bench/README.md on late timer wake-ups).
 */
static bool drain_loss_writer_bound(const struct drain_result *res)
{
	return res->have_loss && trial_writer_flat_out(&res->first_loss);
}

/* Run a trial at @rate and keep it if it is the best or first loss yet. */
static bool drain_try_rate(const struct drain_setup *d, unsigned long rate,
			   struct drain_result *res)
{
	struct trial t;

	drain_trial(d, rate, &t);
	res->trials++;
	res->last = t;
	if (trial_zero_loss(&t)) {
		if (!res->have_best || t.achieved > res->best.achieved)
			res->best = t;
		res->have_best = true;
		return true;
	}
	if (!res->have_loss || t.target < res->first_loss.target)
		res->first_loss = t;
	res->have_loss = true;
	return false;
}

/*
 * Double the rate while there is no loss and the writer keeps up; after
 * the first loss, bisect between the last good rate and it.
 */
static void drain_search(const struct drain_setup *d,
			 unsigned long first_rate, unsigned long steps,
			 struct drain_result *res)
{
	unsigned long good = 0, bad, rate, mid;

	for (rate = first_rate; ; rate *= 2) {
		if (!drain_try_rate(d, rate, res))
			break;
		/* No loss, but the reader was not pushed to its limit. */
		res->writer_bound = trial_writer_bound(&res->last);
		if (res->writer_bound || rate >= MAX_RATE)
			return;
		good = rate;
	}

	bad = rate;
	while (steps--) {
		mid = good + (bad - good) / 2;
		if (mid == good || mid == bad)
			break;
		if (drain_try_rate(d, mid, res))
			good = mid;
		else
			bad = mid;
	}
}

static void print_drain_result(const struct drain_setup *d,
			       const struct drain_result *res)
{
	char loss_rate[32] = "none", loss_pct[32] = "none";
	char loss_target[32] = "none";
	const struct trial *f = &res->first_loss;

	if (res->have_loss) {
		snprintf(loss_rate, sizeof(loss_rate), "%.0f", f->achieved);
		snprintf(loss_pct, sizeof(loss_pct), "%.1f",
			 100.0 * trial_lost(f) / f->total);
		snprintf(loss_target, sizeof(loss_target), "%lu", f->target);
	}
	printf("@bench drain remote=%s reader=%s transport=%s writer=%s kb=%lu zero_loss_rate=%.0f zero_loss_target=%lu loss_rate=%s loss_pct=%s loss_target=%s writer_bound=%d loss_writer_bound=%d trials=%u",
	       d->remote.name,
	       d->agent ? "agent" : d->record ? "record" : "pipe",
	       drain_transport(d),
	       d->hvc ? "hvc" : "event", d->kb,
	       res->have_best ? res->best.achieved : 0.0,
	       res->have_best ? res->best.target : 0, loss_rate, loss_pct,
	       loss_target, res->writer_bound, drain_loss_writer_bound(res),
	       res->trials);
	if (d->record) {
		char poll_ms[32];

		raw_poll_ms(poll_ms, sizeof(poll_ms));
		printf(" raw_poll_ms=%s", poll_ms);
	}
	printf("\n");
}

/*
 * The hypercall writer: bench_hvc's burst file, and how trace_pipe shows
 * its calls. Its first burst, made here with tracing off, is the only one
 * that asks whether the hypervisor answers; then every call is one
 * hyp_enter and one hyp_exit.
 */
static void drain_prepare_hvc(struct drain_setup *d)
{
	char text[32];

	if (access(BENCH_HVC_BURST, W_OK))
		die("bench_hvc module not loaded? %s: %s", BENCH_HVC_BURST,
		    strerror(errno));
	read_file(BENCH_HVC_FUNC_ID, text, sizeof(text));
	snprintf(d->hvc_match, sizeof(d->hvc_match), "reason=hvc func_id=%#lx",
		 strtoul(text, NULL, 10));
	d->write_fd = open(BENCH_HVC_BURST, O_WRONLY | O_CLOEXEC);
	if (d->write_fd < 0)
		die("cannot open %s: %s", BENCH_HVC_BURST, strerror(errno));
	remote_stop(&d->remote);
	write_hvc_calls(d->write_fd, 1);
}

/*
 * The highest CPU we may use that is neither the writer's nor the
 * reader's (CPU 0 takes the network's interrupts).
 */
static long spare_cpu(const struct drain_setup *d)
{
	cpu_set_t set;
	long cpu;

	if (sched_getaffinity(0, sizeof(set), &set))
		die("sched_getaffinity: %s", strerror(errno));
	for (cpu = CPU_SETSIZE - 1; cpu >= 0; cpu--)
		if (CPU_ISSET(cpu, &set) && cpu != (long)d->cpu &&
		    cpu != (long)d->reader_cpu)
			return cpu;
	return -1;
}

/*
 * Shared by drain and record-cpu: the writer runs here, on --cpu, and the
 * reader on --reader-cpu.
 */
static void drain_prepare(struct drain_setup *d, const struct options *o,
			  const char *remote, bool record, bool hvc)
{
	ssize_t n;

	*d = (struct drain_setup) {
		.cpu = o->cpu,
		.reader_cpu = o->reader_cpu,
		.kb = o->buffer_kb,
		.seconds = o->seconds,
		.record = record,
		.hvc = hvc,
		.events = hvc ? HVC_EVENTS : "selftest",
		.per_write = hvc ? HVC_EVENTS_PER_CALL : 1,
	};
	if (d->cpu == d->reader_cpu)
		usage_error("--cpu and --reader-cpu must differ");
	if (record && strcmp(remote, "hypervisor"))
		usage_error("hyptrace record records the hypervisor remote only");
	if (hvc && strcmp(remote, "hypervisor"))
		usage_error("--writer hvc writes to the hypervisor remote only");
	check_cpu_allowed(d->reader_cpu);
	if (record) {
		if (access(RECORDER, X_OK))
			die("no recorder: %s: %s (make tools, then rebuild the initramfs)",
			    RECORDER, strerror(errno));
		/* The recorder runs us again as its command */
		n = readlink("/proc/self/exe", d->self, sizeof(d->self) - 1);
		if (n < 0)
			die("readlink /proc/self/exe: %s", strerror(errno));
		d->self[n] = '\0';
	}
	d->spin_cpu = spare_cpu(d);	/* before we give up the others */
	pin_to_cpu(d->cpu);
	remote_open(&d->remote, remote);
	if (hvc)
		drain_prepare_hvc(d);
	else
		d->write_fd = remote_open_write_event(&d->remote);
}

static void drain_cleanup(struct drain_setup *d)
{
	close(d->write_fd);
	remote_stop(&d->remote);
	remote_write(&d->remote, "trace", "0\n");
}

static int cmd_drain(const struct options *o)
{
	struct drain_result res = { 0 };
	struct drain_setup d;

	drain_prepare(&d, o, o->remote, o->record, o->hvc);
	if (o->net && !o->record)
		usage_error("--net goes with --reader record or agent");
	if (o->agent && o->net && !o->key)
		usage_error("--reader agent --net wants --key FILE, the agent's key");
	if (o->key && !(o->agent && o->net))
		usage_error("--key goes with --reader agent --net");
	d.agent = o->agent;
	d.net = o->net;
	d.key = o->key;
	drain_search(&d, o->first_rate, o->steps, &res);
	drain_cleanup(&d);
	print_drain_result(&d, &res);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* record-cpu: what hyptrace record costs                                 */
/* ---------------------------------------------------------------------- */

/*
 * One recorder trial at a fixed rate. The figure is per MiB of pages
 * recorded (what the trace.dat holds), as the recorder's work is per page:
 * a swap, a copy and two splices each, however full the page is.
 */
static int cmd_record_cpu(const struct options *o)
{
	struct drain_setup d;
	struct record_counts *c;
	char poll_ms[32];
	struct trial t;
	double mib;

	drain_prepare(&d, o, "hypervisor", true, false);
	drain_trial(&d, o->rate, &t);
	drain_cleanup(&d);

	c = &t.rec;
	if (!c->pages)
		die("record-cpu: hyptrace record recorded nothing");
	mib = (double)c->pages * sysconf(_SC_PAGESIZE) / MIB;
	raw_poll_ms(poll_ms, sizeof(poll_ms));
	printf("@bench record_cpu kb=%lu rate=%lu achieved=%.0f events=%llu lost=%llu pages=%llu bytes=%llu mib=%.3f cpu_ns=%llu run_cpu_ns=%llu ms_per_mib=%.2f run_ms_per_mib=%.2f raw_poll_ms=%s\n",
	       d.kb, t.target, t.achieved, c->events, trial_lost(&t), c->pages,
	       c->bytes, mib, c->cpu_ns, c->run_cpu_ns,
	       c->cpu_ns / (double)NSEC_PER_MSEC / mib,
	       c->run_cpu_ns / (double)NSEC_PER_MSEC / mib, poll_ms);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* Commands                                                               */
/* ---------------------------------------------------------------------- */

struct command {
	const char *name;
	int (*run)(const struct options *o);
	unsigned int required;
	unsigned int optional;
};

static const struct command commands[] = {
	{
		.name = "loop",
		.run = cmd_loop,
		.required = OPT_BIT(OPT_REMOTE) | OPT_BIT(OPT_EVENTS) |
			    OPT_BIT(OPT_ITERATIONS),
		.optional = OPT_BIT(OPT_CPU),
	},
	{
		.name = "hvc",
		.run = cmd_hvc,
		.required = OPT_BIT(OPT_CALLS) | OPT_BIT(OPT_EVENTS),
		.optional = OPT_BIT(OPT_CPU),
	},
	{
		.name = "drain",
		.run = cmd_drain,
		.required = OPT_BIT(OPT_REMOTE) | OPT_BIT(OPT_BUFFER_KB) |
			    OPT_BIT(OPT_SECONDS),
		.optional = OPT_BIT(OPT_CPU) | OPT_BIT(OPT_READER_CPU) |
			    OPT_BIT(OPT_STEPS) | OPT_BIT(OPT_READER) |
			    OPT_BIT(OPT_WRITER) | OPT_BIT(OPT_NET) |
			    OPT_BIT(OPT_KEY) | OPT_BIT(OPT_FIRST_RATE),
	},
	{
		.name = "record-cpu",
		.run = cmd_record_cpu,
		.required = OPT_BIT(OPT_BUFFER_KB) | OPT_BIT(OPT_SECONDS) |
			    OPT_BIT(OPT_RATE),
		.optional = OPT_BIT(OPT_CPU) | OPT_BIT(OPT_READER_CPU),
	},
	{
		.name = "record-gate",
		.run = cmd_record_gate,
	},
};

static const char *option_name(unsigned int id)
{
	const struct option *opt;

	for (opt = long_options; opt->name; opt++)
		if (opt->val == (int)id)
			return opt->name;
	return "?";
}

/* Refuse options missing for @cmd, or that it would silently ignore. */
static void check_options(const struct command *cmd, const struct options *o)
{
	unsigned int id;

	for (id = 0; id < OPT_HELP; id++) {
		if ((cmd->required & OPT_BIT(id)) && !(o->given & OPT_BIT(id)))
			usage_error("%s needs --%s", cmd->name,
				    option_name(id));
		if ((o->given & OPT_BIT(id)) &&
		    !((cmd->required | cmd->optional) & OPT_BIT(id)))
			usage_error("%s takes no --%s", cmd->name,
				    option_name(id));
	}
}

int main(int argc, char **argv)
{
	const struct command *cmd;
	struct options o;

	if (argc < 2 || argv[1][0] == '-') {
		parse_options(argc, argv, &o);	/* handles --help */
		usage_error("no command");
	}
	for (cmd = commands; cmd < commands + ARRAY_SIZE(commands); cmd++)
		if (!strcmp(cmd->name, argv[1]))
			break;
	if (cmd == commands + ARRAY_SIZE(commands))
		usage_error("unknown command \"%s\"", argv[1]);

	parse_options(argc - 1, argv + 1, &o);
	check_options(cmd, &o);
	return cmd->run(&o);
}
