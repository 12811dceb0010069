// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat_write(): a trace.dat, version 6, from the tracefs text files and each
 * CPU's raw ring-buffer pages.
 *
 * Everything up to the flyrecord CPU table is built in memory (it is the
 * size of the text files), written, then each CPU's pages are copied in
 * page-aligned blocks and the table is filled in with their offsets and
 * sizes once they are known, so the per-CPU inputs can be streams of any
 * length.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hyptrace/compiler.h"
#include "hyptrace/errmsg.h"
#include "hyptrace/tracedat.h"
#include "hyptrace/version.h"
#include "tracedat_v6.h"
#include "hyptrace/fdio.h"

#define COPY_CHUNK	(256U * 1024)

/* A growing buffer of the file's first bytes */
struct td_buf {
	char *p;
	size_t len, cap;
	int oom;
};

static void put(struct td_buf *b, const void *data, size_t len)
{
	if (b->oom)
		return;
	if (b->len + len > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *p;

		while (cap < b->len + len)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->oom = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, len);
	b->len += len;
}

/* Numbers are little-endian on file, as on every host we build for */
static void put16(struct td_buf *b, uint16_t v)
{
	put(b, &v, sizeof(v));
}

static void put32(struct td_buf *b, uint32_t v)
{
	put(b, &v, sizeof(v));
}

static void put64(struct td_buf *b, uint64_t v)
{
	put(b, &v, sizeof(v));
}

static void put_str(struct td_buf *b, const char *s)
{
	put(b, s, strlen(s) + 1);
}

/*
 * The clock. The TRACECLOCK option keeps the text as given ("[boot]" from
 * remotes/hypervisor/trace_clock), so every reader learns the true clock.
 * But trace-cmd report (3.1.6, and 3.4 alike: trace-input.c
 * extract_trace_clock) prints timestamps as seconds.microseconds only for
 * the clocks it knows count nanoseconds (local, global, uptime, perf,
 * mono*, tai) or when a TSC2NSEC option gives a conversion to ns; for
 * "[boot]" it prints the raw number. Tried on 3.1.6: no TRACECLOCK option,
 * or "[mono]", gives secs.usecs but loses or misstates the clock; "[boot]"
 * alone gives raw ns; "[boot]" with TSC2NSEC mult 1, shift 0, offset 0
 * gives secs.usecs and keeps "[boot]". That conversion is the truth (boot
 * counts ns already), so it is what we write when the clock is boot.
 */
static int td_clock_is_boot(const char *text)
{
	return strstr(text, "[boot]") != NULL;
}

/*
 * Tasks for the hypervisor's events. KernelShark draws a CPU's row from
 * each record's task, libtraceevent's tep_data_pid() (the common_pid
 * field), and draws nothing at all for pid -1, its "empty bin" (2.2.1
 * KsPlotTools.cpp Graph::fillCPUGraph() and Graph::draw()); trace-cmd
 * prints "<...>-1" and a latency column of -1s ("dNHffffffff"). But a
 * trace_remote event has common_type alone (kernel/trace/trace_remote.c
 * prints its format). So a format without common_pid gets three more
 * common fields here, each an alias of bytes every record has, because
 * readers look common fields up once, in the event with the lowest id
 * (libtraceevent's get_common_info()), and read them at that offset in
 * every record:
 *   common_flags, common_preempt_count: offset 1, common_type's high
 *	byte, 0 while event ids stay below 256 (shared/hyp_events.h): no
 *	flags, no preemption, which is EL2's truth;
 *   common_pid: offset 0, common_type itself, so each event is a task of
 *	its own, named in the saved cmdlines (pidless_cmdlines()) after
 *	where the CPU is once the event is written.
 * KernelShark then colours the time after a hyp_enter, up to the
 * hyp_exit, as task "el2". The records themselves are not touched.
 */
static const char pidless_common[] =
	"\tfield:unsigned char common_flags;\toffset:1;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:1;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned short common_pid;\toffset:0;\tsize:2;\tsigned:0;\n";

