// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace agent -N ADDR:PORT: the virtio-trace model over one TCP
 * connection (hyptrace/vtproto.h, hyptrace/vtnet.h). The agent listens on ADDR:PORT
 * only and serves one client at a time: the orders come on its
 * connection, and the control messages and the pages go back on it. Each
 * CPU's thread (agent_cpu.c) writes its pages into a pipe instead of a
 * virtio-serial port; the mux thread here reads them and sends each whole
 * page as a "page:N" message, between the control messages (send_lock).
 * A client that does not read is treated as a virtio-serial port that
 * does not take pages: a page it has not made room for within stall_ms is
 * dropped whole and counted, and so is each further one until it takes
 * one again; the client stays. A second connection gets one "error"
 * message and is closed; a client that goes away or sends garbage ends
 * its round (garbage gets an "error" message, the last it gets) and the
 * agent takes the next one. A connection is served only once it has
 * answered the key's challenge (agent_auth.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "hyptrace/errmsg.h"
#include "hyptrace/cmdline.h"
#include "hyptrace/mono_ms.h"
#include "hyptrace/source.h"
#include "hyptrace/vtnet.h"
#include "hyptrace/vtproto.h"

#define SUB		"agent"
#define SEND_MS		5000
#define REFUSE_MS	1000
#define BUSY		"another client is being served: one at a time"
#define PIPE_BYTES	(1 << 20)

/* -N's state: the client, and the mux thread that sends the CPUs' pages */
struct agent_net {
	pthread_mutex_t send_lock;	/* one message at a time on the ctl */
	int listen_fd;
	int client_fd;			/* the client served, or -1 */
	bool client_dead;		/* a send to it failed: drop the rest */
	bool client_hungup;		/* sent an error: nothing more goes */
	int rd[SOURCE_MAX_CPUS];	/* the CPUs' pipes, read end */
	unsigned char *page[SOURCE_MAX_CPUS];
	size_t have[SOURCE_MAX_CPUS];
	/*
	 * Under send_lock: the page message the client has not all taken
	 * yet (the rest goes before anything else), whether it took nothing
	 * for stall_ms, and the pages of this round the mux dropped whole
	 * because of that (or because the client was gone)
	 */
	unsigned char *out;
	size_t out_len, out_off;
	bool stalled;
	uint64_t stall_dropped;
	uint64_t dropped[SOURCE_MAX_CPUS];
	uint64_t dropped_events[SOURCE_MAX_CPUS];
	pthread_t mux;
	bool mux_started, mux_quit;
	unsigned long mux_idle;		/* passes that found nothing */
	struct agent_auth auth;		/* the handshakes, the refusals */
};

static struct agent_net *net_of(const struct agent *a)
{
	return a->tp_state;
}

/*
 * What is left of the mux's page message to the client, waiting up to
 * @wait_ms for it to take it: 0 when all of it went, 1 if some is left,
 * -1 if the connection failed (said, and the client dropped). Under
 * send_lock, with a client.
 */
static int out_push(struct agent *a, int wait_ms)
{
	struct agent_net *net = net_of(a);
	long long deadline = mono_ms() + wait_ms;

	while (net->out_off < net->out_len) {
		struct pollfd pfd = { .fd = net->client_fd, .events = POLLOUT };
		long long left;
		ssize_t n;

		n = write(net->client_fd, net->out + net->out_off,
			  net->out_len - net->out_off);
		if (n > 0) {
			net->out_off += n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 || errno != EAGAIN) {
			cmdline_err(SUB, "the client: %s; dropping it",
			       n ? strerror(errno) : "no progress");
			net->client_dead = true;
			return -1;
		}
		left = deadline - mono_ms();
		if (left <= 0)
			return 1;
		poll(&pfd, 1, (int)left);
	}
	net->out_off = net->out_len = 0;
	return 0;
}

static int net_send(struct agent *a, int fd, const char *name, const void *p,
	       size_t len, char *err, size_t errlen)
{
	struct agent_net *net = net_of(a);
	int ret;

	pthread_mutex_lock(&net->send_lock);
	if (net->client_dead) {
		ret = errmsg(err, errlen, "the client is gone");
	} else if (fd == net->client_fd && out_push(a, SEND_MS)) {
		/* the rest of a page first, or the stream is broken */
		ret = errmsg(err, errlen, "the client took nothing for %d ms",
			     SEND_MS);
	} else {
		ret = vtproto_send(fd, name, p, len, SEND_MS, err, errlen);
	}
	if (ret)
		net->client_dead = true;
	pthread_mutex_unlock(&net->send_lock);
	return ret;
}

