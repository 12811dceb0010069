/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The virtio-trace model between `hyptrace agent` (on the board) and
 * `hyptrace listen --virtio DIR` (on the workstation), over virtio-serial
 * ports named as the kernel's tools/virtio/virtio-trace/README names them.
 *
 * trace-path-cpuN (board -> host): CPU N's ring-buffer pages, whole, one
 *	after the other, nothing else: no framing (as virtio-trace). Every
 *	page is VT page_size bytes; a page either goes whole or not at all
 *	(the agent splices one page per write, and the port takes a splice
 *	in one buffer).
 *
 * agent-ctl-path, host -> board: orders, one per line, as virtio-trace:
 *	"1"	start tracing (and send the metadata first)
 *	"0"	stop tracing, send every page there is, then the counts
 *	"clock"	answer at once with clock_now (below): the listener
 *		times these exchanges to line the board's trace clock up
 *		with its own (clksync.h)
 *	"ping"	nothing but "the client is still there" (over TCP the
 *		agent drops a client that gives no order for --idle-s)
 *	Empty lines are ignored (and over TCP do not count as an order);
 *	anything else is an error that ends the agent (one line, exit 1).
 *
 * agent-ctl-path, board -> host: messages, each a header line
 *	"NAME LEN\n" (NAME: 1-63 of [a-z0-9_:], LEN decimal, at most
 *	VT_MAX_PAYLOAD) and then LEN bytes of payload:
 *	hello		"version=3 cpus=N page_size=P" (3: VT_VERSION);
 *			starts a new set of metadata (sent before every
 *			"started")
 *	header_page, header_event	events/header_page, header_event
 *	format:SYSTEM	one events/SYSTEM/EVENT/format file
 *	clock		trace_clock ("[boot]")
 *	uname		the board's uname
 *	started		"R": round R has started (tracing is on)
 *	cpustat:N	CPU N's per_cpu/cpuN/stats at the end of a round
 *	stopped		"R" then one line per CPU, "cpu N sent S dropped D
 *			events E": tracing is off and every page of round R
 *			went out; S pages were sent on trace-path-cpuN in
 *			this round, D whole pages (holding E events) were
 *			dropped because the host did not take them in time
 *	clock_now	"CLOCK NS": the answer to "clock", the board's trace
 *			clock (its name, as in trace_clock) read as the order
 *			was taken, in ns; "CLOCK -" if user space cannot
 *			read that clock
 *
 * Over TCP (`hyptrace agent -N ADDR:PORT`, `hyptrace listen -N`) one
 * connection carries both directions. It opens with a challenge-response
 * on a shared key (vtauth.h; virtio-serial has none: only QEMU's host end
 * reaches those ports), before any order:
 *	agent -> client: "challenge" message, "version=3 nonce=NA", NA 32
 *		random bytes in hex (getrandom), fresh for each connection;
 *		"version=3 nonce=none" from an agent run with --no-key,
 *		which then waits for nothing more
 *	client -> agent: the line "auth NC MAC", NC 32 random bytes of the
 *		client's, MAC = HMAC-SHA256(key, "hyptrace-vt3 client\n" ||
 *		NA || NC), both in hex
 *	agent -> client: "auth_ok" message, HMAC-SHA256(key, "hyptrace-vt3
 *		agent\n" || NA || NC) in hex, which the client checks: the
 *		agent has the key too; or an "error" message (wrong key, no
 *		answer, none within 5 s) and the connection closed
 *	The key is the bytes of a file (hyptrace keygen) less one trailing
 *	newline. Nothing after the handshake is encrypted or signed.
 * Then the orders as above, and from the board the same messages plus
 *	page:N		one whole page of CPU N (LEN is page_size), in the
 *			order of that CPU's stream; in place of the bytes on
 *			trace-path-cpuN
 *	error		a line saying why the agent will not serve this
 *			connection (another client is served; the challenge
 *			was not answered with the key; garbage came); the
 *			agent closes it then
 */
#ifndef HYPTRACE_TOOLS_VTPROTO_H
#define HYPTRACE_TOOLS_VTPROTO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define VT_CTL_PORT		"agent-ctl-path"
#define VT_CPU_PORT_FMT		"trace-path-cpu%u"
#define VT_VERSION		3	/* 2: "clock"; 3: the key, "ping" */
#define VT_MAX_NAME		63
#define VT_MAX_PAYLOAD		(4U << 20)

/* Send one message on @fd (poll()s a non-blocking fd, up to @timeout_ms). */
int vtproto_send(int fd, const char *name, const void *payload, size_t len,
	    int timeout_ms, char *err, size_t errlen);

/* Send @s (an order, "1\n" or "0\n") as it is */
int vtproto_send_raw(int fd, const char *s, char *err, size_t errlen);

/* The orders arriving on the agent's end, a line each */
enum vt_order {
	VT_ORDER_MORE,		/* no whole line yet */
	VT_ORDER_EMPTY,		/* an empty line: nothing to do, keeps no client */
	VT_ORDER_START,		/* "1" */
	VT_ORDER_STOP,		/* "0" */
	VT_ORDER_CLOCK,		/* "clock" */
	VT_ORDER_PING,		/* "ping": only "still here", keeps a client */
	VT_ORDER_BAD,		/* anything else */
};

struct vt_orders {
	char buf[256];		/* bytes go to buf + have, up to 255 in all */
	size_t have;
};

/* Room for the next bytes at o->buf + o->have; the caller adds to have */
size_t vtproto_orders_room(const struct vt_orders *o);

/*
 * The next order in @o, taken out of it; a line as long as the buffer
 * counts as one. For VT_ORDER_BAD the line, printable ('?' for other
 * bytes) and cut to @len - 1, is in @line.
 */
enum vt_order vtproto_next_order(struct vt_orders *o, char *line, size_t len);

/* Messages arriving on a stream, parsed as the bytes come */
struct vt_reader {
	char *buf;
	size_t len, cap;
	size_t consumed;	/* of buf, by the messages handed out */
};

struct vt_msg {
	char name[VT_MAX_NAME + 1];
	const char *payload;	/* valid until the next vtproto_read()/vtproto_next() */
	size_t len;
};

/*
 * Room for the next bytes at r->buf + r->len (the messages handed out are
 * dropped, the buffer grows up to two payloads): its size, or -1 with the
 * reason. The caller that fills it adds what it put to r->len.
 */
ssize_t vtproto_room(struct vt_reader *r, char *err, size_t errlen);

/* Read what @fd has (once) into @r: bytes read, 0 at end of file, -1. */
ssize_t vtproto_read(struct vt_reader *r, int fd, char *err, size_t errlen);

/* The next whole message: 1, 0 if more bytes are needed, -1 if malformed */
int vtproto_next(struct vt_reader *r, struct vt_msg *m, char *err, size_t errlen);

void vtproto_reader_free(struct vt_reader *r);

/* One "cpu N sent S dropped D events E" line of a stopped message */
struct vt_cpu_round {
	unsigned int cpu;
	uint64_t sent, dropped, dropped_events;
};

/*
 * Parse a stopped payload: its round into *@round, and up to @max CPU
 * lines into @c; the number of lines, or -1 with the reason.
 */
int vtproto_parse_stopped(const char *p, size_t len, unsigned int *round,
		     struct vt_cpu_round *c, unsigned int max, char *err,
		     size_t errlen);

/*
 * The stopped payload of round @round with @n CPU lines, what
 * vtproto_parse_stopped() reads: malloc()ed, its length in *@len; NULL if out
 * of memory.
 */
char *vtproto_format_stopped(unsigned int round, const struct vt_cpu_round *c,
			unsigned int n, size_t *len);

/*
 * Is @m a page:N message? 1 with the CPU in *@cpu, 0 if it is another
 * message, -1 with the reason if it is a page:N that is wrong: N not a
 * CPU below @nr_cpus, LEN not @page_size.
 */
int vtproto_page_msg(const struct vt_msg *m, unsigned int nr_cpus,
		unsigned int page_size, unsigned int *cpu, char *err,
		size_t errlen);

/*
 * Parse a clock_now payload: the clock's name into @clock, and 1 with its
 * time in *@ns, 0 if the board cannot read it, -1 with the reason.
 */
int vtproto_parse_clock_now(const char *p, size_t len, char *clock, size_t clen,
		       int64_t *ns, char *err, size_t errlen);

#endif /* HYPTRACE_TOOLS_VTPROTO_H */
