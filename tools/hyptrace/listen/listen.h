/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hyptrace listen: the workstation's end of the virtio-trace model
 * (hyptrace/vtproto.h), over a transport (struct listen_transport): QEMU's
 * virtio-serial sockets or TCP. listen.c connects, gives the orders and
 * moves the pages into temporary files; listen_meta.c keeps what the
 * agent says on the control channel and writes the trace.dat.
 */
#ifndef HYPTRACE_TOOLS_LISTEN_H
#define HYPTRACE_TOOLS_LISTEN_H

#include <stdbool.h>
#include <stdint.h>

#include "hyptrace/clksync.h"
#include "hyptrace/source.h"
#include "hyptrace/tracedat.h"
#include "hyptrace/vtauth.h"
#include "hyptrace/vtproto.h"

struct lst_cpu {
	int fd;			/* trace-path-cpuN's socket, or -1 */
	int tmp_fd;		/* OUTPUT.cpuN */
	unsigned char *page;
	size_t have;
	struct source_counts got;	/* counted from the pages that arrived */
	uint64_t expected;	/* pages the agent said it sent, all rounds */
	uint64_t dropped, dropped_events;	/* the agent's, all rounds */
	char *cpustat;		/* the agent's last per_cpu/cpuN/stats */
};

#define LST_CLOCK_SAMPLES	16	/* exchanges after each round */

/* The board's trace clock against one of this machine's (listen_clock.c) */
struct lst_clock {
	const char *host_name;	/* --align's clock, or boot */
	clockid_t host_id;
	bool align;		/* --align: the offset goes into the file */
	bool failed;		/* the agent cannot say: no more asking */
	bool drift;		/* a round disagreed with the first (said) */
	unsigned int want;	/* exchanges still to make in this burst */
	int64_t asked;		/* this machine's time the question left, or 0 */
	struct cs_sample s[LST_CLOCK_SAMPLES];
	unsigned int n;
	char board[32];		/* the board's clock's name */
	unsigned int rounds;	/* bursts done */
	struct clksync_estimate first, best;
	int64_t lo, hi;		/* the rounds' smallest and largest offset */
};

struct listen_transport;

struct lst {
	const char *dir;	/* --virtio DIR, or -N's HOST:PORT */
	const struct listen_transport *tp;	/* how the agent is reached */
	const char *key_file;	/* -N --key FILE; NULL with --no-key */
	struct vta_key *key;	/* loaded from it (listen_net.c) */
	const char *output;
	int ctl;
	unsigned int nr_cpus;	/* sockets found: highest + 1 */
	unsigned int page_size;	/* from hello */
	struct lst_cpu cpu[SOURCE_MAX_CPUS];
	struct vt_reader rd;
	/* --max-size: the pages in OUTPUT.cpuN stop there (0: no limit) */
	uint64_t max_size, stored;
	bool full;		/* a page did not fit: the round ends */
	/* metadata, the latest set */
	bool have_meta;
	unsigned int agent_cpus;
	char *header_page, *header_event, *clock, *uname;
	size_t header_page_len, header_event_len;
	struct td_out_format *formats;
	unsigned int nr_formats;
	size_t format_bytes;	/* of formats[]: capped, as their number */
	unsigned int nr_systems;	/* distinct formats[].system */
	/* rounds */
	bool running;		/* "started" seen, "stopped" not yet */
	unsigned int round;	/* the last round started */
	unsigned int rounds_done;
	struct lst_clock clk;
};

/*
 * How the agent is reached: QEMU's virtio-serial sockets in a directory
 * (listen_virtio.c), or one TCP connection to agent -N (listen_net.c).
 * The rest of the listener calls only these.
 */
struct listen_transport {
	const char *kind;	/* "virtio-serial", "TCP": for the summary */
	const char *peer;	/* who is gone when the channel closes */
	/*
	 * true: the pages come on the control channel too, and the CPUs
	 * are the hello's; false: one socket per CPU, found at open
	 */
	bool pages_on_ctl;
	/* the agent drops a client that sends no order: ping it */
	bool keepalive;
	/* Connect: l->ctl (and the CPUs' sockets); 0, or -1 (said) */
	int (*open)(struct lst *l);
	/* The control channel's name, for messages */
	const char *(*ctl_name)(const struct lst *l);
	/* optional: 1 if @m was the transport's own (stored), 0 if not, -1 */
	int (*message)(struct lst *l, const struct vt_msg *m, char *err,
		       size_t errlen);
	/* optional: what open() kept, freed */
	void (*close)(struct lst *l);
};

extern const struct listen_transport listen_virtio_transport;
extern const struct listen_transport listen_net_transport;

#define LST_DEFAULT_MAX_SIZE	(1ULL << 30)

/*
 * What one hello's metadata may hold: the texts are a few KiB each on a
 * real board (a format file, a stats file), and a broken or hostile agent
 * must not make the listener keep more than some tens of MiB
 */
#define LST_MAX_TEXT		(64U << 10)	/* each text, each format */
#define LST_MAX_FORMATS		4096
#define LST_MAX_FORMAT_BYTES	(8U << 20)	/* all formats */
#define LST_MAX_SYSTEMS		16		/* distinct format:SYSTEM */

/* listen_store.c */
/* OUTPUT.cpuN, made new (O_EXCL), not through a link */
int listen_store_open_tmp(struct lst *l, unsigned int cpu, char *err, size_t errlen);
/*
 * A whole page of CPU @i that arrived: checked, into its file; -1 with
 * the reason, and l->full set if it would go beyond --max-size
 */
int listen_store_page(struct lst *l, unsigned int i, const void *page,
		   char *err, size_t errlen);
/*
 * The sockets closed, OUTPUT.cpuN removed, the transport's state freed
 * (the metadata is listen_meta_free()'s)
 */
void listen_store_close(struct lst *l);

/* listen_clock.c */
/* @align: --align's clock, or NULL; -1 (said) if there is no such clock */
int listen_clock_init(struct lst *l, const char *align);
/* A round has stopped: time LST_CLOCK_SAMPLES exchanges */
void listen_clock_burst(struct lst *l);
/* Exchanges still to make (and a way to make them) */
bool listen_clock_busy(const struct lst *l);
/* Ask again if no question is out; 0 or -1 */
int listen_clock_poll(struct lst *l);
/* No more asking: said on stdout with @why; the clocks stay apart */
void listen_clock_give_up(struct lst *l, const char *why);
/* A clock_now message; 0, or -1 with the reason if it is malformed */
int listen_clock_answer(struct lst *l, const struct vt_msg *m, char *err,
		     size_t errlen);
/* With --align and an estimate: the OFFSET option's text; 0, else -1 */
int listen_clock_offset(const struct lst *l, char *buf, size_t len);
void listen_clock_summary(const struct lst *l);

/* listen_meta.c */
/*
 * The whole messages in l->rd, each to the transport's message() (pages,
 * over TCP) or listen_meta_message(); 0 when more bytes are needed, -1
 * with the reason
 */
int listen_meta_take_messages(struct lst *l, char *err, size_t errlen);
int listen_meta_message(struct lst *l, const struct vt_msg *m, char *err,
		size_t errlen);
int listen_meta_write(struct lst *l, char *err, size_t errlen);
void listen_meta_summary(const struct lst *l);
void listen_meta_free(struct lst *l);

#endif /* HYPTRACE_TOOLS_LISTEN_H */
