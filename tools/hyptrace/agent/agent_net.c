// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace agent -N ADDR:PORT: the virtio-trace model over one TCP
 * connection (lib/vtproto.h, lib/vtnet.h). The agent listens on ADDR:PORT
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

/*
 * What is left of the mux's page message to the client, waiting up to
 * @wait_ms for it to take it: 0 when all of it went, 1 if some is left,
 * -1 if the connection failed (said, and the client dropped). Under
 * send_lock, with a client.
 */
static int out_push(struct agent *a, int wait_ms)
{
	long long deadline = mono_ms() + wait_ms;

	while (a->out_off < a->out_len) {
		struct pollfd pfd = { .fd = a->client_fd, .events = POLLOUT };
		long long left;
		ssize_t n;

		n = write(a->client_fd, a->out + a->out_off,
			  a->out_len - a->out_off);
		if (n > 0) {
			a->out_off += n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 || errno != EAGAIN) {
			cmdline_err(SUB, "the client: %s; dropping it",
			       n ? strerror(errno) : "no progress");
			a->client_dead = true;
			return -1;
		}
		left = deadline - mono_ms();
		if (left <= 0)
			return 1;
		poll(&pfd, 1, (int)left);
	}
	a->out_off = a->out_len = 0;
	return 0;
}

int agent_net_send(struct agent *a, int fd, const char *name, const void *p,
	       size_t len, char *err, size_t errlen)
{
	bool net = a->listen_fd >= 0;
	int ret;

	pthread_mutex_lock(&a->send_lock);
	if (net && a->client_dead) {
		ret = errmsg(err, errlen, "the client is gone");
	} else if (net && fd == a->client_fd && out_push(a, SEND_MS)) {
		/* the rest of a page first, or the stream is broken */
		ret = errmsg(err, errlen, "the client took nothing for %d ms",
			     SEND_MS);
	} else {
		ret = vtproto_send(fd, name, p, len, SEND_MS, err, errlen);
	}
	if (ret && net)
		a->client_dead = true;
	pthread_mutex_unlock(&a->send_lock);
	return ret;
}

int agent_net_pipe(struct agent *a, unsigned int cpu, char *err,
		   size_t errlen)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC | O_NONBLOCK))
		return errmsg(err, errlen, "pipe: %s", strerror(errno));
	/* room for a burst while the client is slow; the default is fine */
	fcntl(p[1], F_SETPIPE_SZ, PIPE_BYTES);
	a->net_rd[cpu] = p[0];
	a->cpu[cpu].port_fd = p[1];
	a->net_page[cpu] = malloc(a->page_size);
	if (!a->net_page[cpu])
		return errmsg(err, errlen, "out of memory");
	return 0;
}

/* CPU @i's page is not sent: count it and its events. Under send_lock. */
static void mux_drop(struct agent *a, unsigned int i)
{
	struct source_counts cnt = { 0 };
	char why[128];

	if (!source_count_page(a->net_page[i], a->page_size, &cnt, why,
			    sizeof(why)))
		a->net_dropped_events[i] += cnt.events;
	a->net_dropped[i]++;
	if (a->client_dead || a->client_fd < 0)
		return;
	if (!a->net_stalled)
		printf("hyptrace agent: the client took no page for %d ms: dropping pages until it takes one\n",
		       a->stall_ms);
	a->net_stalled = true;
	a->net_stall_dropped++;
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
	long long deadline, left;
	int head;

	pthread_mutex_lock(&a->send_lock);
	deadline = mono_ms() + (a->net_stalled ? 0 : a->stall_ms);
	for (;;) {
		struct pollfd pfd = { .fd = a->client_fd, .events = POLLOUT };
		int r;

		if (a->client_dead || a->client_fd < 0)
			break;
		r = out_push(a, 0);
		if (r < 0)
			break;
		if (!r) {
			head = snprintf((char *)a->out, 64, "page:%u %u\n", i,
					a->page_size);
			memcpy(a->out + head, a->net_page[i], a->page_size);
			a->out_len = head + a->page_size;
			a->out_off = 0;
			out_push(a, 0);
			if (a->net_stalled)
				printf("hyptrace agent: the client takes pages again, %llu dropped meanwhile\n",
				       (unsigned long long)a->net_stall_dropped);
			a->net_stalled = false;
			a->net_stall_dropped = 0;
			pthread_mutex_unlock(&a->send_lock);
			return;
		}
		left = deadline - mono_ms();
		if (left <= 0)
			break;
		pthread_mutex_unlock(&a->send_lock);
		poll(&pfd, 1, left > 100 ? 100 : (int)left);
		pthread_mutex_lock(&a->send_lock);
	}
	mux_drop(a, i);
	pthread_mutex_unlock(&a->send_lock);
}

