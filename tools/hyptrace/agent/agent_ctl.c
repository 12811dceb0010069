// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace agent: the orders, "1" start, "0" stop, "clock" and "ping"
 * (nothing but "still here"), one a line, from agent-ctl-path or, with
 * -N, from the client's connection (agent_net.c), and what a wrong one, a
 * client with no order or a vanished one does.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "hyptrace/buffer_setup.h"
#include "hyptrace/errmsg.h"
#include "hyptrace/cmdline.h"
#include "hyptrace/mono_ms.h"
#include "hyptrace/vtproto.h"

#define SUB		"agent"
#define POLL_MS		200

/*
 * Over TCP, the client goes (or is dropped): end its round, if any, with
 * tracing off and every page out of the way, and tell the caller.
 */
static int drop_client(struct agent *a, int ctl, unsigned int round,
		       bool running, const char *why)
{
	char err[256];

	if (why) {
		cmdline_err(SUB, "%s; dropping the client", why);
		a->tp->send(a, ctl, "error", why, strlen(why), err, sizeof(err));
		/* the error is the last it gets: no page, no stopped after it */
		a->tp->hangup(a);
	}
	if (running)
		agent_round_stop(a, ctl, round);
	return AGENT_CLIENT_DROP;
}

/* A round that failed to start: tracing off, the raw files closed */
static void abort_start(struct agent *a, int ctl, unsigned int round)
{
	if (a->state == AGENT_RUN) {
		agent_round_stop(a, ctl, round);
		return;
	}
	buffer_setup_set(SUB, a->dir, "tracing_on", "0");
	agent_round_close_raw(a);
}

/*
 * Orders from the host until a signal (AGENT_CLIENT_SIGNAL), or over TCP
 * until the client goes or is dropped (AGENT_CLIENT_DROP); -1 on a
 * failure that ends the agent.
 */
int agent_ctl_orders(struct agent *a, int ctl, bool start_now)
{
	bool per_client = a->tp->per_client, running = false;
	int busy_fd = a->tp->busy_fd ? a->tp->busy_fd(a) : -1;
	long long last_rx = mono_ms(), awake = last_rx, now;
	struct vt_orders o = { .have = 0 };
	unsigned int round = 0;
	char line[40], why[128];
	enum vt_order ord;

	if (start_now) {
		if (agent_round_start(a, ctl, ++round))
			return -1;
		running = true;
	}
	while (!*a->stop) {
		struct pollfd pfd[2] = {
			{ .fd = ctl, .events = POLLIN },
			{ .fd = busy_fd, .events = POLLIN },
		};
		ssize_t n;

		if (poll(pfd, 2, POLL_MS) < 0 && errno != EINTR) {
			cmdline_err(SUB, "poll: %s", strerror(errno));
			return -1;
		}
		/*
		 * Time the agent was not there to look (a poll that returned
		 * seconds late: a busy board, a guest on a loaded host; or a
		 * long start or stop) is not the client's idleness: its pings
		 * of that time may still be on their way through the board's
		 * network stack, which did not run either
		 */
		now = mono_ms();
		if (now - awake > POLL_MS)
			last_rx += now - awake - POLL_MS;
		awake = now;
		if (pfd[1].revents & POLLIN)
			a->tp->refuse(a);
		if (a->tp->gone && a->tp->gone(a))
			return drop_client(a, ctl, round, running, NULL);
		/*
		 * Orders waiting to be read are read first: an agent that
		 * did not run for a while (a busy board) must not drop a
		 * client whose pings are there
		 */
		if (per_client && a->idle_ms && !(pfd[0].revents & POLLIN) &&
		    now - last_rx > a->idle_ms) {
			snprintf(why, sizeof(why),
				 "no order from the client in %d s",
				 a->idle_ms / 1000);
			return drop_client(a, ctl, round, running, why);
		}
		if (!(pfd[0].revents & (POLLIN | (per_client ? POLLHUP | POLLERR : 0)))) {
			/* POLLHUP alone: no host on the other end yet */
			if (pfd[0].revents & POLLHUP)
				usleep(200000);
			continue;
		}
		n = read(ctl, o.buf + o.have, vtproto_orders_room(&o));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		/*
		 * A client that closes with pages still unread resets the
		 * connection: whether a client vanishing mid-round shows
		 * as an end or a reset depends on what had come in when it
		 * closed. Gone all the same, not a failure
		 */
		if (per_client && (!n || (n < 0 && errno == ECONNRESET))) {
			printf("hyptrace agent: the client went away%s%s\n",
			       running ? " in the middle of a round: stopping it" :
			       "", n ? " (it reset the connection)" : "");
			return drop_client(a, ctl, round, running, NULL);
		}
		if (per_client && n < 0) {
			printf("hyptrace agent: the client failed: %s\n",
			       strerror(errno));
			return drop_client(a, ctl, round, running, NULL);
		}
		if (n < 0) {
			cmdline_err(SUB, "reading %s: %s", VT_CTL_PORT,
			       strerror(errno));
			return -1;
		}
		o.have += n;
		while ((ord = vtproto_next_order(&o, line, sizeof(line)))) {
			/*
			 * Only an order keeps the client: empty lines cost
			 * nothing to send and would hold the one slot
			 */
			if (ord != VT_ORDER_EMPTY)
				last_rx = mono_ms();
			if (ord == VT_ORDER_START && !running) {
				if (agent_round_start(a, ctl, ++round)) {
					if (!per_client)
						return -1;
					abort_start(a, ctl, round);
					return AGENT_CLIENT_DROP;
				}
				running = true;
			} else if (ord == VT_ORDER_STOP && running) {
				running = false;
				if (agent_round_stop(a, ctl, round) && !per_client)
					return -1;
			} else if (ord == VT_ORDER_CLOCK) {
				if (agent_clock_now(a, ctl) && !per_client)
					return -1;
			} else if (ord == VT_ORDER_BAD) {
				snprintf(why, sizeof(why),
					 "unknown order '%.32s' on %s (the host sends 1 to start, 0 to stop)",
					 line, per_client ? "the connection" :
					 VT_CTL_PORT);
				if (per_client)
					return drop_client(a, ctl, round,
							   running, why);
				cmdline_err(SUB, "%s", why);
				if (running)
					agent_round_stop(a, ctl, round);
				return -1;
			}
		}
	}
	if (running && agent_round_stop(a, ctl, round) && !per_client)
		return -1;
	return AGENT_CLIENT_SIGNAL;
}
