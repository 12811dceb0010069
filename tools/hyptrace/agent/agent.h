/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hyptrace agent: the board's end of the virtio-trace model
 * (hyptrace/vtproto.h). The main thread reads the host's orders on the
 * control channel and answers there; one thread per CPU, pinned to it,
 * moves that CPU's pages from trace_pipe_raw to its port. A transport
 * (struct agent_transport) is what the channel and the ports are:
 * virtio-serial ports, or one TCP connection per client.
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

/* -N: who may be served, and the connections refused (agent_auth.c) */
struct agent_auth {
	const struct vta_key *key;	/* NULL with --no-key: anyone */
	unsigned long refused[VTA_NR_RESULTS];
	long long window;		/* the minute the lines are counted in */
	unsigned int said;		/* refusal lines said in it */
	unsigned long unsaid;		/* refusals not said since the last */
	struct vt_gate gate;		/* the handshakes under way */
	bool gate_open;
};

struct agent_transport;

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
	/* how the host is reached, where (--ports DIR or -N ADDR:PORT) */
	const struct agent_transport *tp;
	const char *where;
	void *tp_state;			/* the transport's own */
	int idle_ms;			/* drop a client with no order this long */
	struct vta_key key;		/* -N --key FILE */
	bool no_key;			/* -N --no-key: anyone is served */
	volatile sig_atomic_t *stop;	/* set by SIGINT/SIGTERM */
};

/*
 * How the agent reaches the host: virtio-serial ports (agent_virtio.c)
 * or a TCP connection per client (agent_net.c). The orders, the rounds
 * and the CPUs' threads use only these operations, never the transport's
 * state. The hooks marked optional may be NULL: nothing to do.
 */
struct agent_transport {
	/* the control channel, for messages: "agent-ctl-path", "the client" */
	const char *ctl_name;
	/*
	 * true: a failure or a bad order on the control channel drops that
	 * client (who gets an "error" message), and the next one is served;
	 * false: it ends the agent
	 */
	bool per_client;
	/* Before the buffer is set up: what must be there; 0, or -1 (said) */
	int (*open)(struct agent *a);
	/* CPU @cpu's end, into a->cpu[cpu].port_fd; 0, or -1 with why */
	int (*open_cpu)(struct agent *a, unsigned int cpu, char *err,
			size_t errlen);
	/* Orders until a signal; 0, or -1 on a failure (said) */
	int (*serve)(struct agent *a, bool start_now);
	/* One control message on @ctl, between the pages; 0, or -1 with why */
	int (*send)(struct agent *a, int ctl, const char *name, const void *p,
		    size_t len, char *err, size_t errlen);
	/* Everything closed and freed; safe after a failed open */
	void (*close)(struct agent *a);
	/* optional: a round starts (the transport's counts back to 0) */
	void (*round)(struct agent *a);
	/* optional: tracing is off and drained: every page has gone */
	void (*flush)(struct agent *a);
	/* optional: CPU @cpu's pages of this round dropped after its thread */
	void (*dropped)(struct agent *a, unsigned int cpu, uint64_t *pages,
			uint64_t *events);
	/* optional: the client was told why it goes: nothing more to it */
	void (*hangup)(struct agent *a);
	/* optional: hangup() was called for this client */
	bool (*hungup)(struct agent *a);
	/* optional: a send to the client failed: it is to be dropped */
	bool (*gone)(struct agent *a);
	/*
	 * optional: a socket where another client may knock while one is
	 * served (-1: none), and the refusal when one does
	 */
	int (*busy_fd)(struct agent *a);
	void (*refuse)(struct agent *a);
};

extern const struct agent_transport agent_virtio_transport;
extern const struct agent_transport agent_net_transport;

/* What agent_ctl_orders() says about a client */
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
 * Wait up to @wait_ms for a connection on @listen_fd that answers the
 * challenge: its fd, or -1. Those refused are counted and said.
 */
int agent_auth_next(struct agent_auth *au, int listen_fd, int wait_ms);
/* End the handshakes under way, telling each client @why */
void agent_auth_close(struct agent_auth *au, const char *why);
/* One line of the refusals, if any, for the end */
void agent_auth_summary(const struct agent_auth *au);

#endif /* HYPTRACE_TOOLS_AGENT_H */
