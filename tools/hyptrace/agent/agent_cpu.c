// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace agent's per-CPU threads: each pinned to its CPU, moving whole
 * pages from per_cpu/cpuN/trace_pipe_raw through a pipe into the CPU's
 * virtio-serial port with splice(2), so no page passes through this
 * program (the port's splice_write copies it once in the kernel, into a
 * buffer of its own, as the ring buffer's pages cannot be given away).
 *
 * A host that does not read must not stop the board: the port is
 * non-blocking, and a page it does not take within stall_ms is dropped
 * whole (read out of the pipe and its events counted); after that the
 * port is stalled and each further page is dropped at once unless the
 * port takes it, until it takes one again. The counts go to the host in
 * the round's "stopped" message (hyptrace/vtproto.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "hyptrace/errmsg.h"
#include "hyptrace/mono_ms.h"
#include "hyptrace/source.h"

#define RAW_POLL_MS	100

/* The page in the pipe is not wanted: read it out, count its events. */
static int drop_page(struct agent_cpu *c)
{
	struct agent *a = c->a;
	struct source_counts cnt = { 0 };
	size_t have = 0;
	char why[128];

	while (have < a->page_size) {
		ssize_t n = read(c->pipe[0], c->page + have,
				 a->page_size - have);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return errmsg(c->err, sizeof(c->err),
				      "CPU %u: emptying the pipe: %s", c->cpu,
				      n ? strerror(errno) : "end of file");
		have += n;
	}
	if (!source_count_page(c->page, a->page_size, &cnt, why, sizeof(why)))
		c->dropped_events += cnt.events;
	c->dropped++;
	if (!c->stalled)
		printf("hyptrace agent: CPU %u: the host took no page for %d ms: dropping pages until it takes one\n",
		       c->cpu, a->stall_ms);
	c->stalled = true;
	c->stall_dropped++;
	return 0;
}

/* Send the page waiting in the pipe, or drop it if the port will not. */
static int send_page(struct agent_cpu *c)
{
	struct agent *a = c->a;
	long long deadline = mono_ms() + (c->stalled ? 0 : a->stall_ms);
	size_t left = a->page_size;

	for (;;) {
		struct pollfd pfd = { .fd = c->port_fd, .events = POLLOUT };
		long long wait = deadline - mono_ms();
		ssize_t n;

		n = splice(c->pipe[0], NULL, c->port_fd, NULL, left,
			   SPLICE_F_NONBLOCK | SPLICE_F_MOVE);
		if (n > 0) {
			left -= n;
			if (!left) {
				c->sent++;
				if (c->stalled)
					printf("hyptrace agent: CPU %u: the host takes pages again, %llu dropped meanwhile\n",
					       c->cpu,
					       (unsigned long long)c->stall_dropped);
				c->stalled = false;
				c->stall_dropped = 0;
				return 0;
			}
			/* a part went: the rest must follow, late or not */
			deadline = mono_ms() + 1000;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 || (errno != EAGAIN && errno != ENODEV))
			return errmsg(c->err, sizeof(c->err),
				      "CPU %u: writing to its port: %s",
				      c->cpu, n ? strerror(errno) : "no progress");
		if (left == a->page_size && wait <= 0)
			return drop_page(c);
		if (wait < 0)
			wait = 10;
		/* POLLHUP: no host on the other end; wait out the time */
		if (poll(&pfd, 1, (int)wait) < 0 && errno != EINTR)
			return errmsg(c->err, sizeof(c->err), "poll: %s",
				      strerror(errno));
		if (pfd.revents & POLLHUP)
			usleep(wait > 10 ? 10000 : 1000);
	}
}

/* Every page there is now: 0 when none is left, -1 on failure. */
static int move_pages(struct agent_cpu *c)
{
	struct agent *a = c->a;
	size_t have = 0;

	for (;;) {
		ssize_t n = splice(c->raw_fd, NULL, c->pipe[1], NULL,
				   a->page_size - have, SPLICE_F_NONBLOCK);

		if (n < 0 && errno == EAGAIN && !have)
			return 0;
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			return errmsg(c->err, sizeof(c->err),
				      "CPU %u: reading its pages: %s", c->cpu,
				      n ? strerror(errno) : "end of file");
		have += n;
		if (have < a->page_size)
			continue;
		have = 0;
		if (send_page(c))
			return -1;
	}
}

static void pin_thread(struct agent_cpu *c)
{
	cpu_set_t set;
	int r;

	CPU_ZERO(&set);
	CPU_SET(c->cpu, &set);
	r = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (r)
		fprintf(stderr, "hyptrace agent: CPU %u: cannot pin its thread there (%s); it runs anywhere\n",
			c->cpu, strerror(r));
}

static void *cpu_thread(void *arg)
{
	struct agent_cpu *c = arg;
	struct agent *a = c->a;

	pin_thread(c);
	pthread_mutex_lock(&a->lock);
	for (;;) {
		enum agent_state s = a->state;
		unsigned int gen = a->drain_gen;

		if (s == AGENT_QUIT)
			break;
		if (s == AGENT_IDLE || (s == AGENT_DRAIN && c->drained == gen) ||
		    c->failed) {
			pthread_cond_wait(&a->cond, &a->lock);
			continue;
		}
		pthread_mutex_unlock(&a->lock);
		if (s == AGENT_RUN) {
			struct pollfd pfd = { .fd = c->raw_fd, .events = POLLIN };

			poll(&pfd, 1, RAW_POLL_MS);
		}
		c->failed = move_pages(c) != 0;
		pthread_mutex_lock(&a->lock);
		if (s == AGENT_DRAIN || c->failed) {
			c->drained = gen;
			pthread_cond_broadcast(&a->cond);
		}
	}
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

int agent_cpu_start(struct agent_cpu *c, char *err, size_t errlen)
{
	int r;

	c->page = malloc(c->a->page_size);
	if (!c->page)
		return errmsg(err, errlen, "out of memory");
	r = pthread_create(&c->thread, NULL, cpu_thread, c);
	if (r)
		return errmsg(err, errlen, "CPU %u: no thread: %s", c->cpu,
			      strerror(r));
	c->started = true;
	return 0;
}

void agent_cpu_set_state(struct agent *a, enum agent_state s)
{
	pthread_mutex_lock(&a->lock);
	a->state = s;
	if (s == AGENT_DRAIN)
		a->drain_gen++;
	pthread_cond_broadcast(&a->cond);
	pthread_mutex_unlock(&a->lock);
}

int agent_cpu_drain(struct agent *a, char *err, size_t errlen)
{
	unsigned int i;
	int ret = 0;

	agent_cpu_set_state(a, AGENT_DRAIN);
	pthread_mutex_lock(&a->lock);
	for (i = 0; i < a->nr_cpus; i++) {
		struct agent_cpu *c = &a->cpu[i];

		while (c->started && c->drained != a->drain_gen && !c->failed)
			pthread_cond_wait(&a->cond, &a->lock);
		if (c->failed && !ret)
			ret = errmsg(err, errlen, "%s", c->err);
	}
	a->state = AGENT_IDLE;
	pthread_mutex_unlock(&a->lock);
	return ret;
}

void agent_cpu_stop(struct agent_cpu *c)
{
	if (c->started)
		pthread_join(c->thread, NULL);
	c->started = false;
	if (c->raw_fd >= 0)
		close(c->raw_fd);
	if (c->port_fd >= 0)
		close(c->port_fd);
	if (c->pipe[0] >= 0)
		close(c->pipe[0]);
	if (c->pipe[1] >= 0)
		close(c->pipe[1]);
	c->raw_fd = c->port_fd = c->pipe[0] = c->pipe[1] = -1;
	free(c->page);
	c->page = NULL;
}
