// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace agent: a round, started and stopped. Start sends the metadata
 * the listener needs (hyptrace/vtproto.h), turns tracing on and lets the CPUs'
 * threads go (agent_cpu.c); stop turns it off, waits until every page is
 * out and sends each CPU's stats and the round's counts. The same over
 * virtio-serial and over TCP: the transport's operations (agent.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "hyptrace/buffer_setup.h"
#include "hyptrace/errmsg.h"
#include "hyptrace/cmdline.h"
#include "hyptrace/source.h"
#include "hyptrace/tracefs.h"
#include "hyptrace/vtproto.h"

#define SUB		"agent"

/* The metadata the listener needs for its trace.dat (vtproto.h) */
static int send_meta(struct agent *a, int ctl, char *err, size_t errlen)
{
	struct source *src = calloc(1, sizeof(*src));
	struct source_meta *m = malloc(sizeof(*m));
	char hello[96], sys[VT_MAX_NAME + 1];
	unsigned int i;
	int ret = -1;

	if (!src || !m) {
		errmsg(err, errlen, "out of memory");
		goto out;
	}
	src->what = "hypervisor";
	src->dir = a->dir;
	src->system = "hypervisor";
	src->nr_cpus = a->nr_cpus;
	src->page_size = a->page_size;
	for (i = 0; i < a->nr_cpus; i++) {
		src->cpu[i].on = a->have_cpu[i];
		src->cpu[i].tmp_fd = -1;
	}
	if (source_describe(src, m, false, err, errlen))
		goto out;
	snprintf(hello, sizeof(hello), "version=%d cpus=%u page_size=%u",
		 VT_VERSION, a->nr_cpus, a->page_size);
	if (a->tp->send(a, ctl, "hello", hello, strlen(hello), err, errlen) ||
	    a->tp->send(a, ctl, "header_page", m->out.header_page,
		       m->out.header_page_len, err, errlen) ||
	    a->tp->send(a, ctl, "header_event", m->out.header_event,
		       m->out.header_event_len, err, errlen))
		goto out_undescribe;
	for (i = 0; i < m->out.nr_formats; i++) {
		snprintf(sys, sizeof(sys), "format:%s",
			 m->out.formats[i].system);
		if (a->tp->send(a, ctl, sys, m->out.formats[i].text,
			       m->out.formats[i].len, err, errlen))
			goto out_undescribe;
	}
	if ((m->out.trace_clock &&
	     a->tp->send(a, ctl, "clock", m->out.trace_clock,
			strlen(m->out.trace_clock), err, errlen)) ||
	    (m->out.uname &&
	     a->tp->send(a, ctl, "uname", m->out.uname, strlen(m->out.uname),
			err, errlen)))
		goto out_undescribe;
	ret = 0;
out_undescribe:
	source_undescribe(m);
out:
	free(m);
	free(src);
	return ret;
}

int agent_round_start(struct agent *a, int ctl, unsigned int round)
{
	char err[512], file[64], path[PATH_MAX], r[16];
	unsigned int i;

	for (i = 0; i < a->nr_cpus; i++) {
		a->cpu[i].sent = a->cpu[i].dropped = 0;
		a->cpu[i].dropped_events = 0;
		a->cpu[i].stalled = false;
	}
	if (a->tp->round)
		a->tp->round(a);
	if (send_meta(a, ctl, err, sizeof(err))) {
		cmdline_err(SUB, "sending the metadata: %s", err);
		return -1;
	}
	if (buffer_setup_set(SUB, a->dir, "tracing_on", "1"))
		return -1;
	/* The raw files can be opened once a buffer is loaded */
	for (i = 0; i < a->nr_cpus; i++) {
		struct agent_cpu *c = &a->cpu[i];

		if (!a->have_cpu[i] || c->raw_fd >= 0)
			continue;
		snprintf(file, sizeof(file), "per_cpu/cpu%u/trace_pipe_raw", i);
		snprintf(path, sizeof(path), "%s/%s", a->dir, file);
		c->raw_fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (c->raw_fd < 0) {
			cmdline_err(SUB, "cannot open %s: %s", path,
			       strerror(errno));
			return -1;
		}
	}
	agent_cpu_set_state(a, AGENT_RUN);
	snprintf(r, sizeof(r), "%u", round);
	if (a->tp->send(a, ctl, "started", r, strlen(r), err,
		    sizeof(err))) {
		cmdline_err(SUB, "%s: %s", a->tp->ctl_name, err);
		return -1;
	}
	printf("hyptrace agent: started (round %u)\n", round);
	return 0;
}

