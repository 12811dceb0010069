// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of the agent's door (tools/hyptrace/lib/vtgate.c) on a UNIX
 * listening socket: clients that connect and say nothing hold no one up
 * (a client with the key behind them is let in while they still wait);
 * a silent one is refused once its own deadline passes, and told so;
 * when every slot is taken the oldest makes room; the rest are told why
 * when the door closes. Each check waits for a state (a client let in, a
 * count of refusals), with a bound only to end a failing run.
 */
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "check.h"
#include "hyptrace/mono_ms.h"
#include "hyptrace/vtgate.h"

#define LONG_MS		600000	/* a deadline no check waits for */
#define GIVE_UP_MS	60000	/* only a failing run gets this far */

static const struct vta_key key = { "0123456789abcdefghij", 20 };
static struct sockaddr_un where;
static unsigned int refusals[VTA_NR_RESULTS];

static void refused(void *ctx, enum vta_result r, const char *why)
{
	(void)ctx;
	(void)why;
	refusals[r]++;
}

static int door(void)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);

	snprintf(where.sun_path, sizeof(where.sun_path),
		 "/tmp/vtgate_test.%d", (int)getpid());
	where.sun_family = AF_UNIX;
	unlink(where.sun_path);
	if (fd < 0 || bind(fd, (struct sockaddr *)&where, sizeof(where)) ||
	    listen(fd, 64))
		abort();
	memset(refusals, 0, sizeof(refusals));
	return fd;
}

static int dial(void)
{
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	if (fd < 0 || connect(fd, (struct sockaddr *)&where, sizeof(where)))
		abort();
	fcntl(fd, F_SETFL, O_NONBLOCK);
	return fd;
}

/* The message names @fd has been sent, up to its end, space-separated */
static void heard(int fd, char *names, size_t cap)
{
	struct vt_reader rd = { 0 };
	struct vt_msg m;
	char err[256];
	int r;

	names[0] = '\0';
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };

		while ((r = vtproto_next(&rd, &m, err, sizeof(err))) > 0)
			snprintf(names + strlen(names), cap - strlen(names),
				 "%s%s", names[0] ? " " : "", m.name);
		if (r < 0 || poll(&pfd, 1, GIVE_UP_MS) <= 0 ||
		    vtproto_read(&rd, fd, err, sizeof(err)) <= 0)
			break;
	}
	vtproto_reader_free(&rd);
}

struct client {
	int fd, ret;
	char err[256];
	pthread_t t;
};

static void *client_main(void *p)
{
	struct client *c = p;
	struct vt_reader rd = { 0 };

	c->ret = vtauth_answer(c->fd, &rd, &key, GIVE_UP_MS, c->err,
			    sizeof(c->err));
	vtproto_reader_free(&rd);
	return NULL;
}

/* vtgate_next() until it lets someone in or @done() holds: that fd, or -1 */
static int turn(struct vt_gate *g, bool (*done)(struct vt_gate *g))
{
	long long until = mono_ms() + GIVE_UP_MS;
	int fd = -1;

	while (fd < 0 && !(done && done(g)) && mono_ms() < until)
		fd = vtgate_next(g, 100);
	return fd;
}

static unsigned int want;

static bool under_way(struct vt_gate *g)
{
	return g->n == want;
}

static int test_silent_hold_no_one(void)
{
	struct vt_gate g;
	struct client c = { 0 };
	int lfd = door(), silent[3], i, in;
	char names[128];

	vtgate_init(&g, lfd, &key, LONG_MS, refused, NULL);
	for (i = 0; i < 3; i++) {
		silent[i] = dial();
		want = i + 1;
		CHECK(turn(&g, under_way) < 0 && g.n == want,
		      "silent client %d: %u under way", i, g.n);
	}
	c.fd = dial();
	pthread_create(&c.t, NULL, client_main, &c);
	in = turn(&g, NULL);
	pthread_join(c.t, NULL);
	CHECK(in >= 0, "the client with the key was not let in");
	CHECK(!c.ret, "the client: %s", c.err);
	CHECK(g.n == 3 && !refusals[VTA_SILENT],
	      "%u under way, %u refused silent: the silent ones were waited for",
	      g.n, refusals[VTA_SILENT]);
	vtgate_close_all(&g, "closing");
	for (i = 0; i < 3; i++) {
		heard(silent[i], names, sizeof(names));
		CHECK(!strcmp(names, "challenge error"),
		      "silent client %d heard '%s'", i, names);
		close(silent[i]);
	}
	close(in);
	close(c.fd);
	close(lfd);
	return 0;
}

static bool one_refused(struct vt_gate *g)
{
	(void)g;
	return refusals[VTA_SILENT] > 0;
}

static int test_deadline(void)
{
	struct vt_gate g;
	int lfd = door(), fd = dial();
	char names[128];

	vtgate_init(&g, lfd, &key, 300, refused, NULL);
	CHECK(turn(&g, one_refused) < 0 && refusals[VTA_SILENT] == 1 &&
	      g.n == 0, "%u refused silent, %u under way",
	      refusals[VTA_SILENT], g.n);
	heard(fd, names, sizeof(names));
	CHECK(!strcmp(names, "challenge error"), "heard '%s'", names);
	close(fd);
	close(lfd);
	return 0;
}

static int test_crowded(void)
{
	struct vt_gate g;
	int lfd = door(), fd[VTG_SLOTS + 1], i;
	char names[128];

	vtgate_init(&g, lfd, &key, LONG_MS, refused, NULL);
	for (i = 0; i < VTG_SLOTS; i++)
		fd[i] = dial();
	want = VTG_SLOTS;
	CHECK(turn(&g, under_way) < 0 && g.n == VTG_SLOTS, "%u under way",
	      g.n);
	fd[VTG_SLOTS] = dial();
	CHECK(turn(&g, one_refused) < 0 && g.n == VTG_SLOTS,
	      "a new one on a full door: %u under way", g.n);
	heard(fd[0], names, sizeof(names));
	CHECK(!strcmp(names, "challenge error"),
	      "the oldest heard '%s', not a refusal", names);
	vtgate_close_all(&g, "closing");
	for (i = 0; i <= VTG_SLOTS; i++)
		close(fd[i]);
	close(lfd);
	return 0;
}

int main(void)
{
	ck_run("vtgate_silent_hold_no_one", test_silent_hold_no_one);
	ck_run("vtgate_deadline", test_deadline);
	ck_run("vtgate_crowded", test_crowded);
	unlink(where.sun_path);
	return ck_exit();
}
