// SPDX-License-Identifier: GPL-2.0
/* The agent <-> listener control messages (vtproto.h). */
#include <errno.h>
#include <stdbool.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hyptrace/errmsg.h"
#include "hyptrace/mono_ms.h"
#include "hyptrace/vtproto.h"

/*
 * Write it all within @timeout_ms. A virtio port with no host behind it
 * polls POLLHUP at once and takes nothing: wait that out in small steps.
 */
static int write_timed(int fd, const char *p, size_t len, int timeout_ms,
		       char *err, size_t errlen)
{
	long long deadline = mono_ms() + timeout_ms;

	while (len) {
		struct pollfd pfd = { .fd = fd, .events = POLLOUT };
		long long left = deadline - mono_ms();
		ssize_t n = write(fd, p, len);

		if (n > 0) {
			p += n;
			len -= n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN)
			return errmsg(err, errlen, "%s", strerror(errno));
		if (left <= 0)
			return errmsg(err, errlen,
				      "the other side took nothing for %d ms",
				      timeout_ms);
		n = poll(&pfd, 1, (int)left);
		if (n < 0 && errno != EINTR)
			return errmsg(err, errlen, "poll: %s", strerror(errno));
		if (n > 0 && !(pfd.revents & POLLOUT))
			usleep(10000);
	}
	return 0;
}

int vtproto_send(int fd, const char *name, const void *payload, size_t len,
	    int timeout_ms, char *err, size_t errlen)
{
	char head[VT_MAX_NAME + 32];
	int n = snprintf(head, sizeof(head), "%s %zu\n", name, len);

	if (write_timed(fd, head, n, timeout_ms, err, errlen) ||
	    write_timed(fd, payload, len, timeout_ms, err, errlen))
		return -1;
	return 0;
}

int vtproto_send_raw(int fd, const char *s, char *err, size_t errlen)
{
	return write_timed(fd, s, strlen(s), 5000, err, errlen);
}

size_t vtproto_orders_room(const struct vt_orders *o)
{
	return sizeof(o->buf) - 1 - o->have;
}

enum vt_order vtproto_next_order(struct vt_orders *o, char *line, size_t len)
{
	char *nl = memchr(o->buf, '\n', o->have), *s = o->buf;
	size_t n = nl ? (size_t)(nl - o->buf) : o->have;
	enum vt_order ord;

	if (!nl && o->have < sizeof(o->buf) - 1)
		return VT_ORDER_MORE;
	if (n && o->buf[n - 1] == '\r')
		n--;
	ord = !n ? VT_ORDER_EMPTY :
	      n == 1 && *s == '1' ? VT_ORDER_START :
	      n == 1 && *s == '0' ? VT_ORDER_STOP :
	      n == 5 && !memcmp(s, "clock", 5) ? VT_ORDER_CLOCK :
	      n == 4 && !memcmp(s, "ping", 4) ? VT_ORDER_PING : VT_ORDER_BAD;
	if (ord == VT_ORDER_BAD)
		errmsg_printable(line, len, s, n);
	n = nl ? (size_t)(nl + 1 - o->buf) : o->have;
	memmove(o->buf, o->buf + n, o->have - n);
	o->have -= n;
	return ord;
}

ssize_t vtproto_room(struct vt_reader *r, char *err, size_t errlen)
{
	if (r->consumed) {
		memmove(r->buf, r->buf + r->consumed, r->len - r->consumed);
		r->len -= r->consumed;
		r->consumed = 0;
	}
	if (r->cap - r->len < 65536) {
		size_t cap = r->cap ? 2 * r->cap : 131072;
		char *p;

		if (cap > 2 * VT_MAX_PAYLOAD + 131072)
			return errmsg(err, errlen, "control stream too long");
		p = realloc(r->buf, cap);
		if (!p)
			return errmsg(err, errlen, "out of memory");
		r->buf = p;
		r->cap = cap;
	}
	return r->cap - r->len;
}

ssize_t vtproto_read(struct vt_reader *r, int fd, char *err, size_t errlen)
{
	ssize_t n = vtproto_room(r, err, errlen);

	if (n < 0)
		return -1;
	n = read(fd, r->buf + r->len, n);
	if (n < 0 && errno != EAGAIN && errno != EINTR)
		return errmsg(err, errlen, "%s", strerror(errno));
	if (n < 0)
		return 1;	/* nothing now; not the end */
	r->len += n;
	return n;
}

