// SPDX-License-Identifier: GPL-2.0
/*
 * The agent's door (vtgate.h): one poll() over the listening socket and
 * every handshake under way; nothing here waits on one client.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "hyptrace/mono_ms.h"
#include "hyptrace/vtgate.h"


void vtgate_init(struct vt_gate *g, int listen_fd, const struct vta_key *key,
	      int timeout_ms,
	      void (*refused)(void *ctx, enum vta_result r, const char *why),
	      void *ctx)
{
	memset(g, 0, sizeof(*g));
	g->listen_fd = listen_fd;
	g->key = key;
	g->timeout_ms = timeout_ms;
	g->refused = refused;
	g->ctx = ctx;
}

/*
 * Slot @i is done with: closed without waiting for the client to read
 * what it was told (a client that never reads must not hold the door).
 * But not with its bytes unread: a TCP socket closed with data in its
 * receive queue answers with a reset, which throws away what it had not
 * sent yet, the "error" just written among it (QEMU's user network turns
 * that into a plain end, and the client sees half a message). So the
 * end of our side is queued behind the message first, and what the client
 * sent meanwhile (a hostile one keeps sending) is read away; the socket is
 * non-blocking, and the reads are bounded.
 */
static void drop(struct vt_gate *g, unsigned int i)
{
	int fd = g->slot[i].fd, n;
	char sink[512];

	shutdown(fd, SHUT_WR);
	for (n = 0; n < 64 && read(fd, sink, sizeof(sink)) > 0; n++)
		;
	close(fd);
	g->slot[i] = g->slot[--g->n];
}

/* @r from slot @i's handshake: its fd if it passed, else -1 */
static int settle(struct vt_gate *g, unsigned int i, enum vta_result r,
		  const char *why)
{
	int fd = g->slot[i].fd;

	if (r == VTA_PENDING)
		return -1;
	if (r == VTA_OK) {
		g->slot[i] = g->slot[--g->n];
		return fd;
	}
	g->refused(g->ctx, r, why);
	drop(g, i);
	return -1;
}

/* A new connection, if one is waiting: its fd if no handshake is due */
static int take(struct vt_gate *g)
{
	char err[256];
	enum vta_result r;
	unsigned int i;
	int fd = accept4(g->listen_fd, NULL, NULL,
			 SOCK_CLOEXEC | SOCK_NONBLOCK);

	if (fd < 0)
		return -1;
	if (g->n == VTG_SLOTS) {
		/* the slots are in arrival order but for swaps: find it */
		unsigned int old = 0;

		for (i = 1; i < g->n; i++)
			if (g->slot[i].deadline < g->slot[old].deadline)
				old = i;
		vtproto_send(g->slot[old].fd, "error", "crowded out", 11, 0, err,
			sizeof(err));
		g->refused(g->ctx, VTA_SILENT,
			   "crowded out by newer connections before it answered");
		drop(g, old);
	}
	i = g->n++;
	r = vtauth_start(&g->slot[i], fd, g->key, g->timeout_ms, err,
		      sizeof(err));
	return settle(g, i, r, err);
}

int vtgate_next(struct vt_gate *g, int wait_ms)
{
	struct pollfd pfd[VTG_SLOTS + 1];
	long long now = mono_ms(), until = now + wait_ms;
	unsigned int i, n = g->n;
	char err[256];
	int fd;

	for (i = 0; i < n; i++) {
		pfd[i] = (struct pollfd){ .fd = g->slot[i].fd, .events = POLLIN };
		if (g->slot[i].deadline < until)
			until = g->slot[i].deadline;
	}
	pfd[n] = (struct pollfd){ .fd = g->listen_fd, .events = POLLIN };
	if (poll(pfd, n + 1, until > now ? (int)(until - now) : 0) < 0 &&
	    errno != EINTR)
		return -1;
	/* Backwards: settling slot i moves the last slot into it */
	for (i = n; i-- > 0;) {
		if (!pfd[i].revents && g->slot[i].deadline > mono_ms())
			continue;
		fd = settle(g, i, vtauth_step(&g->slot[i], err, sizeof(err)),
			    err);
		if (fd >= 0)
			return fd;
	}
	if (pfd[n].revents & POLLIN)
		return take(g);
	return -1;
}

void vtgate_close_all(struct vt_gate *g, const char *why)
{
	char err[128];

	while (g->n) {
		vtproto_send(g->slot[0].fd, "error", why, strlen(why), 0, err,
			sizeof(err));
		drop(g, 0);
	}
}
