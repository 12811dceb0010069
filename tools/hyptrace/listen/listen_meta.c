// SPDX-License-Identifier: GPL-2.0
/*
 * What `hyptrace agent` says on agent-ctl-path (hyptrace/vtproto.h), kept for
 * the trace.dat, and the file itself: the agent's metadata, the pages in
 * the temporary files, and per CPU a CPUSTAT option with the board's
 * stats file plus the pages (and their events) the agent dropped because
 * the host did not take them: `trace-cmd report --stat` prints them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hyptrace/errmsg.h"
#include "listen.h"

static char *dup_payload(const struct vt_msg *m)
{
	char *s = malloc(m->len + 1);

	if (s) {
		memcpy(s, m->payload, m->len);
		s[m->len] = '\0';
	}
	return s;
}

void listen_meta_free(struct lst *l)
{
	unsigned int i;

	free(l->header_page);
	free(l->header_event);
	free(l->clock);
	free(l->uname);
	for (i = 0; i < l->nr_formats; i++) {
		free((char *)l->formats[i].system);
		free((char *)l->formats[i].text);
	}
	free(l->formats);
	l->header_page = l->header_event = l->clock = l->uname = NULL;
	l->formats = NULL;
	l->nr_formats = 0;
	l->format_bytes = 0;
	l->nr_systems = 0;
	l->have_meta = false;
}

static int take_hello(struct lst *l, const struct vt_msg *m, char *err,
		 size_t errlen)
{
	char *s = dup_payload(m);
	unsigned int version, cpus, page_size, i;
	char q[61];
	int end = 0;

	if (!s)
		return errmsg(err, errlen, "out of memory");
	if (sscanf(s, "version=%u cpus=%u page_size=%u%n", &version, &cpus,
		   &page_size, &end) != 3 || s[end]) {
		free(s);
		return errmsg(err, errlen, "the agent's hello is not one: '%s'",
			      errmsg_printable(q, sizeof(q), m->payload,
					       m->len));
	}
	free(s);
	if (version != VT_VERSION)
		return errmsg(err, errlen, "the agent speaks version %u, this listener %u",
			      version, VT_VERSION);
	if (page_size < 64 || page_size > (1U << 20) ||
	    (page_size & (page_size - 1)))
		return errmsg(err, errlen, "the agent's page size %u is not a page size",
			      page_size);
	if (l->page_size && page_size != l->page_size)
		return errmsg(err, errlen, "the agent's page size changed from %u to %u",
			      l->page_size, page_size);
	if (l->tp->pages_on_ctl && !l->nr_cpus && cpus &&
	    cpus <= SOURCE_MAX_CPUS) {
		for (i = 0; i < cpus; i++)
			if (listen_store_open_tmp(l, i, err, errlen))
				return -1;
	}
	if (!cpus || cpus > l->nr_cpus)
		return errmsg(err, errlen, "the agent has %u CPUs, but %s has trace-path-cpuN sockets for %u",
			      cpus, l->dir, l->nr_cpus);
	if (!l->page_size) {
		for (i = 0; i < l->nr_cpus; i++) {
			l->cpu[i].page = malloc(page_size);
			if (!l->cpu[i].page)
				return errmsg(err, errlen, "out of memory");
		}
	}
	l->page_size = page_size;
	l->agent_cpus = cpus;
	listen_meta_free(l);
	l->have_meta = true;
	return 0;
}

/*
 * One more format within the hello's LST_MAX_*: 0 with *@new_system if
 * its system is one not seen yet, or -1 with the reason
 */
static int format_fits(const struct lst *l, const struct vt_msg *m,
		       const char *system, bool *new_system, char *err,
		       size_t errlen)
{
	unsigned int i;

	if (m->len > LST_MAX_TEXT)
		return errmsg(err, errlen, "control message '%s': %zu bytes, more than a format file's %u",
			      m->name, m->len, LST_MAX_TEXT);
	if (l->nr_formats >= LST_MAX_FORMATS)
		return errmsg(err, errlen, "the agent sent more than %u formats after its hello",
			      LST_MAX_FORMATS);
	if (l->format_bytes + m->len > LST_MAX_FORMAT_BYTES)
		return errmsg(err, errlen, "the agent sent more than %u MiB of formats after its hello",
			      LST_MAX_FORMAT_BYTES >> 20);
	for (i = 0; i < l->nr_formats; i++) {
		if (!strcmp(l->formats[i].system, system))
			break;
	}
	*new_system = i == l->nr_formats;
	if (*new_system && l->nr_systems >= LST_MAX_SYSTEMS)
		return errmsg(err, errlen, "the agent sent formats of more than %u systems after its hello",
			      LST_MAX_SYSTEMS);
	return 0;
}

