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
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "hyptrace/source.h"
#include "hyptrace/vtauth.h"
#include "hyptrace/vtgate.h"

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

/* -N: the key, and the connections refused (agent_auth.c) */
struct agent_auth {
	struct vta_key key;
	bool no_key;			/* --no-key: anyone is served */
	unsigned long refused[VTA_NR_RESULTS];
	long long window;		/* the minute the lines are counted in */
	unsigned int said;		/* refusal lines said in it */
	unsigned long unsaid;		/* refusals not said since the last */
	struct vt_gate gate;		/* the handshakes under way */
	bool gate_open;
};

struct agent {
	const char *dir;	/* the hypervisor's tracing directory */
	unsigned int page_size;
	unsigned int nr_cpus;	/* highest CPU + 1 */
	int stall_ms;
	struct agent_cpu cpu[SOURCE_MAX_CPUS];
	bool have_cpu[SOURCE_MAX_CPUS];
	pthread_mutex_t lock;
	pthread_cond_t cond;	/* state changes, drains done */
	enum agent_state state;
	unsigned int drain_gen;
	/* -N ADDR:PORT (agent_net.c); listen_fd -1 over virtio-serial */
	pthread_mutex_t send_lock;	/* one message at a time on the ctl */
	int listen_fd;
	int idle_ms;			/* drop a client with no order this long */
	struct agent_auth auth;
	int client_fd;			/* the client served, or -1 */
	bool client_dead;		/* a send to it failed: drop the rest */
	bool client_hungup;		/* sent an error: nothing more goes */
	int net_rd[SOURCE_MAX_CPUS];	/* the CPUs' pipes, read end */
	unsigned char *net_page[SOURCE_MAX_CPUS];
	size_t net_have[SOURCE_MAX_CPUS];
	/*
	 * Under send_lock: the page message the client has not all taken
	 * yet (the rest goes before anything else), whether it took nothing
	 * for stall_ms, and the pages of this round the mux dropped whole
	 * because of that (or because the client was gone)
	 */
	unsigned char *out;
	size_t out_len, out_off;
	bool net_stalled;
	uint64_t net_stall_dropped;
	uint64_t net_dropped[SOURCE_MAX_CPUS];
	uint64_t net_dropped_events[SOURCE_MAX_CPUS];
	pthread_t mux;
	bool mux_started, mux_quit;
	unsigned long mux_idle;		/* passes that found nothing */
	volatile sig_atomic_t *stop;	/* set by SIGINT/SIGTERM */
};

/* What control_loop() says about a client */
enum { AGENT_CLIENT_SIGNAL, AGENT_CLIENT_DROP };

/* agent_cpu.c */
int agent_cpu_start(struct agent_cpu *c, char *err, size_t errlen);
void agent_cpu_set_state(struct agent *a, enum agent_state s);
/* Tracing is off: every thread sends what is left. 0, or -1 with why */
int agent_cpu_drain(struct agent *a, char *err, size_t errlen);
void agent_cpu_stop(struct agent_cpu *c);

/* agent_round.c: round @round started, or stopped; 0 or -1 (said) */
int agent_round_start(struct agent *a, int ctl, unsigned int round);
int agent_round_stop(struct agent *a, int ctl, unsigned int round);
/* the raw files closed, so that the buffer can unload */
void agent_round_close_raw(struct agent *a);

/* agent_clock.c: answer "clock" with clock_now; 0, or -1 (said) */
int agent_clock_now(struct agent *a, int ctl);

/* agent_ctl.c: orders from @ctl; AGENT_CLIENT_*, or -1 on a failure */
int agent_ctl_orders(struct agent *a, int ctl, bool start_now);

/* agent_auth.c */
/*
 * Wait up to @wait_ms for a connection on a->listen_fd that answers the
 * challenge: its fd, or -1. Those refused are counted and said.
 */
int agent_auth_next(struct agent *a, int wait_ms);
/* End the handshakes under way, telling each client @why */
void agent_auth_close(struct agent *a, const char *why);
/* One line of the refusals, if any, for the end */
void agent_auth_summary(const struct agent *a);

/* agent_net.c */
/* vtproto_send() on @fd, one message at a time (pages come from the mux) */
int agent_net_send(struct agent *a, int fd, const char *name, const void *p,
	       size_t len, char *err, size_t errlen);
/* CPU @cpu's port: a pipe whose pages the mux thread sends as page:N */
int agent_net_pipe(struct agent *a, unsigned int cpu, char *err,
		   size_t errlen);
int agent_net_mux_start(struct agent *a, char *err, size_t errlen);
void agent_net_mux_stop(struct agent *a);
/* Every page in the pipes has gone to the client (or was dropped) */
void agent_net_flush(struct agent *a);
/* A new round: the mux's counts back to 0 */
void agent_net_round(struct agent *a);
/* CPU @cpu's pages the mux dropped this round, and their events */
void agent_net_dropped(struct agent *a, unsigned int cpu, uint64_t *pages,
		       uint64_t *events);
/*
 * The client served from now on (-1: none); what the last one had not
 * taken is forgotten
 */
void agent_net_client(struct agent *a, int fd);
/* Nothing more goes to the client (it was sent an error) */
void agent_net_hangup(struct agent *a);
/* agent_net_hangup() was called for this client */
bool agent_net_hungup(struct agent *a);
/* A connection while one is served: an error message, closed */
void agent_net_refuse(struct agent *a);
/*
 * Close @fd without a reset: this side shut, what the client still sends
 * read and dropped until it closes too (or a second passes), since a
 * close with bytes unread sends a RST, and a RST can lose the last
 * message on its way (QEMU's user network drops what it had not passed on)
 */
void agent_net_close(int fd);
/* Accept clients one at a time until a signal; -1 on a failure */
int agent_net_serve(struct agent *a, const char *where);

#endif /* HYPTRACE_TOOLS_AGENT_H */