/*
 * Where the common_type line of @f ends, when its common fields (those
 * before the first blank line) lack common_pid; NULL otherwise.
 */
static const char *pidless_type_end(const struct td_out_format *f)
{
	const char *end = f->text + f->len, *type, *eol, *blank;

	type = memmem(f->text, f->len, "common_type;", 12);
	if (!type)
		return NULL;
	eol = memchr(type, '\n', end - type);
	if (!eol)
		return NULL;
	blank = memmem(eol, end - eol, "\n\n", 2);
	if (!blank || memmem(f->text, blank - f->text, "common_pid;", 11))
		return NULL;
	return eol + 1;
}

/* @f as tracefs printed it, with the common fields above if it lacks them */
static void put_format(struct td_buf *b, const struct td_out_format *f)
{
	const char *cut = pidless_type_end(f);
	size_t head = cut ? (size_t)(cut - f->text) : f->len;
	size_t extra = cut ? sizeof(pidless_common) - 1 : 0;

	put64(b, f->len + extra);
	put(b, f->text, head);
	put(b, pidless_common, extra);
	put(b, f->text + head, f->len - head);
}

/*
 * The saved cmdlines naming those tasks, "ID el2\n" per event (the CPU is
 * in EL2 while it writes any of them) but "ID el1/el3\n" for hyp_exit,
 * after which it is back in Linux, or in firmware for reason=firmware.
 */
static void pidless_cmdlines(struct td_buf *cl, const struct td_out *out)
{
	unsigned int i;

	for (i = 0; i < out->nr_formats; i++) {
		const struct td_out_format *f = &out->formats[i];
		const char *cut = pidless_type_end(f), *id;
		char line[32];

		if (!cut)
			continue;
		id = memmem(f->text, cut - f->text, "\nID: ", 5);
		if (!id)
			continue;
		/* digits, then the newline before "format:", all before @cut */
		snprintf(line, sizeof(line), "%lu %s\n", strtoul(id + 5, NULL, 10),
			 f->len > 15 && !memcmp(f->text, "name: hyp_exit\n", 15) ?
			 "el1/el3" : "el2");
		put(cl, line, strlen(line));
	}
}

/* Events grouped by system, in the order each system first appears */
static int put_systems(struct td_buf *b, const struct td_out *out,
		       char *err, size_t errlen)
{
	unsigned int i, j, nr_systems = 0;
	unsigned char *done = calloc(out->nr_formats + 1, 1);

	if (!done)
		return errmsg(err, errlen, "out of memory");
	for (i = 0; i < out->nr_formats; i++) {
		for (j = 0; j < i; j++) {
			if (!strcmp(out->formats[i].system,
				    out->formats[j].system))
				break;
		}
		nr_systems += j == i;
	}
	put32(b, nr_systems);
	for (i = 0; i < out->nr_formats; i++) {
		uint32_t count = 0;

		if (done[i])
			continue;
		for (j = i; j < out->nr_formats; j++)
			count += !strcmp(out->formats[i].system,
					 out->formats[j].system);
		put_str(b, out->formats[i].system);
		put32(b, count);
		for (j = i; j < out->nr_formats; j++) {
			if (strcmp(out->formats[i].system,
				   out->formats[j].system))
				continue;
			done[j] = 1;
			put_format(b, &out->formats[j]);
		}
	}
	free(done);
	return 0;
}

static void put_option(struct td_buf *b, uint16_t id, const char *text)
{
	put16(b, id);
	put32(b, strlen(text) + 1);
	put_str(b, text);
}

