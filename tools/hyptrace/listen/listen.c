// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace listen: connect to `hyptrace agent` through a transport
 * (--virtio DIR: QEMU's sockets, listen_virtio.c; -N HOST:PORT: TCP,
 * listen_net.c), give it its orders ("1" start, "0" stop) when the user
 * asks, move each CPU's pages into a temporary file, and at the end write
 * the trace.dat (listen_meta.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hyptrace/errmsg.h"
#include "hyptrace/cmdline.h"
#include "hyptrace/help.h"
#include "subcommands.h"
#include "listen.h"
#include "hyptrace/mono_ms.h"

#define SUB		"listen"

enum { CMD_NONE, CMD_START, CMD_STOP, CMD_QUIT };

static volatile sig_atomic_t sig_cmd;

static void on_signal(int sig)
{
	sig_cmd = sig == SIGUSR1 ? CMD_START :
		  sig == SIGUSR2 ? CMD_STOP : CMD_QUIT;
}

/* The sockets -1 until the transport connects them */
static int open_all(struct lst *l)
{
	unsigned int i;

	for (i = 0; i < SOURCE_MAX_CPUS; i++)
		l->cpu[i].fd = l->cpu[i].tmp_fd = -1;
	return l->tp->open(l);
}

/* What CPU @i's socket has: whole pages, checked, into its file. */
static int read_cpu(struct lst *l, unsigned int i, char *err, size_t errlen)
{
	struct lst_cpu *c = &l->cpu[i];

	for (;;) {
		ssize_t n = read(c->fd, c->page + c->have,
				 l->page_size - c->have);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n <= 0) {
			if (!n && !c->have) {
				close(c->fd);
				c->fd = -2;	/* gone; its pages stay */
				return 0;
			}
			return errmsg(err, errlen, "CPU %u's stream: %s", i,
				      n ? strerror(errno) :
				      "ended inside a page");
		}
		c->have += n;
		if (c->have < l->page_size)
			continue;
		c->have = 0;
		if (listen_store_page(l, i, c->page, err, errlen))
			return -1;
	}
}

static int read_ctl(struct lst *l, char *err, size_t errlen)
{
	ssize_t n = vtproto_read(&l->rd, l->ctl, err, errlen);

	if (n < 0)
		return -1;
	if (!n) {
		/* With rounds to keep, write them; else nothing to wait for */
		if (!l->rounds_done || l->running)
			return errmsg(err, errlen, "%s: closed (%s gone?)%s",
				      l->tp->ctl_name(l),
				      l->tp->peer,
				      l->running ? " in the middle of a round" : "");
		close(l->ctl);
		l->ctl = -1;
		return 0;
	}
	return listen_meta_take_messages(l, err, errlen);
}

/* A line of standard input as a command; CMD_NONE if it is none. */
static int parse_cmd(char *line)
{
	line[strcspn(line, "\r\n")] = '\0';
	if (!strcmp(line, "start") || !strcmp(line, "s") || !strcmp(line, "1"))
		return CMD_START;
	if (!strcmp(line, "stop") || !strcmp(line, "t") || !strcmp(line, "0"))
		return CMD_STOP;
	if (!strcmp(line, "quit") || !strcmp(line, "q"))
		return CMD_QUIT;
	if (line[0])
		cmdline_err(SUB, "'%.32s'? commands: start, stop, quit", line);
	return CMD_NONE;
}

static int read_stdin(char *buf, size_t *have, size_t cap, bool *eof)
{
	char *nl;
	ssize_t n = read(STDIN_FILENO, buf + *have, cap - 1 - *have);
	int cmd;

	if (n <= 0) {
		if (!n || (errno != EINTR && errno != EAGAIN))
			*eof = true;
		return CMD_NONE;
	}
	*have += n;
	buf[*have] = '\0';
	nl = strchr(buf, '\n');
	if (!nl && *have < cap - 1)
		return CMD_NONE;
	if (nl)
		*nl = '\0';
	cmd = parse_cmd(buf);
	n = nl ? nl + 1 - buf : (ssize_t)*have;
	memmove(buf, buf + n, *have - n);
	*have -= n;
	return cmd;
}