static int add_format(struct lst *l, const struct vt_msg *m, char *err,
		      size_t errlen)
{
	const char *system = m->name + strlen("format:");
	struct td_out_format *f;
	bool new_system;

	if (format_fits(l, m, system, &new_system, err, errlen))
		return -1;
	f = realloc(l->formats, (l->nr_formats + 1) * sizeof(*f));
	if (!f)
		return errmsg(err, errlen, "out of memory");
	l->formats = f;
	f += l->nr_formats;
	f->system = strdup(system);
	f->text = dup_payload(m);
	f->len = m->len;
	l->nr_formats++;	/* freed with the others, whole or not */
	if (!f->system || !f->text)
		return errmsg(err, errlen, "out of memory");
	l->format_bytes += m->len;
	l->nr_systems += new_system;
	return 0;
}

static int take_stopped(struct lst *l, const struct vt_msg *m, char *err,
		   size_t errlen)
{
	struct vt_cpu_round c[SOURCE_MAX_CPUS];
	unsigned int round;
	int n, i;

	n = vtproto_parse_stopped(m->payload, m->len, &round, c, SOURCE_MAX_CPUS,
			     err, errlen);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		struct lst_cpu *lc;

		if (c[i].cpu >= l->nr_cpus || l->cpu[c[i].cpu].tmp_fd < 0)
			return errmsg(err, errlen, "the agent counts pages for CPU %u, which has no socket",
				      c[i].cpu);
		lc = &l->cpu[c[i].cpu];
		lc->expected += c[i].sent;
		lc->dropped += c[i].dropped;
		lc->dropped_events += c[i].dropped_events;
	}
	l->running = false;
	l->rounds_done++;
	printf("hyptrace listen: stopped (round %u)\n", round);
	return 0;
}

static int set_text(char **dst, size_t *len, const struct vt_msg *m,
		    char *err, size_t errlen)
{
	if (m->len > LST_MAX_TEXT)
		return errmsg(err, errlen, "control message '%s': %zu bytes, more than the %u it may have",
			      m->name, m->len, LST_MAX_TEXT);
	free(*dst);
	*dst = dup_payload(m);
	if (len)
		*len = m->len;
	return *dst ? 0 : errmsg(err, errlen, "out of memory");
}

int listen_meta_take_messages(struct lst *l, char *err, size_t errlen)
{
	struct vt_msg m;
	int r;

	while ((r = vtproto_next(&l->rd, &m, err, errlen)) == 1) {
		r = l->tp->message ? l->tp->message(l, &m, err, errlen) : 0;
		if (r < 0 || (!r && listen_meta_message(l, &m, err, errlen)))
			return -1;
	}
	return r;
}

int listen_meta_message(struct lst *l, const struct vt_msg *m, char *err,
		size_t errlen)
{
	const char *n = m->name;
	unsigned int cpu;
	char q[201];
	int end = 0;

	if (!strcmp(n, "hello"))
		return take_hello(l, m, err, errlen);
	if (!strcmp(n, "error"))
		return errmsg(err, errlen, "the agent says: %s",
			      errmsg_printable(q, sizeof(q), m->payload,
					       m->len));
	if (!l->have_meta)
		return errmsg(err, errlen, "control message '%s' before the agent's hello",
			      n);
	if (!strcmp(n, "header_page"))
		return set_text(&l->header_page, &l->header_page_len, m,
				err, errlen);
	if (!strcmp(n, "header_event"))
		return set_text(&l->header_event, &l->header_event_len, m,
				err, errlen);
	if (!strcmp(n, "clock"))
		return set_text(&l->clock, NULL, m, err, errlen);
	if (!strcmp(n, "uname"))
		return set_text(&l->uname, NULL, m, err, errlen);
	if (!strncmp(n, "format:", 7) && n[7])
		return add_format(l, m, err, errlen);
	if (sscanf(n, "cpustat:%u%n", &cpu, &end) == 1 && !n[end]) {
		if (cpu >= l->nr_cpus)
			return errmsg(err, errlen, "stats for CPU %u, which has no socket",
				      cpu);
		return set_text(&l->cpu[cpu].cpustat, NULL, m, err, errlen);
	}
	if (!strcmp(n, "started")) {
		l->running = true;
		l->round++;
		printf("hyptrace listen: started (round %s)\n",
		       errmsg_printable(q, 13, m->payload, m->len));
		return 0;
	}
	if (!strcmp(n, "stopped")) {
		if (take_stopped(l, m, err, errlen))
			return -1;
		listen_clock_burst(l);
		return 0;
	}
	if (!strcmp(n, "clock_now"))
		return listen_clock_answer(l, m, err, errlen);
	return errmsg(err, errlen, "unknown control message '%s'", n);
}

