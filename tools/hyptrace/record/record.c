// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace record: start the hypervisor's tracing from a clean buffer, run
 * a command (or wait for Ctrl-C), drain every CPU's raw pages while it
 * runs, and leave a trace.dat that trace-cmd, KernelShark and our own
 * subcommands read. With -k the host kernel's own events are recorded in
 * the same run, on the same clock (boot), into a second trace.dat beside
 * the first: `trace-cmd report -i A -i B` shows both interleaved by time.
 * Two files, because a trace.dat has one event-ID space and the host's and
 * the hypervisor's IDs overlap; two files keep every page byte for byte as
 * it was recorded. With --last-boot it records the previous boot's trace,
 * which the hypervisor kept across a warm reset, as it stands: no tracing
 * is started or stopped, and it ends when every kept page is drained.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hyptrace/buffer_setup.h"
#include "hyptrace/cmdline.h"
#include "hyptrace/help.h"
#include "subcommands.h"
#include "record.h"
#include "hyptrace/tcnet.h"
#include "hyptrace/tracefs.h"

#define SUB		"record"
/* Waiting longer than this for a page only delays noticing a stop */
#define POLL_MS		100

struct rec_opts {
	const char *output;
	bool output_given;
	const char *net_to;
	struct hb_setup buf;	/* -e, -b, --no-overwrite, --keep */
	bool last_boot;
	bool cpus_given;
	bool cpu[SOURCE_MAX_CPUS];
	char **host;
	unsigned int nr_host;
	char **command;
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static int parse_cpu(const char *s, unsigned int *cpu)
{
	unsigned long v;

	if (!cmdline_parse_ulong(s, 0, SOURCE_MAX_CPUS - 1, &v))
		return -1;
	*cpu = v;
	return 0;
}

static int parse_args(int argc, char **argv, struct rec_opts *o)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		BUFFER_SETUP_LONGOPT,
		{ "keep", no_argument, NULL, 'K' },
		{ "last-boot", no_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int cpu;
	int c;

	memset(o, 0, sizeof(*o));
	o->output = "trace.dat";
	o->host = calloc(argc, sizeof(*o->host));
	if (buffer_setup_init(&o->buf, argc) || !o->host)
		return -1;
	/* "+": stop at the first non-option, the command */
	while ((c = buffer_setup_getopt(argc, argv,
					"+o:N:" BUFFER_SETUP_SHORTOPTS "C:k:h",
					longopts, SUB, &o->buf)) != -1) {
		switch (c) {
		case BUFFER_SETUP_BAD_ARG:
			return -1;
		case 'o':
			o->output = optarg;
			o->output_given = true;
			break;
		case 'N':
			o->net_to = optarg;
			break;
		case 'K':
			o->buf.keep = true;
			break;
		case 'L':
			o->last_boot = true;
			break;
		case 'C':
			if (parse_cpu(optarg, &cpu)) {
				cmdline_err(SUB, "-C wants a CPU number, not '%s'",
				       optarg);
				return -1;
			}
			o->cpu[cpu] = true;
			o->cpus_given = true;
			break;
		case 'k':
			o->host[o->nr_host++] = optarg;
			break;
		case 'h':
			help_usage(stdout, "record");
			exit(HT_EXIT_OK);
		default:
			help_usage(stderr, "record");
			return -1;
		}
	}
	if (o->buf.keep && (o->buf.buffer_kb || o->buf.no_overwrite)) {
		cmdline_err(SUB, "--keep records the buffer as it is: -b and --no-overwrite would need a new one");
		return -1;
	}
	if (optind < argc)
		o->command = argv + optind;
	if (o->last_boot && (o->buf.keep || o->buf.buffer_kb ||
			     o->buf.no_overwrite || o->buf.nr_events || o->nr_host || o->net_to ||
			     o->command)) {
		cmdline_err(SUB, "--last-boot records what the last boot left: only -o and -C go with it");
		return -1;
	}
	return 0;
}

/* The CPUs @dir has per_cpu/cpuN for: every one, or those of -C. */
static int pick_cpus(struct source *src, const struct rec_opts *o)
{
	unsigned int i, found = 0;
	char file[64];

	for (i = 0; i < SOURCE_MAX_CPUS; i++) {
		snprintf(file, sizeof(file), "per_cpu/cpu%u/trace_pipe_raw", i);
		if (!tracefs_exists(src->dir, file)) {
			if (o->cpus_given && o->cpu[i]) {
				cmdline_err(SUB, "CPU %u: no %s/%s", i, src->dir,
				       file);
				return -1;
			}
			continue;
		}
		src->cpu[i].on = !o->cpus_given || o->cpu[i];
		if (src->cpu[i].on) {
			src->nr_cpus = i + 1;
			found++;
		}
	}
	if (!found) {
		cmdline_err(SUB, "no per_cpu/cpuN/trace_pipe_raw under %s%s",
		       src->dir, o->cpus_given ? " for the CPUs asked for" :
		       ": hyptrace.ko too old?");
		return -1;
	}
	return 0;
}

/* FILE.dat -> FILE-host.dat; anything else gets "-host" appended. */
static char *host_output(const char *output)
{
	size_t len = strlen(output);
	char *s = malloc(len + 6);

	if (!s)
		return NULL;
	if (len > 4 && !strcmp(output + len - 4, ".dat"))
		snprintf(s, len + 6, "%.*s-host.dat", (int)(len - 4), output);
	else
		snprintf(s, len + 6, "%s-host", output);
	return s;
}

/* Write a control file, saying what went wrong if it did. */
static int set(const char *dir, const char *file, const char *val)
{
	return buffer_setup_set(SUB, dir, file, val);
}

/*
 * An empty hypervisor buffer (or, with --keep, the one there is), the
 * events asked for, and tracing on.
 */
static int start_hypervisor(const char *dir, const struct rec_opts *o)
{
	if (buffer_setup_prepare(SUB, dir, &o->buf))
		return -1;
	return set(dir, "tracing_on", "1");
}

/* The host kernel: boot clock, empty buffer, only the -k events. */
static int start_host(const struct rec_opts *o)
{
	const char *dir = TRACEFS_ROOT;
	char file[PATH_MAX];
	unsigned int i;

	if (set(dir, "tracing_on", "0") || set(dir, "trace_clock", "boot") ||
	    set(dir, "events/enable", "0") || set(dir, "trace", ""))
		return -1;
	for (i = 0; i < o->nr_host; i++) {
		char *spec = o->host[i], *colon = strchr(spec, ':');

		if (colon)
			snprintf(file, sizeof(file), "events/%.*s/%s/enable",
				 (int)(colon - spec), spec, colon + 1);
		else
			snprintf(file, sizeof(file), "events/%s/enable", spec);
		if (strstr(spec, "..") || !tracefs_exists(dir, file)) {
			cmdline_err(SUB, "unknown host event '%s' (see %s/events/)",
			       spec, dir);
			return -1;
		}
		if (set(dir, file, "1"))
			return -1;
	}
	return set(dir, "tracing_on", "1");
}

static void stop_tracing(const char *hyp_dir, bool host)
{
	char err[512];

	if (tracefs_write(hyp_dir, "tracing_on", "0", err, sizeof(err)))
		cmdline_err(SUB, "%s", err);
	if (host &&
	    (tracefs_write(TRACEFS_ROOT, "tracing_on", "0", err, sizeof(err)) ||
	     tracefs_write(TRACEFS_ROOT, "events/enable", "0", err, sizeof(err))))
		cmdline_err(SUB, "%s", err);
}

static pid_t run_command(char **command)
{
	pid_t pid = fork();

	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execvp(command[0], command);
		cmdline_err(SUB, "cannot run %s: %s", command[0], strerror(errno));
		_exit(127);
	}
	if (pid < 0)
		cmdline_err(SUB, "fork: %s", strerror(errno));
	return pid;
}

