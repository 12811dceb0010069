// SPDX-License-Identifier: GPL-2.0
/*
 * trace-cmd's version 3 messages: framing, sending and receiving, with
 * every size checked before it is used (tcmsg.h).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "hyptrace/compiler.h"
#include "hyptrace/errmsg.h"
#include "tcmsg.h"
#include "hyptrace/fdio.h"

static const char *const names[] = {
	[TCM_CLOSE] = "CLOSE",
	[TCM_TINIT] = "TINIT",
	[TCM_RINIT] = "RINIT",
	[TCM_SEND_DATA] = "SEND_DATA",
	[TCM_FIN_DATA] = "FIN_DATA",
	[TCM_NOT_SUPP] = "NOT_SUPP",
};

const char *tcmsg_name(uint32_t cmd, char *buf, size_t len)
{
	if (cmd < ARRAY_SIZE(names) && names[cmd])
		return names[cmd];
	snprintf(buf, len, "command %u", cmd);
	return buf;
}

uint32_t tcmsg_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

int tcmsg_write_all(int fd, const void *p, size_t len)
{
	return fdio_write_all(fd, p, len, FDIO_SOCKET);
}

ssize_t tcmsg_read_full(int fd, void *p, size_t len, int timeout_ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t got = 0;

	while (got < len) {
		ssize_t n;
		int r = poll(&pfd, 1, timeout_ms);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (!r) {
			errno = ETIMEDOUT;
			return -1;
		}
		n = recv(fd, (char *)p + got, len - got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (!n)
			break;
		got += n;
	}
	return got;
}

int tcmsg_send(int fd, uint32_t cmd, const void *fixed, size_t fixed_len,
	     const void *payload, size_t len, char *err, size_t errlen)
{
	uint8_t buf[TCM_MAX_LEN];
	size_t size = TCM_HDR_LEN + fixed_len + len;
	char name[32];

	if (size > TCM_MAX_LEN)
		return errmsg(err, errlen, "%s message of %zu bytes is too big",
			      tcmsg_name(cmd, name, sizeof(name)), size);
	put_be32(buf, size);
	put_be32(buf + 4, cmd);
	put_be32(buf + 8, fixed_len);
	if (fixed_len)
		memcpy(buf + TCM_HDR_LEN, fixed, fixed_len);
	if (len)
		memcpy(buf + TCM_HDR_LEN + fixed_len, payload, len);
	if (tcmsg_write_all(fd, buf, size))
		return errmsg(err, errlen, "sending %s: %s",
			      tcmsg_name(cmd, name, sizeof(name)),
			      strerror(errno ? errno : EPIPE));
	return 0;
}

static int recv_part(int fd, void *p, size_t len, int timeout_ms,
		     const char *what, char *err, size_t errlen)
{
	ssize_t n = tcmsg_read_full(fd, p, len, timeout_ms);

	if (n < 0)
		return errmsg(err, errlen, "reading %s: %s", what,
			      strerror(errno));
	if ((size_t)n < len)
		return errmsg(err, errlen, "the listener closed the connection %s",
			      n ? "in the middle of a message" :
			      "instead of answering");
	return 0;
}

int tcmsg_recv(int fd, struct tcm_msg *m, int timeout_ms, char *err,
	     size_t errlen)
{
	uint32_t size;

	if (recv_part(fd, m->buf, TCM_HDR_LEN, timeout_ms, "a message",
		      err, errlen))
		return -1;
	size = tcmsg_be32(m->buf);
	m->cmd = tcmsg_be32(m->buf + 4);
	m->fixed_len = tcmsg_be32(m->buf + 8);
	if (size < TCM_HDR_LEN || size > TCM_MAX_LEN ||
	    m->fixed_len > size - TCM_HDR_LEN)
		return errmsg(err, errlen,
			      "the listener sent a malformed message (size %u, fixed part %u)",
			      size, m->fixed_len);
	if (recv_part(fd, m->buf + TCM_HDR_LEN, size - TCM_HDR_LEN,
		      timeout_ms, "a message", err, errlen))
		return -1;
	m->fixed = m->buf + TCM_HDR_LEN;
	m->payload = m->fixed + m->fixed_len;
	m->len = size - TCM_HDR_LEN - m->fixed_len;
	return 0;
}
