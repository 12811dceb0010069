// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace agent: the board's end of the virtio-trace model. It sets the
 * hypervisor's buffer up, then waits for the host's orders on the
 * agent-ctl-path virtio-serial port: "1" sends the metadata and starts
 * tracing, "0" stops it, sends every page left and the round's counts.
 * Pages go out on trace-path-cpuN (agent_cpu.c). hyptrace/vtproto.h has the
 * protocol. Here: the command line and the setting up; the orders
 * are read in agent_ctl.c, a round started and stopped in agent_round.c;
 * the ports are the transport's (agent_virtio.c), and with -N the same
 * goes over TCP (agent_net.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "agent.h"
#include "hyptrace/buffer_setup.h"
#include "hyptrace/errmsg.h"
#include "hyptrace/cmdline.h"
#include "hyptrace/help.h"
#include "subcommands.h"
#include "hyptrace/source.h"
#include "hyptrace/tracefs.h"
#include "hyptrace/vtnet.h"
#include "hyptrace/vtproto.h"

#define SUB		"agent"

struct agent_opts {
	const char *ports;
	const char *net;
	const char *key;	/* --key FILE */
	bool no_key;
	struct hb_setup buf;	/* -e, -b, --no-overwrite */
	bool start;
	int stall_ms;
	int idle_s;
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static int parse_args(int argc, char **argv, struct agent_opts *o)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		BUFFER_SETUP_LONGOPT,
		{ "stall-ms", required_argument, NULL, 'S' },
		{ "ports", required_argument, NULL, 'P' },
		{ "start", no_argument, NULL, 'T' },
		{ "net", required_argument, NULL, 'N' },
		{ "idle-s", required_argument, NULL, 'I' },
		VTAUTH_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	char host[256], port[16], err[128];
	unsigned long v;
	int c;

	memset(o, 0, sizeof(*o));
	o->stall_ms = 1000;
	o->idle_s = 60;
	if (buffer_setup_init(&o->buf, argc))
		return -1;
	while ((c = buffer_setup_getopt(argc, argv, BUFFER_SETUP_SHORTOPTS "hN:",
					longopts, SUB, &o->buf)) != -1) {
		switch (c) {
		case BUFFER_SETUP_BAD_ARG:
			return -1;
		case 'S':
			if (!cmdline_parse_ulong(optarg, 0, 3600000, &v)) {
				cmdline_err(SUB, "--stall-ms wants milliseconds, not '%s'",
				       optarg);
				return -1;
			}
			o->stall_ms = v;
			break;
		case 'P':
			o->ports = optarg;
			break;
		case 'T':
			o->start = true;
			break;
		case 'N':
			o->net = optarg;
			break;
		case 'I':
			if (!cmdline_parse_ulong(optarg, 0, 86400, &v)) {
				cmdline_err(SUB, "--idle-s wants seconds, not '%s'",
				       optarg);
				return -1;
			}
			o->idle_s = v;
			break;
		case VTAUTH_OPT_KEY:
			o->key = optarg;
			break;
		case VTAUTH_OPT_NO_KEY:
			o->no_key = true;
			break;
		case 'h':
			help_usage(stdout, "agent");
			exit(HT_EXIT_OK);
		default:
			help_usage(stderr, "agent");
			return -1;
		}
	}
	if (optind < argc) {
		cmdline_err(SUB, "unexpected argument '%s'", argv[optind]);
		return -1;
	}
	if (o->net && (o->start || o->ports)) {
		cmdline_err(SUB, "-N takes neither --start nor --ports: the client starts");
		return -1;
	}
	if (vtauth_check_options(SUB, o->net, o->key, o->no_key,
				 "to serve anyone who reaches it"))
		return -1;
	if (o->net && vtnet_split(o->net, host, sizeof(host), port,
				sizeof(port), err, sizeof(err))) {
		cmdline_err(SUB, "-N: %s", err);
		return -1;
	}
	return 0;
}

static int set(const char *dir, const char *file, const char *val)
{
	return buffer_setup_set(SUB, dir, file, val);
}

/* An empty buffer, the events asked for; tracing stays off. */
static int setup_buffer(const char *dir, const struct agent_opts *o)
{
	return buffer_setup_prepare(SUB, dir, &o->buf);
}

/* Every CPU with a raw file gets its port and its thread. */
static int open_cpus(struct agent *a)
{
	char file[64], err[256];
	unsigned int i;

	for (i = 0; i < SOURCE_MAX_CPUS; i++) {
		struct agent_cpu *c = &a->cpu[i];

		c->a = a;
		c->cpu = i;
		c->raw_fd = c->port_fd = c->pipe[0] = c->pipe[1] = -1;
		snprintf(file, sizeof(file), "per_cpu/cpu%u/trace_pipe_raw", i);
		if (!tracefs_exists(a->dir, file))
			continue;
		if (a->tp->open_cpu(a, i, err, sizeof(err))) {
			cmdline_err(SUB, "%s", err);
			return -1;
		}
		if (pipe2(c->pipe, O_CLOEXEC)) {
			cmdline_err(SUB, "pipe: %s", strerror(errno));
			return -1;
		}
		a->have_cpu[i] = true;
		a->nr_cpus = i + 1;
	}
	if (!a->nr_cpus) {
		cmdline_err(SUB, "no per_cpu/cpuN/trace_pipe_raw under %s", a->dir);
		return -1;
	}
	for (i = 0; i < a->nr_cpus; i++) {
		if (a->have_cpu[i] &&
		    agent_cpu_start(&a->cpu[i], err, sizeof(err))) {
			cmdline_err(SUB, "%s", err);
			return -1;
		}
	}
	return 0;
}


int cmd_agent(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct agent_opts o;
	struct agent *a;
	unsigned int i;
	int ret = HT_EXIT_FAIL;
	char err[256];

	if (parse_args(argc, argv, &o))
		return HT_EXIT_USAGE;
	setvbuf(stdout, NULL, _IOLBF, 0);
	a = calloc(1, sizeof(*a));
	if (!a)
		return HT_EXIT_FAIL;
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->cond, NULL);
	a->tp = o.net ? &agent_net_transport : &agent_virtio_transport;
	a->where = o.net ? o.net : o.ports;
	a->stop = &stop_requested;
	a->stall_ms = o.stall_ms;
	a->idle_ms = o.idle_s * 1000;
	a->page_size = sysconf(_SC_PAGESIZE);
	a->no_key = o.no_key;
	if (o.key && vtauth_load_key(o.key, &a->key, err, sizeof(err))) {
		cmdline_err(SUB, "%s", err);
		free(a);
		return HT_EXIT_FAIL;
	}
	if (o.no_key)
		cmdline_err(SUB, "--no-key: anyone who reaches %s can start and stop tracing, read the trace (host kernel addresses in it), uname and stats, and keep others out",
		       o.net);
	a->dir = tracefs_hyp_dir();
	if (!a->dir) {
		cmdline_err(SUB, "neither %s nor %s: is the hyptrace hypervisor running and hyptrace.ko loaded?",
		       TRACEFS_HYP_REMOTE, DEBUGFS_HYP);
		free(a);
		return HT_EXIT_FAIL;
	}
	if (a->tp->open(a)) {
		a->tp->close(a);
		free(a);
		return HT_EXIT_FAIL;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (setup_buffer(a->dir, &o) || open_cpus(a))
		goto out;
	if (!a->tp->serve(a, o.start))
		ret = HT_EXIT_OK;
out:
	set(a->dir, "tracing_on", "0");
	agent_cpu_set_state(a, AGENT_QUIT);
	for (i = 0; i < a->nr_cpus; i++)
		agent_cpu_stop(&a->cpu[i]);
	a->tp->close(a);
	/* Give the pages back: the buffer unloads once it is empty */
	tracefs_write(a->dir, "trace", "0", err, sizeof(err));
	free(o.buf.events);
	sodium_memzero(&a->key, sizeof(a->key));
	free(a);
	return ret;
}