static uint64_t total_pages(const struct source *src)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < src->nr_cpus; i++)
		n += src->cpu[i].pages;
	return n;
}

static void progress(struct source *srcs, unsigned int nr, bool done)
{
	static time_t last;
	time_t now = time(NULL);
	uint64_t pages = 0;
	unsigned int i;

	if (!isatty(STDERR_FILENO) || (!done && now == last))
		return;
	last = now;
	for (i = 0; i < nr; i++)
		pages += total_pages(&srcs[i]);
	fprintf(stderr, "\rhyptrace record: %llu pages, %llu KiB%s",
		(unsigned long long)pages,
		(unsigned long long)(pages * srcs[0].page_size >> 10),
		done ? "\n" : " (Ctrl-C stops)");
}

static int drain(struct source *src, char *err, size_t errlen)
{
	if (src->net)
		return record_net_drain(src, err, errlen);
	return source_drain(src, err, errlen);
}

/* Wait for pages, a stop, or the command's end; draining as they come. */
static int record_loop(struct source *srcs, unsigned int nr, pid_t child,
		       int *child_status)
{
	struct pollfd pfd[2 * SOURCE_MAX_CPUS];
	char err[512];
	unsigned int i, j, n = 0;

	for (i = 0; i < nr; i++)
		for (j = 0; j < srcs[i].nr_cpus; j++)
			if (srcs[i].cpu[j].on)
				pfd[n++] = (struct pollfd){
					.fd = srcs[i].cpu[j].raw_fd,
					.events = POLLIN,
				};
	while (!stop_requested) {
		if (poll(pfd, n, POLL_MS) < 0 && errno != EINTR) {
			cmdline_err(SUB, "poll: %s", strerror(errno));
			return -1;
		}
		for (i = 0; i < nr; i++) {
			if (drain(&srcs[i], err, sizeof(err)) ||
			    (srcs[i].net &&
			     record_net_check(&srcs[i], err, sizeof(err)))) {
				cmdline_err(SUB, "%s", err);
				return -1;
			}
		}
		progress(srcs, nr, false);
		if (child > 0 && waitpid(child, child_status, WNOHANG) == child)
			break;
	}
	return 0;
}