/* The metadata: everything before the flyrecord section */
static int build_meta(struct td_buf *b, const struct td_out *out,
		      char *err, size_t errlen)
{
	const char *clock = out->trace_clock;
	unsigned int i;

	put(b, TD_MAGIC, TD_MAGIC_LEN);
	put_str(b, TD_VERSION);
	put(b, "\0\x08", 2);		/* little-endian, 8-byte long */
	put32(b, out->page_size);

	put_str(b, TD_TAG_HEADER_PAGE);
	put64(b, out->header_page_len);
	put(b, out->header_page, out->header_page_len);
	put_str(b, TD_TAG_HEADER_EVENT);
	put64(b, out->header_event_len);
	put(b, out->header_event, out->header_event_len);

	put32(b, 0);			/* no ftrace (plugin) event formats */
	if (put_systems(b, out, err, errlen))
		return -1;
	put32(b, out->kallsyms ? out->kallsyms_len : 0);
	if (out->kallsyms)
		put(b, out->kallsyms, out->kallsyms_len);
	put32(b, out->printk_formats ? out->printk_formats_len : 0);
	if (out->printk_formats)
		put(b, out->printk_formats, out->printk_formats_len);
	if (out->cmdlines) {
		put64(b, out->cmdlines_len);
		put(b, out->cmdlines, out->cmdlines_len);
	} else {
		struct td_buf cl = { 0 };

		pidless_cmdlines(&cl, out);
		b->oom |= cl.oom;
		put64(b, cl.len);
		if (cl.len)
			put(b, cl.p, cl.len);
		free(cl.p);
	}
	put32(b, out->nr_cpus);

	/* Always: the VERSION option says which tool wrote the file */
	put(b, TD_TAG_OPTIONS, TD_TAG_LEN);
	put_option(b, TD_OPT_VERSION, ht_version());
	for (i = 0; out->cpustat && i < out->nr_cpus; i++) {
		if (out->cpustat[i])
			put_option(b, TD_OPT_CPUSTAT, out->cpustat[i]);
	}
	if (clock)
		put_option(b, TD_OPT_TRACECLOCK, clock);
	if (clock && td_clock_is_boot(clock)) {
		put16(b, TD_OPT_TSC2NSEC);
		put32(b, 16);
		put32(b, 1);	/* mult */
		put32(b, 0);	/* shift */
		put64(b, 0);	/* offset */
	}
	if (out->uname)
		put_option(b, TD_OPT_UNAME, out->uname);
	if (out->ts_offset)
		put_option(b, TD_OPT_OFFSET, out->ts_offset);
	put16(b, TD_OPT_DONE);
	if (b->oom)
		return errmsg(err, errlen, "out of memory");
	return 0;
}

/* The metadata, then the (zeroed) flyrecord CPU table and the clock */
static int build_header(struct td_buf *b, const struct td_out *out,
			size_t *table, char *err, size_t errlen)
{
	const char *clock = out->trace_clock;
	unsigned int i;

	if (build_meta(b, out, err, errlen))
		return -1;
	put(b, TD_TAG_FLYRECORD, TD_TAG_LEN);
	*table = b->len;
	for (i = 0; i < out->nr_cpus; i++) {
		put64(b, 0);
		put64(b, 0);
	}
	/* the reader wants the clock again after the table (save_clock) */
	if (clock) {
		put64(b, strlen(clock));
		put(b, clock, strlen(clock));
	}
	if (b->oom)
		return errmsg(err, errlen, "out of memory");
	return 0;
}


/* Fill @buf from @fd at @off; short only at the end of the input */
static ssize_t read_full(int fd, char *buf, size_t len, off_t off)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(fd, buf + got, len - got, off + got);

		if (n < 0 && errno == ESPIPE)
			n = read(fd, buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += n;
	}
	return got;
}

