// SPDX-License-Identifier: GPL-2.0
/* The TCP sockets of the virtio-trace model over the network (vtnet.h). */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "hyptrace/errmsg.h"
#include "hyptrace/vtnet.h"

int vtnet_split(const char *where, char *host, size_t hlen, char *port,
	      size_t plen, char *err, size_t errlen)
{
	const char *colon = strrchr(where, ':');
	const char *h = where;
	size_t n;
	long p;

	if (!colon || colon == where)
		return errmsg(err, errlen, "'%.64s' is not ADDR:PORT", where);
	n = colon - where;
	if (n >= 2 && h[0] == '[' && h[n - 1] == ']') {
		h++;
		n -= 2;
	}
	if (!n || n >= hlen)
		return errmsg(err, errlen, "'%.64s' is not ADDR:PORT", where);
	memcpy(host, h, n);
	host[n] = '\0';
	n = strlen(colon + 1);
	p = n && n < 6 && strspn(colon + 1, "0123456789") == n ?
	    atol(colon + 1) : 0;
	if (p < 1 || p > 65535 || n >= plen)
		return errmsg(err, errlen, "'%.64s' has no port number 1-65535",
			      where);
	memcpy(port, colon + 1, n + 1);
	return 0;
}

static struct addrinfo *resolve(const char *where, int flags, char *err,
				size_t errlen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = flags };
	struct addrinfo *res;
	char host[256], port[16];
	int r;

	if (vtnet_split(where, host, sizeof(host), port, sizeof(port), err,
		      errlen))
		return NULL;
	r = getaddrinfo(host, port, &hints, &res);
	if (r) {
		errmsg(err, errlen, "cannot find %s: %s", host,
		       gai_strerror(r));
		return NULL;
	}
	return res;
}

int vtnet_listen(const char *where, char *err, size_t errlen)
{
	struct addrinfo *res = resolve(where, AI_NUMERICHOST, err, errlen);
	int fd, one = 1;

	if (!res)
		return -1;
	fd = socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    0);
	if (fd < 0) {
		errmsg(err, errlen, "socket: %s", strerror(errno));
		goto out;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, res->ai_addr, res->ai_addrlen) || listen(fd, 4)) {
		errmsg(err, errlen, "cannot listen on %s: %s", where,
		       strerror(errno));
		close(fd);
		fd = -1;
	}
out:
	freeaddrinfo(res);
	return fd;
}

static int connect_one(const struct addrinfo *ai, int timeout_ms)
{
	struct pollfd pfd = { .events = POLLOUT };
	socklen_t sl = sizeof(int);
	int fd, e = 0;

	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    0);
	if (fd < 0)
		return -1;
	pfd.fd = fd;
	if (!connect(fd, ai->ai_addr, ai->ai_addrlen))
		return fd;
	if (errno != EINPROGRESS)
		goto fail;
	e = poll(&pfd, 1, timeout_ms);
	if (e <= 0) {
		errno = e ? errno : ETIMEDOUT;
		goto fail;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &sl) || e) {
		errno = e ? e : errno;
		goto fail;
	}
	return fd;
fail:
	e = errno;
	close(fd);
	errno = e;
	return -1;
}

int vtnet_connect(const char *where, int timeout_ms, char *err, size_t errlen)
{
	struct addrinfo *res = resolve(where, 0, err, errlen), *ai;
	int fd = -1, saved = 0;

	if (!res)
		return -1;
	for (ai = res; ai && fd < 0; ai = ai->ai_next) {
		fd = connect_one(ai, timeout_ms);
		if (fd < 0)
			saved = errno;
	}
	freeaddrinfo(res);
	if (fd < 0)
		errmsg(err, errlen, "cannot connect to %s: %s%s", where,
		       strerror(saved), saved == ECONNREFUSED ?
		       " (is `hyptrace agent -N` running there?)" : "");
	return fd;
}
