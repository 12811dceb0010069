// SPDX-License-Identifier: GPL-2.0
/*
 * A session with `trace-cmd listen`: the handshake, the metadata, the
 * per-CPU TCP streams and the orderly end (tcnet.h). Written from
 * trace-cmd's tracecmd/trace-listen.c, tracecmd/trace-record.c and
 * lib/trace-cmd/trace-msg.c as the description of what the listener
 * does, and tried against Debian's trace-cmd binary.
 */
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>

#include "hyptrace/errmsg.h"
#include "hyptrace/mono_ms.h"
#include "tcmsg.h"
#include "hyptrace/tcnet.h"

/* How long the listener may take to answer during the handshake */
#define REPLY_MS		30000
/*
 * The listener binds each CPU's port, sends RINIT, and only then does the
 * reader it forked for that CPU call listen(): a connection that comes too
 * soon is refused, so try again for this long.
 */
#define DATA_CONNECT_MS		5000
/* Reading the last pages, then assembling the file, may take this long */
#define DRAIN_MS		30000
#define ASSEMBLE_MS		60000
/*
 * The listener reads the metadata while the CPU streams already flow, and
 * a CPU's reader that ends (at the end of its stream) interrupts that
 * read: it then takes FIN_DATA for an unexpected message and answers
 * NOT_SUPP (the file is still whole). Streams end no sooner than this
 * after the metadata, which the listener reads in microseconds.
 */
#define META_SETTLE_MS		1000

/* What the listener and we say before the first message */
#define GREETING		"tracecmd"
#define ASK_V3			"-1V3"		/* sent with its NUL */
#define V3_MAGIC		"766679\0"	/* sent with its NUL: 8 bytes */
#define V3_REPLY		"V3"		/* received with its NUL */
#define OPT_TCP			"tcp"

struct tcn_session {
	int fd;				/* the message connection */
	char peer[300];
	struct sockaddr_storage addr;	/* where it went: data goes there too */
	socklen_t addrlen;
	unsigned int nr_cpus;
	unsigned int page_size;
	unsigned int *port;
	int *cpu_fd;
	uint64_t *cpu_bytes;
	uint64_t meta_bytes;
	long long meta_done_ms;		/* when FIN_DATA went */
};

/* HOST:PORT, [HOST]:PORT or PORT into @host and @port */
static int split_where(const char *where, char *host, size_t hlen,
		       char *port, size_t plen, char *err, size_t errlen)
{
	const char *colon = strrchr(where, ':');
	size_t n;

	if (!colon) {
		snprintf(host, hlen, "localhost");
		colon = where - 1;
	} else {
		const char *h = where;

		n = colon - where;
		if (n >= 2 && h[0] == '[' && h[n - 1] == ']') {
			h++;
			n -= 2;
		}
		if (!n || n >= hlen)
			return errmsg(err, errlen,
				      "'%s' is not HOST:PORT", where);
		memcpy(host, h, n);
		host[n] = '\0';
	}
	n = strlen(colon + 1);
	if (!n || n >= plen || strspn(colon + 1, "0123456789") != n ||
	    atoi(colon + 1) < 1 || atoi(colon + 1) > 65535)
		return errmsg(err, errlen, "'%s' has no port number 1-65535",
			      where);
	memcpy(port, colon + 1, n + 1);
	return 0;
}

static int connect_to(struct tcn_session *s, const char *where, char *err,
		      size_t errlen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM };
	struct addrinfo *res, *ai;
	char host[256], port[16];
	int r, saved = 0;

	if (split_where(where, host, sizeof(host), port, sizeof(port), err,
			errlen))
		return -1;
	r = getaddrinfo(host, port, &hints, &res);
	if (r)
		return errmsg(err, errlen, "cannot find %s: %s", host,
			      gai_strerror(r));
	for (ai = res; ai; ai = ai->ai_next) {
		s->fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
			       ai->ai_protocol);
		if (s->fd < 0) {
			saved = errno;
			continue;
		}
		if (!connect(s->fd, ai->ai_addr, ai->ai_addrlen)) {
			memcpy(&s->addr, ai->ai_addr, ai->ai_addrlen);
			s->addrlen = ai->ai_addrlen;
			break;
		}
		saved = errno;
		close(s->fd);
		s->fd = -1;
	}
	freeaddrinfo(res);
	if (s->fd >= 0)
		return 0;
	if (saved == ECONNREFUSED)
		return errmsg(err, errlen,
			      "cannot connect to %s: connection refused (is `trace-cmd listen -p %s` running there?)",
			      where, port);
	return errmsg(err, errlen, "cannot connect to %s: %s", where,
		      strerror(saved));
}