/* Copy CPU @cpu's pages to @off of @fd; their size in *@size */
static int copy_cpu(int fd, off_t off, const struct td_out *out,
		    unsigned int cpu, char *buf, uint64_t *size, char *err,
		    size_t errlen)
{
	int in = out->cpu_fd[cpu];
	size_t chunk = COPY_CHUNK - COPY_CHUNK % out->page_size;
	uint64_t done = 0;
	ssize_t n;

	if (chunk < out->page_size)
		chunk = out->page_size;
	*size = 0;
	if (in < 0)
		return 0;
	do {
		n = read_full(in, buf, chunk, done);
		if (n < 0)
			return errmsg(err, errlen, "reading CPU %u's pages: %s",
				    cpu, strerror(errno));
		if (n % out->page_size)
			return errmsg(err, errlen,
				    "CPU %u's data is not whole %u-byte pages",
				    cpu, out->page_size);
		if (n && fdio_write_all(fd, buf, n, off + done))
			return errmsg(err, errlen, "writing the trace.dat: %s",
				    strerror(errno ? errno : ENOSPC));
		done += n;
	} while ((size_t)n == chunk);
	*size = done;
	return 0;
}

static int check_out(const struct td_out *out, char *err, size_t errlen)
{
	unsigned int i;

	if (out->page_size < TD_MIN_PAGE_SIZE ||
	    out->page_size > TD_MAX_PAGE_SIZE ||
	    (out->page_size & (out->page_size - 1)))
		return errmsg(err, errlen, "page size %u is not supported",
			    out->page_size);
	if (!out->nr_cpus || out->nr_cpus > TD_MAX_CPUS)
		return errmsg(err, errlen, "%u CPUs is not supported",
			    out->nr_cpus);
	if (!out->header_page || !out->header_event ||
	    (out->nr_formats && !out->formats))
		return errmsg(err, errlen, "incomplete trace description");
	for (i = 0; i < out->nr_formats; i++) {
		if (!out->formats[i].system || !out->formats[i].text ||
		    !*out->formats[i].system)
			return errmsg(err, errlen, "event format %u is empty", i);
	}
	return 0;
}

int tracedat_meta(const struct td_out *out, char **meta, size_t *len, char *err,
	    size_t errlen)
{
	struct td_buf b = { 0 };

	if (check_out(out, err, errlen) || build_meta(&b, out, err, errlen)) {
		free(b.p);
		return -1;
	}
	*meta = b.p;
	*len = b.len;
	return 0;
}

int tracedat_write(int fd, const struct td_out *out, char *err, size_t errlen)
{
	struct td_buf b = { 0 };
	uint64_t *table = NULL, size;
	size_t table_off;
	char *buf = NULL;
	off_t off;
	unsigned int i;
	int ret = -1;

	if (check_out(out, err, errlen))
		return -1;
	if (!out->cpu_fd)
		return errmsg(err, errlen, "incomplete trace description");
	if (build_header(&b, out, &table_off, err, errlen))
		goto out;
	table = calloc(out->nr_cpus, 2 * sizeof(*table));
	buf = malloc(out->page_size < COPY_CHUNK ? COPY_CHUNK : out->page_size);
	if (!table || !buf) {
		errmsg(err, errlen, "out of memory");
		goto out;
	}
	if (fdio_write_all(fd, b.p, b.len, 0)) {
		errmsg(err, errlen, "writing the trace.dat: %s",
		     strerror(errno ? errno : ENOSPC));
		goto out;
	}
	/* each CPU's data starts on a page boundary of the file */
	off = (b.len + out->page_size - 1) / out->page_size * out->page_size;
	for (i = 0; i < out->nr_cpus; i++) {
		if (copy_cpu(fd, off, out, i, buf, &size, err, errlen))
			goto out;
		table[2 * i] = off;
		table[2 * i + 1] = size;
		off += size;
	}
	if (fdio_write_all(fd, table, out->nr_cpus * 2 * sizeof(*table),
		      table_off)) {
		errmsg(err, errlen, "writing the trace.dat: %s",
		     strerror(errno ? errno : ENOSPC));
		goto out;
	}
	/* the gap before the first CPU's data, if no CPU had any */
	if (ftruncate(fd, off) && errno != EINVAL) {
		errmsg(err, errlen, "writing the trace.dat: %s", strerror(errno));
		goto out;
	}
	ret = 0;
out:
	free(b.p);
	free(table);
	free(buf);
	return ret;
}