int vtproto_next(struct vt_reader *r, struct vt_msg *m, char *err, size_t errlen)
{
	const char *p = r->buf + r->consumed;
	size_t avail = r->len - r->consumed, i, len = 0;
	const char *nl = avail ? memchr(p, '\n', avail) : NULL;

	if (!nl) {
		if (avail > VT_MAX_NAME + 24)
			return errmsg(err, errlen,
				      "garbage on the control port: no message header in its first %zu bytes",
				      avail);
		return 0;
	}
	for (i = 0; p + i < nl && p[i] != ' '; i++) {
		char ch = p[i];

		if (i >= VT_MAX_NAME ||
		    !((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
		      ch == '_' || ch == ':'))
			return errmsg(err, errlen,
				      "garbage on the control port: not a message header");
	}
	if (!i || p + i == nl || p + i + 1 == nl)
		return errmsg(err, errlen,
			      "garbage on the control port: not a message header");
	memcpy(m->name, p, i);
	m->name[i] = '\0';
	for (i++; p + i < nl; i++) {
		if (p[i] < '0' || p[i] > '9' || len > VT_MAX_PAYLOAD)
			return errmsg(err, errlen,
				      "control message '%s': bad length",
				      m->name);
		len = len * 10 + (p[i] - '0');
	}
	if (len > VT_MAX_PAYLOAD)
		return errmsg(err, errlen,
			      "control message '%s': %zu bytes, more than %u",
			      m->name, len, VT_MAX_PAYLOAD);
	i++;			/* the newline */
	if (avail - i < len)
		return 0;
	m->payload = p + i;
	m->len = len;
	r->consumed += i + len;
	return 1;
}

void vtproto_reader_free(struct vt_reader *r)
{
	free(r->buf);
	memset(r, 0, sizeof(*r));
}

int vtproto_parse_stopped(const char *p, size_t len, unsigned int *round,
		     struct vt_cpu_round *c, unsigned int max, char *err,
		     size_t errlen)
{
	char *text = malloc(len + 1), *line, *save = NULL, q[41];
	unsigned int n = 0;
	int first = 1, ret = -1;

	if (!text)
		return errmsg(err, errlen, "out of memory");
	memcpy(text, p, len);
	text[len] = '\0';
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), first = 0) {
		unsigned long long s, d, e;
		unsigned int cpu;
		int end = 0;

		if (first) {
			if (sscanf(line, "%u%n", round, &end) != 1 ||
			    line[end]) {
				errmsg(err, errlen,
				       "control message 'stopped': bad round");
				goto out;
			}
			continue;
		}
		if (sscanf(line, "cpu %u sent %llu dropped %llu events %llu%n",
			   &cpu, &s, &d, &e, &end) != 4 || line[end] ||
		    n >= max) {
			errmsg(err, errlen,
			       "control message 'stopped': bad line '%s'",
			       errmsg_printable(q, sizeof(q), line,
						strlen(line)));
			goto out;
		}
		c[n++] = (struct vt_cpu_round){ cpu, s, d, e };
	}
	if (first) {
		errmsg(err, errlen, "control message 'stopped': empty");
		goto out;
	}
	ret = n;
out:
	free(text);
	return ret;
}

char *vtproto_format_stopped(unsigned int round, const struct vt_cpu_round *c,
			unsigned int n, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);
	unsigned int i;
	int bad;

	/* a stream grows as it must: no line length to get wrong */
	if (!f)
		return NULL;
	bad = fprintf(f, "%u\n", round) < 0;
	for (i = 0; i < n && !bad; i++)
		bad = fprintf(f, "cpu %u sent %llu dropped %llu events %llu\n",
			      c[i].cpu, (unsigned long long)c[i].sent,
			      (unsigned long long)c[i].dropped,
			      (unsigned long long)c[i].dropped_events) < 0;
	if (fclose(f) || bad) {
		free(text);
		return NULL;
	}
	return text;
}

int vtproto_page_msg(const struct vt_msg *m, unsigned int nr_cpus,
		unsigned int page_size, unsigned int *cpu, char *err,
		size_t errlen)
{
	const char *n = m->name + 5;
	unsigned long v = 0;

	if (strncmp(m->name, "page:", 5))
		return 0;
	if (!*n || strspn(n, "0123456789") != strlen(n) || strlen(n) > 4 ||
	    (n[0] == '0' && n[1]))
		return errmsg(err, errlen, "'%s': not a CPU number", m->name);
	v = strtoul(n, NULL, 10);
	if (v >= nr_cpus)
		return errmsg(err, errlen, "a page of CPU %lu, but the agent has %u CPUs",
			      v, nr_cpus);
	if (m->len != page_size)
		return errmsg(err, errlen, "a page of CPU %lu of %zu bytes, not %u",
			      v, m->len, page_size);
	*cpu = v;
	return 1;
}

/* A clock's name as trace_clock spells it: printable, no space */
static bool clock_name(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] <= 0x20 || s[i] > 0x7e)
			return false;
	return n > 0;
}

int vtproto_parse_clock_now(const char *p, size_t len, char *clock, size_t clen,
		       int64_t *ns, char *err, size_t errlen)
{
	char text[96], *sp, *end, q[41];
	long long v;

	if (len >= sizeof(text) || !clen || memchr(p, '\0', len))
		return errmsg(err, errlen, "control message 'clock_now': %zu bytes, or a NUL",
			      len);
	memcpy(text, p, len);
	text[len] = '\0';
	sp = strchr(text, ' ');
	if (!sp || (size_t)(sp - text) >= clen || !clock_name(text, sp - text))
		return errmsg(err, errlen,
			      "control message 'clock_now': no clock name in '%s'",
			      errmsg_printable(q, sizeof(q), text, len));
	*sp++ = '\0';
	strcpy(clock, text);
	if (!strcmp(sp, "-"))
		return 0;
	errno = 0;
	v = strtoll(sp, &end, 10);
	if (errno || end == sp || *end || v < 0)
		return errmsg(err, errlen,
			      "control message 'clock_now': bad time '%s'",
			      errmsg_printable(q, 31, sp, strlen(sp)));
	*ns = v;
	return 1;
}