/* @buf's @len bytes, printable, for saying what a peer sent */
static const char *shown(const char *buf, size_t len, char *out,
			 size_t outlen)
{
	size_t i, o = 0;

	for (i = 0; i < len && o + 5 < outlen; i++) {
		unsigned char c = buf[i];

		if (c >= 0x20 && c < 0x7f && c != '"')
			out[o++] = c;
		else
			o += snprintf(out + o, outlen - o, "\\x%02x", c);
	}
	out[o] = '\0';
	return out;
}

/* Read exactly @len bytes of the handshake and compare them with @want */
static int expect(struct tcn_session *s, const char *want, size_t len,
		  const char *what, char *err, size_t errlen)
{
	char buf[16], text[80];
	ssize_t n = tcmsg_read_full(s->fd, buf, len, REPLY_MS);

	if (n < 0 && errno == ETIMEDOUT)
		return errmsg(err, errlen,
			      "%s did not answer in %d s: not a trace-cmd listener?",
			      s->peer, REPLY_MS / 1000);
	if (n < 0)
		return errmsg(err, errlen, "reading from %s: %s", s->peer,
			      strerror(errno));
	if ((size_t)n == len && !memcmp(buf, want, len))
		return 0;
	if (!n)
		return errmsg(err, errlen, "%s closed the connection %s",
			      s->peer, what);
	return errmsg(err, errlen, "%s: protocol mismatch: it sent \"%s\" %s",
		      s->peer, shown(buf, n, text, sizeof(text)), what);
}