/*
 * One page of CPU @i's pipe, when it has one, to the client: one a CPU
 * in turn, so that a CPU that writes all the time cannot keep the others
 * out
 */
static void mux_cpu(struct agent *a, unsigned int i)
{
	for (;;) {
		ssize_t n = read(a->net_rd[i], a->net_page[i] + a->net_have[i],
				 a->page_size - a->net_have[i]);

		if (n <= 0)
			return;		/* EAGAIN: empty for now */
		a->net_have[i] += n;
		if (a->net_have[i] < a->page_size)
			continue;
		mux_page(a, i);
		a->net_have[i] = 0;
		return;
	}
}

static void *mux_thread(void *arg)
{
	struct agent *a = arg;
	struct pollfd pfd[SOURCE_MAX_CPUS + 1];
	unsigned int i, n;

	while (!__atomic_load_n(&a->mux_quit, __ATOMIC_ACQUIRE)) {
		for (i = n = 0; i < a->nr_cpus; i++)
			pfd[n++] = (struct pollfd){ .fd = a->net_rd[i],
						    .events = POLLIN };
		/* the rest of a page, when the client can take some */
		pthread_mutex_lock(&a->send_lock);
		pfd[n] = (struct pollfd){ .fd = -1, .events = POLLOUT };
		if (a->out_len && !a->client_dead)
			pfd[n].fd = a->client_fd;
		pthread_mutex_unlock(&a->send_lock);
		if (poll(pfd, n + 1, 100) <= 0) {
			__atomic_add_fetch(&a->mux_idle, 1, __ATOMIC_RELEASE);
			continue;
		}
		if (pfd[n].revents) {
			pthread_mutex_lock(&a->send_lock);
			if (a->out_len && !a->client_dead && a->client_fd >= 0)
				out_push(a, 0);
			pthread_mutex_unlock(&a->send_lock);
		}
		for (i = 0; i < n; i++)
			if (pfd[i].revents)
				mux_cpu(a, i);
	}
	return NULL;
}

int agent_net_mux_start(struct agent *a, char *err, size_t errlen)
{
	int r;

	a->out = malloc(a->page_size + 64);
	if (!a->out)
		return errmsg(err, errlen, "out of memory");
	r = pthread_create(&a->mux, NULL, mux_thread, a);
	if (r)
		return errmsg(err, errlen, "no thread: %s", strerror(r));
	a->mux_started = true;
	return 0;
}

void agent_net_mux_stop(struct agent *a)
{
	unsigned int i;

	if (a->mux_started) {
		__atomic_store_n(&a->mux_quit, true, __ATOMIC_RELEASE);
		pthread_join(a->mux, NULL);
	}
	a->mux_started = false;
	for (i = 0; i < SOURCE_MAX_CPUS; i++) {
		if (a->net_rd[i] >= 0)
			close(a->net_rd[i]);
		a->net_rd[i] = -1;
		free(a->net_page[i]);
		a->net_page[i] = NULL;
	}
	free(a->out);
	a->out = NULL;
}

