/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hyptrace listen --virtio DIR: the workstation's end of the virtio-trace
 * model (lib/vtproto.h), on the UNIX sockets QEMU's chardevs listen on.
 * listen.c connects, gives the orders and moves the pages into temporary
 * files; listen_meta.c keeps what the agent says on the control port and
 * writes the trace.dat.
 */
#ifndef HYPTRACE_TOOLS_LISTEN_H
#define HYPTRACE_TOOLS_LISTEN_H

#include <stdbool.h>
#include <stdint.h>

#include "record.h"
#include "tracedat.h"
#include "vtproto.h"

struct lst_cpu {
	int fd;			/* trace-path-cpuN's socket, or -1 */
	int tmp_fd;		/* OUTPUT.cpuN */
	unsigned char *page;
	size_t have;
	struct rec_counts got;	/* counted from the pages that arrived */
	uint64_t expected;	/* pages the agent said it sent, all rounds */
	uint64_t dropped, dropped_events;	/* the agent's, all rounds */
	char *cpustat;		/* the agent's last per_cpu/cpuN/stats */
};

struct lst {
	const char *dir;	/* --virtio DIR, or -N's HOST:PORT */
	bool net;		/* -N: everything on ctl (listen_net.c) */
	const char *output;
	int ctl;
	unsigned int nr_cpus;	/* sockets found: highest + 1 */
	unsigned int page_size;	/* from hello */
	struct lst_cpu cpu[REC_MAX_CPUS];
	struct vt_reader rd;
	/* metadata, the latest set */
	bool have_meta;
	unsigned int agent_cpus;
	char *header_page, *header_event, *clock, *uname;
	size_t header_page_len, header_event_len;
	struct td_out_format *formats;
	unsigned int nr_formats;
	/* rounds */
	bool running;		/* "started" seen, "stopped" not yet */
	unsigned int round;	/* the last round started */
	unsigned int rounds_done;
};

/* listen.c */
int lst_open_tmp(struct lst *l, unsigned int cpu, char *err, size_t errlen);
/* A whole page of CPU @i that arrived: checked, into its file */
int lst_store_page(struct lst *l, unsigned int i, const void *page,
		   char *err, size_t errlen);
/* "DIR/agent-ctl-path" or "HOST:PORT", for messages */
const char *lst_ctl_name(const struct lst *l);

/* listen_net.c */
int lst_net_connect(struct lst *l);
/* 1 if @m was a page (stored), 0 if another message, -1 */
int lst_net_page(struct lst *l, const struct vt_msg *m, char *err,
		 size_t errlen);

/* listen_meta.c */
int lst_message(struct lst *l, const struct vt_msg *m, char *err,
		size_t errlen);
int lst_write(struct lst *l, char *err, size_t errlen);
void lst_summary(const struct lst *l);
void lst_free_meta(struct lst *l);

#endif /* HYPTRACE_TOOLS_LISTEN_H */