static int net_open_cpu(struct agent *a, unsigned int cpu, char *err,
			size_t errlen)
{
	struct agent_net *net = net_of(a);
	int p[2];

	if (pipe2(p, O_CLOEXEC | O_NONBLOCK))
		return errmsg(err, errlen, "pipe: %s", strerror(errno));
	/* room for a burst while the client is slow; the default is fine */
	fcntl(p[1], F_SETPIPE_SZ, PIPE_BYTES);
	net->rd[cpu] = p[0];
	a->cpu[cpu].port_fd = p[1];
	net->page[cpu] = malloc(a->page_size);
	if (!net->page[cpu])
		return errmsg(err, errlen, "out of memory");
	return 0;
}

/* CPU @i's page is not sent: count it and its events. Under send_lock. */
static void mux_drop(struct agent *a, unsigned int i)
{
	struct agent_net *net = net_of(a);
	struct source_counts cnt = { 0 };
	char why[128];

	if (!source_count_page(net->page[i], a->page_size, &cnt, why,
			    sizeof(why)))
		net->dropped_events[i] += cnt.events;
	net->dropped[i]++;
	if (net->client_dead || net->client_fd < 0)
		return;
	if (!net->stalled)
		printf("hyptrace agent: the client took no page for %d ms: dropping pages until it takes one\n",
		       a->stall_ms);
	net->stalled = true;
	net->stall_dropped++;
}

/*
 * CPU @i's page is whole: to the client as page:N once what went before
 * has gone. A client that has not taken that within stall_ms is slow: the
 * page is dropped whole and counted, as agent_cpu.c does with a port that
 * does not take one, and so is each further page it cannot take at once,
 * until it takes one again. A page of which a part went always goes whole.
 */
static void mux_page(struct agent *a, unsigned int i)
{
	struct agent_net *net = net_of(a);
	long long deadline, left;
	int head;

	pthread_mutex_lock(&net->send_lock);
	deadline = mono_ms() + (net->stalled ? 0 : a->stall_ms);
	for (;;) {
		struct pollfd pfd = { .fd = net->client_fd, .events = POLLOUT };
		int r;

		if (net->client_dead || net->client_fd < 0)
			break;
		r = out_push(a, 0);
		if (r < 0)
			break;
		if (!r) {
			head = snprintf((char *)net->out, 64, "page:%u %u\n", i,
					a->page_size);
			memcpy(net->out + head, net->page[i], a->page_size);
			net->out_len = head + a->page_size;
			net->out_off = 0;
			out_push(a, 0);
			if (net->stalled)
				printf("hyptrace agent: the client takes pages again, %llu dropped meanwhile\n",
				       (unsigned long long)net->stall_dropped);
			net->stalled = false;
			net->stall_dropped = 0;
			pthread_mutex_unlock(&net->send_lock);
			return;
		}
		left = deadline - mono_ms();
		if (left <= 0)
			break;
		pthread_mutex_unlock(&net->send_lock);
		poll(&pfd, 1, left > 100 ? 100 : (int)left);
		pthread_mutex_lock(&net->send_lock);
	}
	mux_drop(a, i);
	pthread_mutex_unlock(&net->send_lock);
}

/*
 * One page of CPU @i's pipe, when it has one, to the client: one a CPU
 * in turn, so that a CPU that writes all the time cannot keep the others
 * out
 */
static void mux_cpu(struct agent *a, unsigned int i)
{
	struct agent_net *net = net_of(a);

	for (;;) {
		ssize_t n = read(net->rd[i], net->page[i] + net->have[i],
				 a->page_size - net->have[i]);

		if (n <= 0)
			return;		/* EAGAIN: empty for now */
		net->have[i] += n;
		if (net->have[i] < a->page_size)
			continue;
		mux_page(a, i);
		net->have[i] = 0;
		return;
	}
}

