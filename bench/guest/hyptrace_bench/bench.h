/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hyptrace-bench's private header: what its files share (see main.c for
 * the program). One file a command or a part of one: util.c, remote.c and
 * options.c below them all; loop.c, hvc.c, record_cpu.c; drain.c with its
 * readers reader.c (trace_pipe) and recorder.c (hyptrace record or agent).
 */
#ifndef HYPTRACE_BENCH_H
#define HYPTRACE_BENCH_H

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
#define BENCH_HVC_DIR		"/sys/module/bench_hvc/parameters"
#define NSEC_PER_SEC		1000000000ULL
#define NSEC_PER_MSEC		1000000ULL
/* drain --reader record: the recorder the initramfs carries (make tools) */
#define RECORDER		"/usr/bin/hyptrace"

struct remote {
	const char *name;
	char dir[PATH_MAX];
};

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

/*
 * What the timed loops call, inline in them as when this was one file, so
 * that a call between files adds nothing to the figures.
 */
static inline unsigned long long monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/* Emit one selftest event from its decimal id; false if refused. */
static inline bool write_event_text(int fd, const char *text, size_t len)
{
	return pwrite(fd, text, len, 0) == (ssize_t)len;
}

static inline bool write_event_id(int fd, unsigned long long id)
{
	char text[24];
	int len;

	len = snprintf(text, sizeof(text), "%llu\n", id);
	return write_event_text(fd, text, len);
}

/* util.c */
/* PROG: the message, then @tail; exit @status */
_Noreturn void vdie_status(int status, const char *tail, const char *fmt,
			   va_list ap);
_Noreturn __printf(1, 2) void die(const char *fmt, ...);
/* fork(), our buffered output written first; dies if it fails */
pid_t fork_or_die(void);
unsigned long long rusage_ns(const struct rusage *ru);
void sleep_until_ns(unsigned long long deadline);
void pin_to_cpu(unsigned long cpu);
void check_cpu_allowed(unsigned long cpu);
void vwrite_file(const char *path, const char *fmt, va_list ap);
__printf(2, 3) void write_file(const char *path, const char *fmt, ...);
void read_file(const char *path, char *buf, size_t size);

/* remote.c */
void remote_open(struct remote *r, const char *name);
void remote_path(const struct remote *r, const char *file, char *buf,
		 size_t size);
__printf(3, 4) void remote_write(const struct remote *r, const char *file,
				const char *fmt, ...);
void remote_configure(const struct remote *r, unsigned long kb,
		      const char *events);
void remote_stop(const struct remote *r);
int remote_open_write_event(const struct remote *r);

/* options.c */
_Noreturn __printf(1, 2) void usage_error(const char *fmt, ...);
void parse_options(int argc, char **argv, struct options *o);
const char *option_name(unsigned int id);

/* loop.c */
int cmd_loop(const struct options *o);

/* hvc.c */
int cmd_hvc(const struct options *o);

/* reader.c */
void reader_start(struct reader *rd, const struct remote *r,
		  unsigned long cpu, unsigned long reader_cpu,
		  const struct reader_want *w);
bool wait_readable(int fd, int timeout_ms);
void reader_finish(struct reader *rd, int grace_ms,
		   struct reader_counts *c);

/* recorder.c */
int cmd_record_gate(const struct options *o);
void raw_poll_ms(char *buf, size_t size);
void recorder_start(struct recorder *rec, const char *self,
		    unsigned long kb, const char *events,
		    unsigned long cpu, unsigned long reader_cpu);
pid_t spinner_start(long cpu);
void spinner_stop(pid_t pid);
unsigned long long recorder_cpu_ns(const struct recorder *rec);
void recorder_finish(struct recorder *rec, unsigned long cpu,
		     struct record_counts *c);

/* drain.c */
unsigned long long trial_lost(const struct trial *t);
void drain_trial(const struct drain_setup *d, unsigned long rate,
		 struct trial *t);
void drain_prepare(struct drain_setup *d, const struct options *o,
		   const char *remote, bool record, bool hvc);
void drain_cleanup(struct drain_setup *d);
int cmd_drain(const struct options *o);

/* record_cpu.c */
int cmd_record_cpu(const struct options *o);

#endif /* HYPTRACE_BENCH_H */