/* What went over the network: metadata and page bytes, the time taken */
static void net_summary(struct source *src)
{
	uint64_t bytes = 0;
	unsigned int i;
	double secs;

	for (i = 0; i < src->nr_cpus; i++)
		bytes += tcnet_cpu_bytes(src->net, i);
	secs = (src->net_end.tv_sec - src->net_start.tv_sec) +
	       (src->net_end.tv_nsec - src->net_start.tv_nsec) / 1e9;
	printf("  sent %llu bytes of pages and %llu of metadata in %.3f s; the listener has written its file\n",
	       (unsigned long long)bytes,
	       (unsigned long long)tcnet_meta_bytes(src->net), secs);
}

/*
 * Per CPU: events and lost-event marks counted in the recorded pages;
 * dropped (--no-overwrite) and, for the hypervisor, written (every event
 * its writer committed, lost ones included) from per_cpu/cpuN/stats.
 */
static void summary(struct source *src, bool hyp)
{
	struct source_counts c, sum = { 0 };
	unsigned long long dropped, written, dropped_sum = 0, written_sum = 0;
	char err[512], file[64];
	unsigned int i;

	if (src->net)
		printf("%s: %s, sent%s%s\n", tcnet_peer(src->net), src->what,
		       src->local_copy ? " and written to " : "",
		       src->local_copy ? src->output : "");
	else
		printf("%s: %s\n", src->output, src->what);
	printf("  %4s %10s %8s %8s %10s %10s %7s\n", "CPU", "events", "lost",
	       "dropped", "written", "bytes", "pages");
	for (i = 0; i < src->nr_cpus; i++) {
		if (!src->cpu[i].on)
			continue;
		if (src->net) {
			c = src->cpu[i].sent;
		} else if (source_count(src, i, &c, err, sizeof(err))) {
			cmdline_err(SUB, "%s", err);
			continue;
		}
		snprintf(file, sizeof(file), "per_cpu/cpu%u/stats", i);
		dropped = tracefs_stat(src->dir, file, "dropped events");
		written = hyp ? tracefs_stat(src->dir, file, "written events") : 0;
		printf("  %4u %10llu %8llu%s %8llu %10llu %10llu %7llu\n", i,
		       (unsigned long long)c.events,
		       (unsigned long long)c.lost, c.lost_unknown ? "+" : " ",
		       dropped, written, (unsigned long long)c.bytes,
		       (unsigned long long)c.pages);
		sum.events += c.events;
		sum.lost += c.lost;
		sum.bytes += c.bytes;
		sum.pages += c.pages;
		dropped_sum += dropped;
		written_sum += written;
	}
	printf("  %4s %10llu %8llu  %8llu %10llu %10llu %7llu\n", "all",
	       (unsigned long long)sum.events, (unsigned long long)sum.lost,
	       dropped_sum, written_sum, (unsigned long long)sum.bytes,
	       (unsigned long long)sum.pages);
	if (src->net)
		net_summary(src);
}

static int finish(struct source *src)
{
	char err[512];
	int ret = drain(src, err, sizeof(err));

	if (!ret && src->net) {
		ret = record_net_finish(src, err, sizeof(err));
		clock_gettime(CLOCK_MONOTONIC, &src->net_end);
	}
	if (!ret && source_keeps_file(src))
		ret = source_write(src, err, sizeof(err));
	if (ret)
		cmdline_err(SUB, "%s", err);
	return ret;
}

/*
 * --last-boot: the previous boot's kept pages, read-only. Its raw files
 * hand out every kept page and then say EAGAIN: drain until a round brings
 * nothing, write the trace.dat. Tracing is not touched.
 */