void agent_round_close_raw(struct agent *a)
{
	unsigned int i;

	for (i = 0; i < a->nr_cpus; i++) {
		if (a->cpu[i].raw_fd >= 0)
			close(a->cpu[i].raw_fd);
		a->cpu[i].raw_fd = -1;
	}
}

/* Tracing off, every page sent, then the CPUs' stats and the counts. */
int agent_round_stop(struct agent *a, int ctl, unsigned int round)
{
	char err[512], file[64], name[32], *msg = NULL;
	unsigned long long sent = 0, dropped = 0, events = 0;
	struct vt_cpu_round counts[SOURCE_MAX_CPUS];
	unsigned int i, n = 0;
	struct tfs_text t;
	size_t len;
	int ret = -1;

	if (buffer_setup_set(SUB, a->dir, "tracing_on", "0"))
		goto out;
	if (agent_cpu_drain(a, err, sizeof(err))) {
		cmdline_err(SUB, "%s", err);
		goto out;
	}
	if (a->tp->flush)
		a->tp->flush(a);
	for (i = 0; i < a->nr_cpus; i++) {
		struct agent_cpu *c = &a->cpu[i];
		uint64_t c_sent = c->sent, c_dropped = c->dropped;
		uint64_t c_events = c->dropped_events, np = 0, ne = 0;

		if (!a->have_cpu[i])
			continue;
		/* over TCP, what went into the pipe the mux may have dropped */
		if (a->tp->dropped)
			a->tp->dropped(a, i, &np, &ne);
		c_sent -= np;
		c_dropped += np;
		c_events += ne;
		snprintf(file, sizeof(file), "per_cpu/cpu%u/stats", i);
		snprintf(name, sizeof(name), "cpustat:%u", i);
		if (!tracefs_read(a->dir, file, &t, err, sizeof(err))) {
			ret = a->tp->send(a, ctl, name, t.text, t.len,
				      err, sizeof(err));
			free(t.text);
			if (ret)
				goto out_ctl;
			ret = -1;
		}
		printf("hyptrace agent: CPU %u: %llu written, %llu pages sent, %llu dropped (%llu events), %llu lost\n",
		       i, tracefs_stat(a->dir, file, "written events"),
		       (unsigned long long)c_sent,
		       (unsigned long long)c_dropped,
		       (unsigned long long)c_events,
		       tracefs_stat(a->dir, file, "overrun"));
		counts[n++] = (struct vt_cpu_round){ i, c_sent, c_dropped,
						     c_events };
		sent += c_sent;
		dropped += c_dropped;
		events += c_events;
	}
	msg = vtproto_format_stopped(round, counts, n, &len);
	if (!msg) {
		cmdline_err(SUB, "the round's counts: out of memory");
		goto out;
	}
	if (a->tp->send(a, ctl, "stopped", msg, len, err, sizeof(err)))
		goto out_ctl;
	printf("hyptrace agent: stopped (round %u): %llu pages sent, %llu dropped (%llu events)\n",
	       round, sent, dropped, events);
	ret = 0;
	goto out;
out_ctl:
	/* a client sent an error was told why */
	if (!a->tp->hungup || !a->tp->hungup(a))
		cmdline_err(SUB, "%s: %s", a->tp->ctl_name, err);
	/* over TCP the round is over all the same: the next client may come */
	if (a->tp->per_client)
		printf("hyptrace agent: stopped (round %u), the client told nothing\n",
		       round);
out:
	/*
	 * Every page is out and the stats are read (or it failed): close the
	 * raw files, so that the buffer can unload (the module defers that
	 * while they are open) and the next "1" loads a fresh one
	 */
	agent_round_close_raw(a);
	free(msg);
	return ret;
}
