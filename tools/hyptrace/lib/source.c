// SPDX-License-Identifier: GPL-2.0
/*
 * One recorded source (hyptrace/source.h), for `hyptrace record` and the
 * agent: its per-CPU raw pages moved into temporary files
 * with splice(2), so that no page passes through this program's memory,
 * then the trace.dat assembled around them (hyptrace/tracedat.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "hyptrace/page.h"
#include "hyptrace/source.h"
#include "hyptrace/tracedat.h"
#include "hyptrace/tracefs.h"

static void tmp_path(const struct source *src, unsigned int cpu,
		     char *buf, size_t len)
{
	snprintf(buf, len, "%s.cpu%u", src->output, cpu);
}

int source_open(struct source *src, char *err, size_t errlen)
{
	char path[PATH_MAX];
	unsigned int i;

	for (i = 0; i < src->nr_cpus; i++) {
		struct source_cpu *c = &src->cpu[i];

		c->raw_fd = c->tmp_fd = c->pipe[0] = c->pipe[1] = -1;
	}
	for (i = 0; i < src->nr_cpus; i++) {
		struct source_cpu *c = &src->cpu[i];

		if (!c->on)
			continue;
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%u/trace_pipe_raw",
			 src->dir, i);
		c->raw_fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (c->raw_fd < 0) {
			snprintf(err, errlen, "cannot open %s: %s", path,
				 strerror(errno));
			return -1;
		}
		/* streaming without a local copy: no file at all */
		if (!source_keeps_file(src))
			continue;
		tmp_path(src, i, path, sizeof(path));
		c->tmp_fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC,
				 0644);
		if (c->tmp_fd < 0) {
			snprintf(err, errlen, "cannot create %s: %s", path,
				 strerror(errno));
			return -1;
		}
		if (pipe2(c->pipe, O_CLOEXEC)) {
			snprintf(err, errlen, "pipe: %s", strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* Move @len bytes that wait in @c's pipe into its file. */
static int pipe_to_file(struct source_cpu *c, size_t len, char *err,
			size_t errlen)
{
	while (len) {
		ssize_t n = splice(c->pipe[0], NULL, c->tmp_fd, NULL, len, 0);

		if (n <= 0) {
			snprintf(err, errlen, "writing pages: %s",
				 n ? strerror(errno) : "no progress");
			return -1;
		}
		len -= n;
	}
	return 0;
}

/*
 * Take every page @cpu has now. The raw file hands out one page per call;
 * a page always arrives whole, so a short transfer just means "more of the
 * same page follows at once".
 */
static int drain_cpu(struct source *src, struct source_cpu *c, char *err,
		     size_t errlen)
{
	size_t have = 0;

	for (;;) {
		ssize_t n = splice(c->raw_fd, NULL, c->pipe[1], NULL,
				   src->page_size - have, SPLICE_F_NONBLOCK);

		if (n < 0 && errno == EAGAIN && !have)
			return 0;
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			snprintf(err, errlen, "reading %s's pages: %s",
				 src->what, n ? strerror(errno) : "end of file");
			return -1;
		}
		if (pipe_to_file(c, n, err, errlen))
			return -1;
		have += n;
		if (have == src->page_size) {
			c->pages++;
			have = 0;
		}
	}
}

int source_drain(struct source *src, char *err, size_t errlen)
{
	unsigned int i;

	for (i = 0; i < src->nr_cpus; i++) {
		if (src->cpu[i].on &&
		    drain_cpu(src, &src->cpu[i], err, errlen))
			return -1;
	}
	return 0;
}

int source_count_page(const void *page, size_t page_size, struct source_counts *cnt,
		   char *why, size_t whylen)
{
	struct pg_walk w;
	struct pg_event ev;
	int r;

	if (page_open(&w, page, page_size, why, whylen))
		return -1;
	if (w.lost == PG_LOST_UNKNOWN)
		cnt->lost_unknown++;
	else
		cnt->lost += w.lost;
	while ((r = page_next(&w, &ev, why, whylen)) == 1)
		cnt->events++;
	if (r < 0)
		return -1;
	cnt->bytes += w.commit;
	cnt->pages++;
	return 0;
}

int source_count(struct source *src, unsigned int cpu,
	      struct source_counts *cnt, char *err, size_t errlen)
{
	struct source_cpu *c = &src->cpu[cpu];
	unsigned char *page = malloc(src->page_size);
	char why[128];
	off_t off = 0;
	ssize_t n;

	memset(cnt, 0, sizeof(*cnt));
	if (!page) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	while ((n = pread(c->tmp_fd, page, src->page_size, off)) > 0) {
		if ((size_t)n != src->page_size ||
		    source_count_page(page, src->page_size, cnt, why,
				   sizeof(why))) {
			snprintf(err, errlen, "CPU %u page %llu: %s", cpu,
				 (unsigned long long)(off / src->page_size),
				 (size_t)n != src->page_size ? "short page" : why);
			free(page);
			return -1;
		}
		off += n;
	}
	free(page);
	return 0;
}

static int add_format(struct source_formats *fm, const char *dir,
		      const char *system, const char *event, char *err,
		      size_t errlen)
{
	char file[PATH_MAX];

	if (fm->nr == fm->cap) {
		unsigned int cap = fm->cap ? 2 * fm->cap : 16;
		void *f = realloc(fm->f, cap * sizeof(*fm->f));
		void *t = f ? realloc(fm->text, cap * sizeof(*fm->text)) : NULL;

		if (f)
			fm->f = f;
		if (!t) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		fm->text = t;
		fm->cap = cap;
	}
	snprintf(file, sizeof(file), "events/%s/%s/format", system, event);
	if (tracefs_read(dir, file, &fm->text[fm->nr], err, errlen))
		return -1;
	fm->f[fm->nr].system = system;
	fm->f[fm->nr].text = fm->text[fm->nr].text;
	fm->f[fm->nr].len = fm->text[fm->nr].len;
	fm->nr++;
	return 0;
}

/* Every event of events/@system/ (each subdirectory with a format file). */
static int add_system(struct source_formats *fm, const char *dir, const char *system,
		      char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct dirent *d;
	DIR *dp;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/events/%s", dir, system);
	dp = opendir(path);
	if (!dp) {
		snprintf(err, errlen, "cannot list %s: %s", path,
			 strerror(errno));
		return -1;
	}
	while (!ret && (d = readdir(dp))) {
		char file[PATH_MAX];

		if (d->d_name[0] == '.')
			continue;
		snprintf(file, sizeof(file), "events/%s/%s/format", system,
			 d->d_name);
		if (tracefs_exists(dir, file))
			ret = add_format(fm, dir, system, d->d_name, err,
					 errlen);
	}
	closedir(dp);
	return ret;
}

static int collect_formats(struct source *src, struct source_formats *fm,
			   char *err, size_t errlen)
{
	unsigned int i;

	if (src->system)
		return add_system(fm, src->dir, src->system, err, errlen);
	for (i = 0; i < src->nr_events; i++) {
		char *spec = src->events[i];
		char *colon = strchr(spec, ':');
		int ret;

		if (colon) {
			*colon = '\0';
			ret = add_format(fm, src->dir, spec, colon + 1, err,
					 errlen);
			*colon = ':';
		} else {
			ret = add_system(fm, src->dir, spec, err, errlen);
		}
		if (ret)
			return -1;
	}
	return 0;
}

/* The selected clock out of "local global [boot] ..." */
static void current_clock(const char *dir, char *buf, size_t len)
{
	struct tfs_text t;
	char err[256], *open_b, *close_b;

	buf[0] = '\0';
	if (tracefs_read(dir, "trace_clock", &t, err, sizeof(err)))
		return;
	open_b = strchr(t.text, '[');
	close_b = open_b ? strchr(open_b, ']') : NULL;
	if (close_b && (size_t)(close_b - open_b + 2) <= len)
		snprintf(buf, len, "%.*s", (int)(close_b - open_b + 1), open_b);
	free(t.text);
}

/*
 * "CPU: N" and the CPU's stats file, as trace-cmd keeps them in a trace.dat
 * (and prints them with report --stat): the writer's own counts of lost and
 * dropped events travel with the file. NULL if there is none.
 */
static char *cpu_stats(const struct source *src, unsigned int cpu)
{
	struct tfs_text t;
	char file[64], err[256], *s;

	snprintf(file, sizeof(file), "per_cpu/cpu%u/stats", cpu);
	if (tracefs_read(src->dir, file, &t, err, sizeof(err)))
		return NULL;
	if (asprintf(&s, "CPU: %u\n%s", cpu, t.text) < 0)
		s = NULL;
	free(t.text);
	return s;
}

int source_describe(struct source *src, struct source_meta *m, bool stats,
		 char *err, size_t errlen)
{
	struct td_out *out = &m->out;
	struct utsname un;
	unsigned int i;

	memset(m, 0, sizeof(*m));
	if (tracefs_read(src->dir, "events/header_page", &m->hp, err, errlen) ||
	    tracefs_read(src->dir, "events/header_event", &m->he, err, errlen) ||
	    collect_formats(src, &m->fm, err, errlen))
		goto fail;
	/* The host's events name tasks; the hypervisor's name none */
	if (!src->system && tracefs_exists(src->dir, "saved_cmdlines") &&
	    tracefs_read(src->dir, "saved_cmdlines", &m->cmdlines, err, errlen))
		goto fail;
	current_clock(src->dir, m->clock, sizeof(m->clock));
	if (!uname(&un))
		snprintf(m->uname, sizeof(m->uname), "%s %s %s %s",
			 un.sysname, un.nodename, un.release, un.version);

	for (i = 0; i < src->nr_cpus; i++) {
		m->fds[i] = src->cpu[i].on ? src->cpu[i].tmp_fd : -1;
		if (src->cpu[i].on && stats)
			m->cpustat[i] = cpu_stats(src, i);
	}
	out->header_page = m->hp.text;
	out->header_page_len = m->hp.len;
	out->header_event = m->he.text;
	out->header_event_len = m->he.len;
	out->formats = m->fm.f;
	out->nr_formats = m->fm.nr;
	out->cmdlines = m->cmdlines.text;
	out->cmdlines_len = m->cmdlines.len;
	out->page_size = src->page_size;
	out->nr_cpus = src->nr_cpus;
	out->cpu_fd = m->fds;
	out->trace_clock = m->clock[0] ? m->clock : NULL;
	out->uname = m->uname[0] ? m->uname : NULL;
	out->cpustat = stats ? (const char *const *)m->cpustat : NULL;
	return 0;
fail:
	source_undescribe(m);
	return -1;
}

void source_undescribe(struct source_meta *m)
{
	unsigned int i;

	for (i = 0; i < SOURCE_MAX_CPUS; i++)
		free(m->cpustat[i]);
	for (i = 0; i < m->fm.nr; i++)
		free(m->fm.text[i].text);
	free(m->fm.text);
	free(m->fm.f);
	free(m->hp.text);
	free(m->he.text);
	free(m->cmdlines.text);
	memset(m, 0, sizeof(*m));
}

int source_write(struct source *src, char *err, size_t errlen)
{
	struct source_meta *m = malloc(sizeof(*m));
	int fd, ret = -1;

	if (!m) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (source_describe(src, m, true, err, errlen))
		goto out;
	fd = open(src->output, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "cannot create %s: %s", src->output,
			 strerror(errno));
		goto out_free;
	}
	ret = tracedat_write(fd, &m->out, err, errlen);
	if (close(fd) && !ret) {
		snprintf(err, errlen, "writing %s: %s", src->output,
			 strerror(errno));
		ret = -1;
	}
out_free:
	source_undescribe(m);
out:
	free(m);
	return ret;
}

void source_close(struct source *src, bool keep_tmp)
{
	char path[PATH_MAX];
	unsigned int i;

	for (i = 0; i < src->nr_cpus; i++) {
		struct source_cpu *c = &src->cpu[i];

		if (!c->on)
			continue;
		if (c->raw_fd >= 0)
			close(c->raw_fd);
		if (c->tmp_fd >= 0)
			close(c->tmp_fd);
		if (c->pipe[0] >= 0)
			close(c->pipe[0]);
		if (c->pipe[1] >= 0)
			close(c->pipe[1]);
		c->raw_fd = c->tmp_fd = c->pipe[0] = c->pipe[1] = -1;
		if (!keep_tmp && source_keeps_file(src)) {
			tmp_path(src, i, path, sizeof(path));
			unlink(path);
		}
	}
}