static int record_last_boot(const struct rec_opts *o)
{
	struct source src = { .what = "hypervisor, last boot" };
	uint64_t before;
	char err[512];
	int ret = HT_EXIT_FAIL;

	src.dir = tracefs_last_boot_dir();
	if (!src.dir) {
		cmdline_err(SUB, "no last boot: neither %s nor %s (a cold boot, its pages released, or a hypervisor or hyptrace.ko before ABI 1.5)",
		       TRACEFS_HYP_LAST_BOOT, DEBUGFS_HYP_LAST_BOOT);
		return HT_EXIT_FAIL;
	}
	/* The remote's events are under its own name, the fallback's not */
	src.system = tracefs_exists(src.dir, "events/hypervisor_last_boot") ?
		     "hypervisor_last_boot" : "hypervisor";
	src.output = strdup(o->output);
	src.page_size = sysconf(_SC_PAGESIZE);
	if (!src.output || pick_cpus(&src, o))
		return HT_EXIT_FAIL;
	if (source_open(&src, err, sizeof(err))) {
		cmdline_err(SUB, "%s", err);
		goto out;
	}
	do {
		before = total_pages(&src);
		if (source_drain(&src, err, sizeof(err))) {
			cmdline_err(SUB, "%s", err);
			goto out;
		}
	} while (total_pages(&src) != before);
	if (finish(&src))
		goto out;
	progress(&src, 1, true);
	summary(&src, true);
	ret = HT_EXIT_OK;
out:
	source_close(&src, false);
	return ret;
}

int cmd_record(int argc, char **argv)
{
	struct source srcs[2] = {
		{ .what = "hypervisor", .system = "hypervisor" },
		{ .what = "host kernel", .dir = TRACEFS_ROOT },
	};
	unsigned int nr = 1, i;
	int child_status = 0, ret = HT_EXIT_FAIL;
	struct sigaction sa = { .sa_handler = on_signal };
	struct rec_opts o;
	char err[512];
	pid_t child = 0;

	if (parse_args(argc, argv, &o))
		return HT_EXIT_USAGE;
	if (o.last_boot)
		return record_last_boot(&o);
	srcs[0].dir = tracefs_hyp_dir();
	if (!srcs[0].dir) {
		cmdline_err(SUB, "neither %s nor %s: is the hyptrace hypervisor running and hyptrace.ko loaded?",
		       TRACEFS_HYP_REMOTE, DEBUGFS_HYP);
		return HT_EXIT_FAIL;
	}
	srcs[0].output = strdup(o.output);
	if (o.nr_host) {
		srcs[1].output = host_output(o.output);
		srcs[1].events = o.host;
		srcs[1].nr_events = o.nr_host;
		nr = 2;
	}
	for (i = 0; i < nr; i++) {
		srcs[i].page_size = sysconf(_SC_PAGESIZE);
		if (!srcs[i].output || pick_cpus(&srcs[i], &o))
			return HT_EXIT_FAIL;
	}
	if (start_hypervisor(srcs[0].dir, &o) || (o.nr_host && start_host(&o)))
		goto out_stop;
	for (i = 0; i < nr; i++) {
		srcs[i].net_to = o.net_to;
		srcs[i].local_copy = o.output_given;
		if (source_open(&srcs[i], err, sizeof(err))) {
			cmdline_err(SUB, "%s", err);
			goto out_close;
		}
	}
	for (i = 0; o.net_to && i < nr; i++) {
		clock_gettime(CLOCK_MONOTONIC, &srcs[i].net_start);
		if (record_net_open(&srcs[i], err, sizeof(err))) {
			cmdline_err(SUB, "%s", err);
			goto out_close;
		}
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (o.command) {
		child = run_command(o.command);
		if (child < 0)
			goto out_close;
	}
	if (record_loop(srcs, nr, child, &child_status))
		goto out_close;
	if (child > 0 && stop_requested) {
		/* Ctrl-C went to the command too; let it finish */
		waitpid(child, &child_status, 0);
	}
	stop_tracing(srcs[0].dir, o.nr_host);
	ret = HT_EXIT_OK;
	for (i = 0; i < nr; i++) {
		if (finish(&srcs[i]))
			ret = HT_EXIT_FAIL;
	}
	progress(srcs, nr, true);
	if (!ret) {
		for (i = 0; i < nr; i++)
			summary(&srcs[i], i == 0);
		if (nr == 2 && !o.net_to)
			printf("both, by time: trace-cmd report -i %s -i %s\n",
			       srcs[0].output, srcs[1].output);
	}
	if (child > 0 && WIFEXITED(child_status) &&
	    WEXITSTATUS(child_status))
		fprintf(stderr, "hyptrace record: %s exited with status %d\n",
			o.command[0], WEXITSTATUS(child_status));
out_close:
	for (i = 0; i < nr; i++) {
		record_net_close(&srcs[i]);
		source_close(&srcs[i], false);
	}
out_stop:
	stop_tracing(srcs[0].dir, o.nr_host);
	/* Give the pages back: the buffer unloads once it is empty */
	tracefs_write(srcs[0].dir, "trace", "0", err, sizeof(err));
	return ret;
}