static void *mux_thread(void *arg)
{
	struct agent *a = arg;
	struct agent_net *net = net_of(a);
	struct pollfd pfd[SOURCE_MAX_CPUS + 1];
	unsigned int i, n;

	while (!__atomic_load_n(&net->mux_quit, __ATOMIC_ACQUIRE)) {
		for (i = n = 0; i < a->nr_cpus; i++)
			pfd[n++] = (struct pollfd){ .fd = net->rd[i],
						    .events = POLLIN };
		/* the rest of a page, when the client can take some */
		pthread_mutex_lock(&net->send_lock);
		pfd[n] = (struct pollfd){ .fd = -1, .events = POLLOUT };
		if (net->out_len && !net->client_dead)
			pfd[n].fd = net->client_fd;
		pthread_mutex_unlock(&net->send_lock);
		if (poll(pfd, n + 1, 100) <= 0) {
			__atomic_add_fetch(&net->mux_idle, 1, __ATOMIC_RELEASE);
			continue;
		}
		if (pfd[n].revents) {
			pthread_mutex_lock(&net->send_lock);
			if (net->out_len && !net->client_dead && net->client_fd >= 0)
				out_push(a, 0);
			pthread_mutex_unlock(&net->send_lock);
		}
		for (i = 0; i < n; i++)
			if (pfd[i].revents)
				mux_cpu(a, i);
	}
	return NULL;
}

static int mux_start(struct agent *a, char *err, size_t errlen)
{
	struct agent_net *net = net_of(a);
	int r;

	net->out = malloc(a->page_size + 64);
	if (!net->out)
		return errmsg(err, errlen, "out of memory");
	r = pthread_create(&net->mux, NULL, mux_thread, a);
	if (r)
		return errmsg(err, errlen, "no thread: %s", strerror(r));
	net->mux_started = true;
	return 0;
}

static void mux_stop(struct agent *a)
{
	struct agent_net *net = net_of(a);
	unsigned int i;

	if (net->mux_started) {
		__atomic_store_n(&net->mux_quit, true, __ATOMIC_RELEASE);
		pthread_join(net->mux, NULL);
	}
	net->mux_started = false;
	for (i = 0; i < SOURCE_MAX_CPUS; i++) {
		if (net->rd[i] >= 0)
			close(net->rd[i]);
		net->rd[i] = -1;
		free(net->page[i]);
		net->page[i] = NULL;
	}
	free(net->out);
	net->out = NULL;
}

/* Nothing in the pipes, nothing half read, for two passes of the mux */
static void net_flush(struct agent *a)
{
	struct agent_net *net = net_of(a);
	unsigned long seen = __atomic_load_n(&net->mux_idle, __ATOMIC_ACQUIRE);
	unsigned int i, waited;

	for (waited = 0; waited < 30000; waited += 20) {
		bool empty = true;

		for (i = 0; i < a->nr_cpus && empty; i++) {
			int q = 0;

			if (net->rd[i] >= 0 &&
			    (ioctl(net->rd[i], FIONREAD, &q) || q))
				empty = false;
		}
		if (!empty)
			seen = __atomic_load_n(&net->mux_idle, __ATOMIC_ACQUIRE);
		else if (__atomic_load_n(&net->mux_idle, __ATOMIC_ACQUIRE) >=
			 seen + 2)
			return;
		usleep(20000);
	}
	cmdline_err(SUB, "the pages of the round did not all go in 30 s");
}

static void net_round(struct agent *a)
{
	struct agent_net *net = net_of(a);

	pthread_mutex_lock(&net->send_lock);
	memset(net->dropped, 0, sizeof(net->dropped));
	memset(net->dropped_events, 0, sizeof(net->dropped_events));
	net->stalled = false;
	net->stall_dropped = 0;
	pthread_mutex_unlock(&net->send_lock);
}

static void net_dropped(struct agent *a, unsigned int cpu, uint64_t *pages,
		       uint64_t *events)
{
	struct agent_net *net = net_of(a);

	pthread_mutex_lock(&net->send_lock);
	*pages = net->dropped[cpu];
	*events = net->dropped_events[cpu];
	pthread_mutex_unlock(&net->send_lock);
}

static void net_client(struct agent *a, int fd)
{
	struct agent_net *net = net_of(a);

	pthread_mutex_lock(&net->send_lock);
	net->client_fd = fd;
	net->client_dead = false;
	net->client_hungup = false;
	net->out_len = net->out_off = 0;
	net->stalled = false;
	net->stall_dropped = 0;
	pthread_mutex_unlock(&net->send_lock);
}