static int order(struct lst *l, const char *o)
{
	char err[256];

	if (vtproto_send_raw(l->ctl, o, err, sizeof(err))) {
		cmdline_err(SUB, "%s: %s", l->tp->ctl_name(l), err);
		return -1;
	}
	return 0;
}

/* Every page the agent said it sent has arrived */
static bool all_arrived(const struct lst *l)
{
	unsigned int i;

	for (i = 0; i < l->nr_cpus; i++)
		if (l->cpu[i].tmp_fd >= 0 &&
		    l->cpu[i].got.pages < l->cpu[i].expected)
			return false;
	return true;
}

/* Poll everything once; 0, or -1 after saying why. */
static int pump(struct lst *l, int timeout, bool use_stdin, int *cmd,
		char *in, size_t *in_have, size_t in_cap, bool *in_eof)
{
	struct pollfd pfd[SOURCE_MAX_CPUS + 2];
	unsigned int i, n = 0;
	char err[512];

	pfd[n++] = (struct pollfd){ .fd = l->ctl, .events = POLLIN };
	pfd[n++] = (struct pollfd){ .fd = use_stdin && !*in_eof ?
				    STDIN_FILENO : -1, .events = POLLIN };
	for (i = 0; i < l->nr_cpus; i++)
		pfd[n++] = (struct pollfd){
			.fd = l->page_size && l->cpu[i].fd >= 0 ?
			      l->cpu[i].fd : -1,
			.events = POLLIN,
		};
	if (poll(pfd, n, timeout) < 0 && errno != EINTR) {
		cmdline_err(SUB, "poll: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < l->nr_cpus; i++) {
		if (pfd[2 + i].revents && read_cpu(l, i, err, sizeof(err)))
			goto fail;
	}
	if (pfd[0].revents && read_ctl(l, err, sizeof(err)))
		goto fail;
	if (pfd[1].revents)
		*cmd = read_stdin(in, in_have, in_cap, in_eof);
	return 0;
fail:
	cmdline_err(SUB, "%s", err);
	return -1;
}

static int run(struct lst *l, bool start_now)
{
	char in[256];
	size_t in_have = 0;
	bool in_eof = false, started = false, quitting = false;
	unsigned int starts = 0;
	long long deadline = 0, keepalive = mono_ms();

	if (start_now) {
		if (order(l, "1\n"))
			return -1;
		started = true;
		starts++;
	}
	for (;;) {
		int cmd = CMD_NONE;

		if (pump(l, 200, !quitting, &cmd, in, &in_have, sizeof(in),
			 &in_eof))
			return -1;
		if (sig_cmd) {
			cmd = sig_cmd;
			sig_cmd = CMD_NONE;
		}
		if (in_eof && start_now && !quitting)
			cmd = CMD_QUIT;
		/* the agent drops a client with no order for --idle-s */
		if (l->tp->keepalive && l->ctl >= 0 &&
		    mono_ms() - keepalive > 2000) {
			if (order(l, "ping\n"))
				return -1;
			keepalive = mono_ms();
		}
		if (cmd == CMD_START && !started && !quitting && l->ctl >= 0) {
			if (order(l, "1\n"))
				return -1;
			started = true;
			starts++;
		} else if ((cmd == CMD_STOP || cmd == CMD_QUIT) && started &&
			   l->ctl >= 0) {
			if (order(l, "0\n"))
				return -1;
			started = false;
		}
		if (cmd == CMD_QUIT && !quitting) {
			quitting = true;
			deadline = mono_ms() + 60000;
		}
		if (l->ctl < 0 && !quitting) {
			printf("hyptrace listen: %s closed (%s gone): writing the %u round%s there %s\n",
			       l->tp->ctl_name(l), l->tp->peer,
			       l->rounds_done,
			       l->rounds_done == 1 ? "" : "s",
			       l->rounds_done == 1 ? "was" : "were");
			quitting = true;
			starts = l->rounds_done;
			deadline = mono_ms() + 10000;
		}
		if (listen_clock_poll(l))
			return -1;
		if (quitting && l->rounds_done >= starts && all_arrived(l) &&
		    !listen_clock_busy(l))
			return 0;
		if (quitting && mono_ms() > deadline) {
			unsigned int i;

			if (l->rounds_done < starts) {
				cmdline_err(SUB, "the agent did not confirm the stop in 60 s");
				return -1;
			}
			for (i = 0; i < l->nr_cpus; i++)
				if (l->cpu[i].got.pages < l->cpu[i].expected)
					break;
			if (i == l->nr_cpus) {
				/* all there but a clock answer: the trace is whole */
				listen_clock_give_up(l, "the agent did not answer 'clock' before the end (60 s)");
				return 0;
			}
			cmdline_err(SUB, "CPU %u: the agent sent %llu pages, %llu arrived in 60 s",
			       i, (unsigned long long)l->cpu[i].expected,
			       (unsigned long long)l->cpu[i].got.pages);
			return -1;
		}
	}
}

int cmd_listen(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "virtio", required_argument, NULL, 'V' },
		{ "net", required_argument, NULL, 'N' },
		{ "start", no_argument, NULL, 'S' },
		{ "align", required_argument, NULL, 'A' },
		VTAUTH_LONGOPTS,
		{ "max-size", required_argument, NULL, 'M' },
		{ NULL, 0, NULL, 0 },
	};
	struct sigaction sa = { .sa_handler = on_signal };
	bool start_now = false;
	const char *align = NULL, *key = NULL;
	unsigned long long size;
	bool no_key = false;
	struct lst *l;
	char err[512];
	int c, ret = HT_EXIT_FAIL;

	l = calloc(1, sizeof(*l));
	if (!l)
		return HT_EXIT_FAIL;
	l->output = "trace.dat";
	l->max_size = LST_DEFAULT_MAX_SIZE;
	while ((c = getopt_long(argc, argv, "o:hN:", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			l->output = optarg;
			break;
		case 'V':
			l->dir = optarg;
			l->tp = &listen_virtio_transport;
			break;
		case 'N':
			l->dir = optarg;
			l->tp = &listen_net_transport;
			break;
		case 'S':
			start_now = true;
			break;
		case 'A':
			align = optarg;
			break;
		case VTAUTH_OPT_KEY:
			key = optarg;
			break;
		case VTAUTH_OPT_NO_KEY:
			no_key = true;
			break;
		case 'M':
			if (!cmdline_parse_size(optarg, &size)) {
				cmdline_err(SUB, "--max-size wants bytes, with K, M or G if you like, not '%s'",
				       optarg);
				free(l);
				return HT_EXIT_USAGE;
			}
			l->max_size = size;
			break;
		case 'h':
			help_usage(stdout, "listen");
			free(l);
			return HT_EXIT_OK;
		default:
			help_usage(stderr, "listen");
			free(l);
			return HT_EXIT_USAGE;
		}
	}
	c = -1;
	if (optind < argc)
		cmdline_err(SUB, "unexpected argument '%s'", argv[optind]);
	else if (!l->dir)
		cmdline_err(SUB, "from where? --virtio DIR or -N HOST:PORT");
	else if (!vtauth_check_options(SUB, l->tp == &listen_net_transport,
				       key, no_key, "for an agent that has none"))
		c = listen_clock_init(l, align);
	if (c) {
		free(l);
		return HT_EXIT_USAGE;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	l->ctl = -1;
	l->key_file = key;
	if (open_all(l))
		goto out;
	if (l->tp->pages_on_ctl)
		printf("hyptrace listen: connected to %s; commands: start, stop, quit\n",
		       l->dir);
	else
		printf("hyptrace listen: %u CPUs in %s; commands: start, stop, quit\n",
		       l->nr_cpus, l->dir);
	if (run(l, start_now)) {
		if (!l->full)
			goto out;
		/* said why; the board stops, the file keeps what fit */
		if (l->ctl >= 0)
			order(l, "0\n");
	}
	if (listen_meta_write(l, err, sizeof(err))) {
		cmdline_err(SUB, "%s", err);
		goto out;
	}
	listen_meta_summary(l);
	listen_clock_summary(l);
	ret = l->full ? HT_EXIT_FAIL : HT_EXIT_OK;
out:
	listen_store_close(l);
	listen_meta_free(l);
	free(l);
	return ret;
}
