/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hyptrace agent: the board's end of the virtio-trace model
 * (lib/vtproto.h). The main thread reads the host's orders on
 * agent-ctl-path and answers there; one thread per CPU, pinned to it,
 * moves that CPU's pages from trace_pipe_raw into trace-path-cpuN.
 */
#ifndef HYPTRACE_TOOLS_AGENT_H
#define HYPTRACE_TOOLS_AGENT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "record.h"

enum agent_state {
	AGENT_IDLE,		/* waiting for the host's "1" */
	AGENT_RUN,		/* tracing on: pages go as they come */
	AGENT_DRAIN,		/* tracing off: send what is left, then idle */
	AGENT_QUIT,
};

struct agent_cpu {
	struct agent *a;
	unsigned int cpu;
	pthread_t thread;
	bool started;		/* thread running */
	int raw_fd;		/* trace_pipe_raw, O_NONBLOCK */
	int port_fd;		/* trace-path-cpuN, O_NONBLOCK */
	int pipe[2];
	bool stalled;		/* the port timed out: drop until it takes */
	uint64_t stall_dropped;	/* pages dropped since it stalled */
	unsigned int drained;	/* the last drain generation done */
	/* this round */
	uint64_t sent, dropped, dropped_events;
	unsigned char *page;	/* a dropped page, to count its events */
	char err[256];		/* why the thread gave up, if it did */
	bool failed;
};

struct agent {
	const char *dir;	/* the hypervisor's tracing directory */
	unsigned int page_size;
	unsigned int nr_cpus;	/* highest CPU + 1 */
	int stall_ms;
	struct agent_cpu cpu[REC_MAX_CPUS];
	bool have_cpu[REC_MAX_CPUS];
	pthread_mutex_t lock;
	pthread_cond_t cond;	/* state changes, drains done */
	enum agent_state state;
	unsigned int drain_gen;
};

/* agent_cpu.c */
int agent_cpu_start(struct agent_cpu *c, char *err, size_t errlen);
void agent_set_state(struct agent *a, enum agent_state s);
/* Tracing is off: every thread sends what is left. 0, or -1 with why */
int agent_drain(struct agent *a, char *err, size_t errlen);
void agent_cpu_stop(struct agent_cpu *c);

#endif /* HYPTRACE_TOOLS_AGENT_H */