/* Nothing in the pipes, nothing half read, for two passes of the mux */
void agent_net_flush(struct agent *a)
{
	unsigned long seen = __atomic_load_n(&a->mux_idle, __ATOMIC_ACQUIRE);
	unsigned int i, waited;

	for (waited = 0; waited < 30000; waited += 20) {
		bool empty = true;

		for (i = 0; i < a->nr_cpus && empty; i++) {
			int q = 0;

			if (a->net_rd[i] >= 0 &&
			    (ioctl(a->net_rd[i], FIONREAD, &q) || q))
				empty = false;
		}
		if (!empty)
			seen = __atomic_load_n(&a->mux_idle, __ATOMIC_ACQUIRE);
		else if (__atomic_load_n(&a->mux_idle, __ATOMIC_ACQUIRE) >=
			 seen + 2)
			return;
		usleep(20000);
	}
	cmdline_err(SUB, "the pages of the round did not all go in 30 s");
}

void agent_net_round(struct agent *a)
{
	pthread_mutex_lock(&a->send_lock);
	memset(a->net_dropped, 0, sizeof(a->net_dropped));
	memset(a->net_dropped_events, 0, sizeof(a->net_dropped_events));
	a->net_stalled = false;
	a->net_stall_dropped = 0;
	pthread_mutex_unlock(&a->send_lock);
}

void agent_net_dropped(struct agent *a, unsigned int cpu, uint64_t *pages,
		       uint64_t *events)
{
	pthread_mutex_lock(&a->send_lock);
	*pages = a->net_dropped[cpu];
	*events = a->net_dropped_events[cpu];
	pthread_mutex_unlock(&a->send_lock);
}

void agent_net_client(struct agent *a, int fd)
{
	pthread_mutex_lock(&a->send_lock);
	a->client_fd = fd;
	a->client_dead = false;
	a->client_hungup = false;
	a->out_len = a->out_off = 0;
	a->net_stalled = false;
	a->net_stall_dropped = 0;
	pthread_mutex_unlock(&a->send_lock);
}

void agent_net_hangup(struct agent *a)
{
	pthread_mutex_lock(&a->send_lock);
	a->client_dead = a->client_hungup = true;
	pthread_mutex_unlock(&a->send_lock);
}

bool agent_net_hungup(struct agent *a)
{
	bool hungup;

	pthread_mutex_lock(&a->send_lock);
	hungup = a->client_hungup;
	pthread_mutex_unlock(&a->send_lock);
	return hungup;
}

void agent_net_close(int fd)
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

void agent_net_refuse(struct agent *a)
{
	static const char why[] = BUSY;
	char err[128];
	int fd = accept4(a->listen_fd, NULL, NULL,
			 SOCK_CLOEXEC | SOCK_NONBLOCK);

	if (fd < 0)
		return;
	printf("hyptrace agent: a second client refused while one is served\n");
	vtproto_send(fd, "error", why, strlen(why), REFUSE_MS, err, sizeof(err));
	agent_net_close(fd);
}

int agent_net_serve(struct agent *a, const char *where)
{
	char err[256];
	int r = 0;

	a->listen_fd = vtnet_listen(where, err, sizeof(err));
	if (a->listen_fd < 0) {
		cmdline_err(SUB, "%s", err);
		return -1;
	}
	printf("hyptrace agent: listening on %s\n", where);
	while (!*a->stop) {
		int fd = agent_auth_next(a, 200);

		if (fd < 0)
			continue;
		agent_auth_close(a, BUSY);
		printf("hyptrace agent: a client connected\n");
		agent_net_client(a, fd);
		r = agent_ctl_orders(a, fd, false);
		agent_net_client(a, -1);
		agent_net_close(fd);
		if (r < 0)
			break;
		if (r == AGENT_CLIENT_DROP)
			printf("hyptrace agent: the client is gone; listening on %s\n",
			       where);
	}
	agent_auth_close(a, "the agent is stopping");
	close(a->listen_fd);
	a->listen_fd = -1;
	agent_auth_summary(a);
	return r < 0 ? -1 : 0;
}