static void net_hangup(struct agent *a)
{
	struct agent_net *net = net_of(a);

	pthread_mutex_lock(&net->send_lock);
	net->client_dead = net->client_hungup = true;
	pthread_mutex_unlock(&net->send_lock);
}

static bool net_hungup(struct agent *a)
{
	struct agent_net *net = net_of(a);
	bool hungup;

	pthread_mutex_lock(&net->send_lock);
	hungup = net->client_hungup;
	pthread_mutex_unlock(&net->send_lock);
	return hungup;
}

static void close_quietly(int fd)
{
	long long deadline = mono_ms() + REFUSE_MS;
	char scrap[512];

	shutdown(fd, SHUT_WR);
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		long long left = deadline - mono_ms();
		ssize_t n;

		if (left <= 0 || poll(&pfd, 1, (int)left) <= 0)
			break;
		n = read(fd, scrap, sizeof(scrap));
		if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
			break;
	}
	close(fd);
}

static void net_refuse(struct agent *a)
{
	struct agent_net *net = net_of(a);

	static const char why[] = BUSY;
	char err[128];
	int fd = accept4(net->listen_fd, NULL, NULL,
			 SOCK_CLOEXEC | SOCK_NONBLOCK);

	if (fd < 0)
		return;
	printf("hyptrace agent: a second client refused while one is served\n");
	vtproto_send(fd, "error", why, strlen(why), REFUSE_MS, err, sizeof(err));
	close_quietly(fd);
}

static int net_serve(struct agent *a, bool start_now)
{
	struct agent_net *net = net_of(a);
	const char *where = a->where;
	char err[256];
	int r = 0;

	(void)start_now;	/* the client starts (parse_args) */
	if (mux_start(a, err, sizeof(err))) {
		cmdline_err(SUB, "%s", err);
		return -1;
	}
	net->listen_fd = vtnet_listen(where, err, sizeof(err));
	if (net->listen_fd < 0) {
		cmdline_err(SUB, "%s", err);
		return -1;
	}
	printf("hyptrace agent: listening on %s\n", where);
	while (!*a->stop) {
		int fd = agent_auth_next(&net->auth, net->listen_fd, 200);

		if (fd < 0)
			continue;
		agent_auth_close(&net->auth, BUSY);
		printf("hyptrace agent: a client connected\n");
		net_client(a, fd);
		r = agent_ctl_orders(a, fd, false);
		net_client(a, -1);
		close_quietly(fd);
		if (r < 0)
			break;
		if (r == AGENT_CLIENT_DROP)
			printf("hyptrace agent: the client is gone; listening on %s\n",
			       where);
	}
	agent_auth_close(&net->auth, "the agent is stopping");
	close(net->listen_fd);
	net->listen_fd = -1;
	agent_auth_summary(&net->auth);
	return r < 0 ? -1 : 0;
}

static int net_open(struct agent *a)
{
	struct agent_net *net = calloc(1, sizeof(*net));
	unsigned int i;

	if (!net) {
		cmdline_err(SUB, "out of memory");
		return -1;
	}
	pthread_mutex_init(&net->send_lock, NULL);
	net->auth.key = a->no_key ? NULL : &a->key;
	net->listen_fd = net->client_fd = -1;
	for (i = 0; i < SOURCE_MAX_CPUS; i++)
		net->rd[i] = -1;
	a->tp_state = net;
	return 0;
}

static void net_close(struct agent *a)
{
	struct agent_net *net = net_of(a);

	if (!net)
		return;
	mux_stop(a);
	pthread_mutex_destroy(&net->send_lock);
	free(net);
	a->tp_state = NULL;
}

static bool net_gone(struct agent *a)
{
	struct agent_net *net = net_of(a);
	bool gone;

	pthread_mutex_lock(&net->send_lock);
	gone = net->client_dead;
	pthread_mutex_unlock(&net->send_lock);
	return gone;
}

static int net_busy_fd(struct agent *a)
{
	return net_of(a)->listen_fd;
}

const struct agent_transport agent_net_transport = {
	.ctl_name = "the client",
	.per_client = true,
	.open = net_open,
	.open_cpu = net_open_cpu,
	.serve = net_serve,
	.send = net_send,
	.close = net_close,
	.round = net_round,
	.flush = net_flush,
	.dropped = net_dropped,
	.hangup = net_hangup,
	.hungup = net_hungup,
	.gone = net_gone,
	.busy_fd = net_busy_fd,
	.refuse = net_refuse,
};