static int handshake(struct tcn_session *s, char *err, size_t errlen)
{
	if (expect(s, GREETING, strlen(GREETING),
		   "instead of trace-cmd's greeting: not a trace-cmd listener",
		   err, errlen))
		return -1;
	if (tcmsg_write_all(s->fd, ASK_V3, sizeof(ASK_V3)))
		goto gone;
	if (expect(s, V3_REPLY, sizeof(V3_REPLY),
		   "when asked for protocol version 3 (trace-cmd older than 2.5 speaks only version 1, which hyptrace does not)",
		   err, errlen))
		return -1;
	if (tcmsg_write_all(s->fd, V3_MAGIC, sizeof(V3_MAGIC)))
		goto gone;
	return expect(s, "OK", 2, "instead of accepting protocol version 3",
		      err, errlen);
gone:
	return errmsg(err, errlen, "sending to %s: %s", s->peer,
		      strerror(errno));
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

/* RINIT: a decimal port number and a NUL for every CPU */
static int parse_rinit(struct tcn_session *s, const struct tcm_msg *m,
		       char *err, size_t errlen)
{
	const char *p = (const char *)m->payload;
	const char *end = p + m->len;
	unsigned int i;

	if (m->fixed_len < 4 || tcmsg_be32(m->fixed) != s->nr_cpus)
		return errmsg(err, errlen,
			      "%s answered for %u CPUs, not %u",
			      s->peer, m->fixed_len < 4 ? 0 :
			      tcmsg_be32(m->fixed), s->nr_cpus);
	for (i = 0; i < s->nr_cpus; i++) {
		const char *nul = memchr(p, '\0', end - p);
		char *stop;
		unsigned long v;

		if (p >= end || !nul)
			return errmsg(err, errlen,
				      "%s gave no port for CPU %u", s->peer, i);
		v = strtoul(p, &stop, 10);
		if (stop != nul || stop == p || !v || v > 65535)
			return errmsg(err, errlen,
				      "%s gave CPU %u a bad port", s->peer, i);
		s->port[i] = v;
		p = nul + 1;
	}
	return 0;
}

static int init(struct tcn_session *s, char *err, size_t errlen)
{
	uint8_t tinit[12];
	struct tcm_msg *m = malloc(sizeof(*m));
	char name[32];
	int ret;

	if (!m)
		return errmsg(err, errlen, "out of memory");
	put_be32(tinit, s->nr_cpus);
	put_be32(tinit + 4, s->page_size);
	put_be32(tinit + 8, 1);			/* options: "tcp" */
	ret = tcmsg_send(s->fd, TCM_TINIT, tinit, sizeof(tinit), OPT_TCP,
		       sizeof(OPT_TCP), err, errlen);
	if (!ret)
		ret = tcmsg_recv(s->fd, m, REPLY_MS, err, errlen);
	if (!ret && m->cmd != TCM_RINIT)
		ret = errmsg(err, errlen,
			     "%s answered our TINIT (%u CPUs, %u-byte pages, TCP) with %s",
			     s->peer, s->nr_cpus, s->page_size,
			     tcmsg_name(m->cmd, name, sizeof(name)));
	if (!ret)
		ret = parse_rinit(s, m, err, errlen);
	free(m);
	return ret;
}

struct tcn_session *tcnet_open(const char *where, unsigned int nr_cpus,
			     unsigned int page_size, char *err, size_t errlen)
{
	struct tcn_session *s = calloc(1, sizeof(*s));
	unsigned int i;

	if (!s || !nr_cpus) {
		errmsg(err, errlen, s ? "no CPUs to send" : "out of memory");
		free(s);
		return NULL;
	}
	s->fd = -1;
	s->nr_cpus = nr_cpus;
	s->page_size = page_size;
	snprintf(s->peer, sizeof(s->peer), "%s", where);
	s->port = calloc(nr_cpus, sizeof(*s->port));
	s->cpu_fd = calloc(nr_cpus, sizeof(*s->cpu_fd));
	s->cpu_bytes = calloc(nr_cpus, sizeof(*s->cpu_bytes));
	if (!s->port || !s->cpu_fd || !s->cpu_bytes) {
		errmsg(err, errlen, "out of memory");
		goto fail;
	}
	for (i = 0; i < nr_cpus; i++)
		s->cpu_fd[i] = -1;
	if (connect_to(s, where, err, errlen) || handshake(s, err, errlen) ||
	    init(s, err, errlen))
		goto fail;
	return s;
fail:
	tcnet_free(s);
	return NULL;
}

int tcnet_send_meta(struct tcn_session *s, const void *meta, size_t len,
		  char *err, size_t errlen)
{
	const char *p = meta;

	while (len) {
		size_t n = len < TCM_MAX_DATA ? len : TCM_MAX_DATA;

		if (tcmsg_send(s->fd, TCM_SEND_DATA, NULL, 0, p, n, err, errlen))
			return -1;
		p += n;
		len -= n;
		s->meta_bytes += n;
	}
	s->meta_done_ms = mono_ms();
	return tcmsg_send(s->fd, TCM_FIN_DATA, NULL, 0, NULL, 0, err, errlen);
}

static int connect_cpu(struct tcn_session *s, unsigned int cpu, char *err,
		       size_t errlen)
{
	struct sockaddr_storage a = s->addr;
	long long until = mono_ms() + DATA_CONNECT_MS;
	int fd, saved;

	if (a.ss_family == AF_INET)
		((struct sockaddr_in *)&a)->sin_port = htons(s->port[cpu]);
	else
		((struct sockaddr_in6 *)&a)->sin6_port = htons(s->port[cpu]);
	for (;;) {
		fd = socket(a.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			break;
		if (!connect(fd, (struct sockaddr *)&a, s->addrlen)) {
			s->cpu_fd[cpu] = fd;
			return 0;
		}
		saved = errno;
		close(fd);
		errno = saved;
		if (errno != ECONNREFUSED || mono_ms() > until)
			break;
		usleep(20000);
	}
	return errmsg(err, errlen, "cannot connect CPU %u's data stream to port %u of %s: %s",
		      cpu, s->port[cpu], s->peer, strerror(errno));
}

int tcnet_connect_cpus(struct tcn_session *s, char *err, size_t errlen)
{
	unsigned int i;

	for (i = 0; i < s->nr_cpus; i++) {
		if (connect_cpu(s, i, err, errlen))
			return -1;
	}
	return 0;
}

static int gone(const struct tcn_session *s, const char *what, char *err,
		size_t errlen)
{
	if (errno == EPIPE || errno == ECONNRESET)
		return errmsg(err, errlen,
			      "the listener at %s closed %s mid-stream",
			      s->peer, what);
	return errmsg(err, errlen, "sending %s to %s: %s", what, s->peer,
		      strerror(errno));
}

int tcnet_send_cpu(struct tcn_session *s, unsigned int cpu, const void *buf,
		 size_t len, char *err, size_t errlen)
{
	char what[48];

	if (cpu >= s->nr_cpus || s->cpu_fd[cpu] < 0)
		return errmsg(err, errlen, "CPU %u has no data stream", cpu);
	if (tcmsg_write_all(s->cpu_fd[cpu], buf, len)) {
		snprintf(what, sizeof(what), "CPU %u's data stream", cpu);
		return gone(s, what, err, errlen);
	}
	s->cpu_bytes[cpu] += len;
	return 0;
}

int tcnet_check(struct tcn_session *s, char *err, size_t errlen)
{
	struct pollfd pfd = { .fd = s->fd, .events = POLLIN };
	struct tcm_msg *m;
	char name[32], c;
	ssize_t n;
	int ret;

	if (poll(&pfd, 1, 0) <= 0)
		return 0;
	n = recv(s->fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0) {
		if (!n)
			errno = EPIPE;
		return gone(s, "the connection", err, errlen);
	}
	/* The listener speaks only to complain (NOT_SUPP) */
	m = malloc(sizeof(*m));
	if (!m)
		return errmsg(err, errlen, "out of memory");
	ret = tcmsg_recv(s->fd, m, REPLY_MS, err, errlen);
	if (!ret)
		ret = errmsg(err, errlen, "the listener at %s sent %s mid-stream",
			     s->peer, tcmsg_name(m->cmd, name, sizeof(name)));
	free(m);
	return ret;
}

/* Wait until the peer closes @fd, discarding anything it sends */
static int wait_closed(int fd, long long until)
{
	char buf[256];

	for (;;) {
		long long left = until - mono_ms();
		ssize_t n;

		if (left <= 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		n = tcmsg_read_full(fd, buf, sizeof(buf), left);
		if (n >= 0 && (size_t)n < sizeof(buf))
			return 0;
		if (n < 0 && errno != EINTR)
			return errno == ECONNRESET ? 0 : -1;
	}
}

int tcnet_finish(struct tcn_session *s, char *err, size_t errlen)
{
	long long until, settle = s->meta_done_ms + META_SETTLE_MS - mono_ms();
	unsigned int i;

	if (settle > 0)
		usleep(settle * 1000);
	until = mono_ms() + DRAIN_MS;
	/*
	 * The listener stops its readers a second after CLOSE, whether or
	 * not they have read everything: so first end every stream and
	 * wait until its reader has seen the end (and exited, closing it).
	 */
	for (i = 0; i < s->nr_cpus; i++) {
		if (s->cpu_fd[i] >= 0)
			shutdown(s->cpu_fd[i], SHUT_WR);
	}
	for (i = 0; i < s->nr_cpus; i++) {
		if (s->cpu_fd[i] < 0)
			continue;
		if (wait_closed(s->cpu_fd[i], until))
			return errmsg(err, errlen,
				      "the listener at %s did not finish reading CPU %u's data: %s",
				      s->peer, i, strerror(errno));
		close(s->cpu_fd[i]);
		s->cpu_fd[i] = -1;
	}
	if (tcmsg_send(s->fd, TCM_CLOSE, NULL, 0, NULL, 0, err, errlen))
		return -1;
	shutdown(s->fd, SHUT_WR);
	if (wait_closed(s->fd, mono_ms() + ASSEMBLE_MS))
		return errmsg(err, errlen,
			      "the listener at %s did not confirm the end of the trace: %s",
			      s->peer, strerror(errno));
	return 0;
}

void tcnet_free(struct tcn_session *s)
{
	unsigned int i;

	if (!s)
		return;
	for (i = 0; s->cpu_fd && i < s->nr_cpus; i++) {
		if (s->cpu_fd[i] >= 0)
			close(s->cpu_fd[i]);
	}
	if (s->fd >= 0)
		close(s->fd);
	free(s->port);
	free(s->cpu_fd);
	free(s->cpu_bytes);
	free(s);
}

const char *tcnet_peer(const struct tcn_session *s)
{
	return s->peer;
}

unsigned int tcnet_cpu_port(const struct tcn_session *s, unsigned int cpu)
{
	return cpu < s->nr_cpus ? s->port[cpu] : 0;
}

uint64_t tcnet_cpu_bytes(const struct tcn_session *s, unsigned int cpu)
{
	return cpu < s->nr_cpus ? s->cpu_bytes[cpu] : 0;
}

uint64_t tcnet_meta_bytes(const struct tcn_session *s)
{
	return s->meta_bytes;
}
