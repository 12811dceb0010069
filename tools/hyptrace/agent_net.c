// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace agent -N ADDR:PORT: the virtio-trace model over one TCP
 * connection (lib/vtproto.h, lib/vtnet.h). The agent listens on ADDR:PORT
 * only and serves one client at a time: the orders come on its
 * connection, and the control messages and the pages go back on it. Each
 * CPU's thread (agent_cpu.c) writes its pages into a pipe instead of a
 * virtio-serial port; the mux thread here reads them and sends each whole
 * page as a "page:N" message, between the control messages (send_lock).
 * A second connection gets one "error" message and is closed; a client
 * that goes away or sends garbage ends its round and the agent takes the
 * next one.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agent.h"
#include "errmsg.h"
#include "hyptrace.h"
#include "vtnet.h"
#include "vtproto.h"

#define SUB		"agent"
#define SEND_MS		5000
#define REFUSE_MS	1000
#define PIPE_BYTES	(1 << 20)

int agent_send(struct agent *a, int fd, const char *name, const void *p,
	       size_t len, char *err, size_t errlen)
{
	int ret;

	pthread_mutex_lock(&a->send_lock);
	if (a->listen_fd >= 0 && a->client_dead)
		ret = errmsg(err, errlen, "the client is gone");
	else
		ret = vt_send(fd, name, p, len, SEND_MS, err, errlen);
	if (ret && a->listen_fd >= 0)
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

/* What CPU @i's pipe has: each whole page to the client */
static void mux_cpu(struct agent *a, unsigned int i)
{
	char name[32], err[256];

	for (;;) {
		ssize_t n = read(a->net_rd[i], a->net_page[i] + a->net_have[i],
				 a->page_size - a->net_have[i]);

		if (n <= 0)
			return;		/* EAGAIN: empty for now */
		a->net_have[i] += n;
		if (a->net_have[i] < a->page_size)
			continue;
		snprintf(name, sizeof(name), "page:%u", i);
		pthread_mutex_lock(&a->send_lock);
		if (!a->client_dead && a->client_fd >= 0 &&
		    vt_send(a->client_fd, name, a->net_page[i], a->page_size,
			    SEND_MS, err, sizeof(err))) {
			ht_err(SUB, "the client: %s; dropping it", err);
			a->client_dead = true;
		}
		a->net_have[i] = 0;
		pthread_mutex_unlock(&a->send_lock);
	}
}

static void *mux_thread(void *arg)
{
	struct agent *a = arg;
	struct pollfd pfd[REC_MAX_CPUS];
	unsigned int i, n;

	while (!__atomic_load_n(&a->mux_quit, __ATOMIC_ACQUIRE)) {
		for (i = n = 0; i < a->nr_cpus; i++)
			pfd[n++] = (struct pollfd){ .fd = a->net_rd[i],
						    .events = POLLIN };
		if (poll(pfd, n, 100) <= 0) {
			__atomic_add_fetch(&a->mux_idle, 1, __ATOMIC_RELEASE);
			continue;
		}
		for (i = 0; i < n; i++)
			if (pfd[i].revents)
				mux_cpu(a, i);
	}
	return NULL;
}

int agent_net_mux_start(struct agent *a, char *err, size_t errlen)
{
	int r = pthread_create(&a->mux, NULL, mux_thread, a);

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
	for (i = 0; i < REC_MAX_CPUS; i++) {
		if (a->net_rd[i] >= 0)
			close(a->net_rd[i]);
		a->net_rd[i] = -1;
		free(a->net_page[i]);
		a->net_page[i] = NULL;
	}
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
	ht_err(SUB, "the pages of the round did not all go in 30 s");
}

void agent_net_refuse(struct agent *a)
{
	static const char why[] =
		"another client is being served: one at a time";
	char err[128];
	int fd = accept4(a->listen_fd, NULL, NULL,
			 SOCK_CLOEXEC | SOCK_NONBLOCK);

	if (fd < 0)
		return;
	printf("hyptrace agent: a second client refused while one is served\n");
	vt_send(fd, "error", why, strlen(why), REFUSE_MS, err, sizeof(err));
	shutdown(fd, SHUT_WR);
	close(fd);
}

int agent_net_serve(struct agent *a, const char *where)
{
	char err[256];
	int r = 0;

	a->listen_fd = vtn_listen(where, err, sizeof(err));
	if (a->listen_fd < 0) {
		ht_err(SUB, "%s", err);
		return -1;
	}
	printf("hyptrace agent: listening on %s\n", where);
	while (!*a->stop) {
		struct pollfd pfd = { .fd = a->listen_fd, .events = POLLIN };
		int fd;

		if (poll(&pfd, 1, 200) <= 0)
			continue;
		fd = accept4(a->listen_fd, NULL, NULL,
			     SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0)
			continue;
		printf("hyptrace agent: a client connected\n");
		pthread_mutex_lock(&a->send_lock);
		a->client_fd = fd;
		a->client_dead = false;
		pthread_mutex_unlock(&a->send_lock);
		r = agent_control(a, fd, false);
		pthread_mutex_lock(&a->send_lock);
		a->client_fd = -1;
		pthread_mutex_unlock(&a->send_lock);
		close(fd);
		if (r < 0)
			break;
		if (r == AGENT_CLIENT_DROP)
			printf("hyptrace agent: the client is gone; listening on %s\n",
			       where);
	}
	close(a->listen_fd);
	a->listen_fd = -1;
	return r < 0 ? -1 : 0;
}