int listen_meta_write(struct lst *l, char *err, size_t errlen)
{
	char *stat[SOURCE_MAX_CPUS] = { NULL };
	char offset[24];
	int fds[SOURCE_MAX_CPUS];
	struct td_out out = { 0 };
	unsigned int i;
	int fd, ret = -1;

	if (!l->have_meta || !l->header_page || !l->header_event ||
	    !l->nr_formats)
		return errmsg(err, errlen, "no metadata from the agent (never started?): no trace.dat");
	for (i = 0; i < l->nr_cpus; i++) {
		struct lst_cpu *c = &l->cpu[i];

		fds[i] = c->tmp_fd;
		if (c->tmp_fd < 0)
			continue;
		if (asprintf(&stat[i], "CPU: %u\n%sagent dropped pages: %llu\nagent dropped events: %llu\n",
			     i, c->cpustat ? c->cpustat : "",
			     (unsigned long long)c->dropped,
			     (unsigned long long)c->dropped_events) < 0) {
			stat[i] = NULL;
			errmsg(err, errlen, "out of memory");
			goto out;
		}
	}
	out.header_page = l->header_page;
	out.header_page_len = l->header_page_len;
	out.header_event = l->header_event;
	out.header_event_len = l->header_event_len;
	out.formats = l->formats;
	out.nr_formats = l->nr_formats;
	out.page_size = l->page_size;
	out.nr_cpus = l->agent_cpus;
	out.cpu_fd = fds;
	out.trace_clock = l->clock;
	out.uname = l->uname;
	out.cpustat = (const char *const *)stat;
	if (!listen_clock_offset(l, offset, sizeof(offset)))
		out.ts_offset = offset;
	/* a trace.dat there is replaced; what a link points to is not */
	fd = open(l->output, O_RDWR | O_CREAT | O_TRUNC | O_NOFOLLOW |
		  O_CLOEXEC, 0644);
	if (fd < 0) {
		errmsg(err, errlen, "cannot create %s: %s", l->output,
		       errno == ELOOP ? "a symbolic link, not followed" :
		       strerror(errno));
		goto out;
	}
	ret = tracedat_write(fd, &out, err, errlen);
	if (close(fd) && !ret)
		ret = errmsg(err, errlen, "writing %s: %s", l->output,
			     strerror(errno));
out:
	for (i = 0; i < l->nr_cpus; i++)
		free(stat[i]);
	return ret;
}

void listen_meta_summary(const struct lst *l)
{
	uint64_t ev = 0, lost = 0, pages = 0, bytes = 0, dp = 0, de = 0;
	unsigned int i;

	printf("%s: hypervisor, from %s over %s, %u round%s\n",
	       l->output, l->dir, l->tp->kind,
	       l->rounds_done,
	       l->rounds_done == 1 ? "" : "s");
	printf("  %4s %10s %8s %10s %7s %8s %10s\n", "CPU", "events", "lost",
	       "bytes", "pages", "dropped", "(events)");
	for (i = 0; i < l->agent_cpus; i++) {
		const struct lst_cpu *c = &l->cpu[i];

		if (c->tmp_fd < 0)
			continue;
		printf("  %4u %10llu %8llu%s %10llu %7llu %8llu %10llu\n", i,
		       (unsigned long long)c->got.events,
		       (unsigned long long)c->got.lost,
		       c->got.lost_unknown ? "+" : " ",
		       (unsigned long long)c->got.bytes,
		       (unsigned long long)c->got.pages,
		       (unsigned long long)c->dropped,
		       (unsigned long long)c->dropped_events);
		ev += c->got.events;
		lost += c->got.lost;
		pages += c->got.pages;
		bytes += c->got.bytes;
		dp += c->dropped;
		de += c->dropped_events;
	}
	printf("  %4s %10llu %8llu  %10llu %7llu %8llu %10llu\n", "all",
	       (unsigned long long)ev, (unsigned long long)lost,
	       (unsigned long long)bytes, (unsigned long long)pages,
	       (unsigned long long)dp, (unsigned long long)de);
}
