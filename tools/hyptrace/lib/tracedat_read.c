// SPDX-License-Identifier: GPL-2.0
/*
 * Opening a trace.dat, version 6: the metadata, up to the flyrecord CPU
 * table and the clock (tracedat_next.c then reads the records).
 *
 * The file is mapped (or given in memory) and read through a cursor that
 * checks every length against what is left, so a truncated or edited file
 * gives a one-line reason, never a read outside it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hyptrace/compiler.h"
#include "hyptrace/errmsg.h"
#include "hyptrace/format.h"
#include "hyptrace/tracedat.h"
#include "tracedat_file.h"
#include "tracedat_v6.h"

/* A bounds-checked reader over the file; @what names the part being read */
struct cur {
	const uint8_t *p;
	size_t len, pos;
	const char *what;
	char *err;
	size_t errlen;
};

static int take(struct cur *c, uint64_t n, const uint8_t **out)
{
	*out = c->p;	/* never used on failure; keeps gcc quiet */
	if (n > c->len - c->pos)
		return errmsg(c->err, c->errlen,
			    "truncated in the %s at byte %zu (%llu bytes more needed, %zu left)",
			    c->what, c->pos, (unsigned long long)n,
			    c->len - c->pos);
	*out = c->p + c->pos;
	c->pos += n;
	return 0;
}

static int get_n(struct cur *c, void *v, size_t n)
{
	const uint8_t *p;

	if (take(c, n, &p))
		return -1;
	memcpy(v, p, n);	/* little-endian on file and here */
	return 0;
}

static int get16(struct cur *c, uint16_t *v)
{
	return get_n(c, v, sizeof(*v));
}

static int get32(struct cur *c, uint32_t *v)
{
	return get_n(c, v, sizeof(*v));
}

static int get64(struct cur *c, uint64_t *v)
{
	return get_n(c, v, sizeof(*v));
}

/* A NUL-terminated string, at most @max bytes with the NUL */
static int get_str(struct cur *c, size_t max, const char **s)
{
	size_t left = c->len - c->pos;
	const uint8_t *nul = memchr(c->p + c->pos, '\0',
				    left < max ? left : max);

	if (!nul)
		return errmsg(c->err, c->errlen, "%s in the %s at byte %zu",
			    left < max ? "truncated" : "overlong string",
			    c->what, c->pos);
	*s = (const char *)c->p + c->pos;
	c->pos = nul + 1 - c->p;
	return 0;
}

static int expect_tag(struct cur *c, const char *tag)
{
	const uint8_t *p;

	if (take(c, strlen(tag) + 1, &p))
		return -1;
	if (memcmp(p, tag, strlen(tag) + 1))
		return errmsg(c->err, c->errlen, "no '%s' at byte %zu", tag,
			    c->pos - strlen(tag) - 1);
	return 0;
}

/*
 * header_page: the page header must be the 64-bit kernel's (u64
 * time_stamp at 0, long commit at 8, data at 16), the one page.c walks. An
 * empty text means that layout too, to trace-cmd.
 */
static int check_header_page(const uint8_t *text, uint64_t len, char *err,
			     size_t errlen)
{
	static const struct {
		const char *name;
		unsigned long offset, size;
	} want[] = {
		{ " timestamp;", 0, 8 },
		{ " commit;", 8, 8 },
		{ " data;", 16, 0 },
	};
	char buf[1024];
	size_t i;

	if (!len)
		return 0;
	if (len >= sizeof(buf) || memchr(text, '\0', len))
		return errmsg(err, errlen, "header_page is not a page header");
	memcpy(buf, text, len);
	buf[len] = '\0';
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		const char *f = strstr(buf, want[i].name);
		unsigned long off, size;

		if (!f || sscanf(f + strlen(want[i].name),
				 " offset:%lu; size:%lu;", &off, &size) != 2)
			return errmsg(err, errlen, "header_page has no%s field",
				    want[i].name);
		if (off != want[i].offset ||
		    (want[i].size && size != want[i].size))
			return errmsg(err, errlen,
				    "page header field%s at %lu size %lu: only 64-bit kernel pages are supported",
				    want[i].name, off, size);
	}
	return 0;
}

static int add_event(struct td_file *td, struct fmt_event *fe)
{
	void *p;

	if (!(td->nr_events & (td->nr_events - 1))) {
		p = realloc(td->events, (td->nr_events ? 2 * td->nr_events : 8) *
			    sizeof(*td->events));
		if (!p) {
			format_free(fe);
			return errmsg(td->err, sizeof(td->err), "out of memory");
		}
		td->events = p;
	}
	td->events[td->nr_events++] = fe;
	return 0;
}

/* @count format files of @system, each a u64 size and the text */
static int read_formats(struct td_file *td, struct cur *c,
			const char *system, uint32_t count)
{
	uint32_t i;

	for (i = 0; i < count; i++) {
		struct fmt_event *fe;
		const uint8_t *text;
		uint64_t len;

		if (get64(c, &len) || take(c, len, &text))
			return -1;
		fe = format_parse(system, (const char *)text, len, td->err,
			       sizeof(td->err));
		if (!fe || add_event(td, fe))
			return -1;
	}
	return 0;
}

static int read_events(struct td_file *td, struct cur *c)
{
	uint32_t count, systems, i;
	const char *system;

	c->what = "ftrace event formats";
	if (get32(c, &count) || read_formats(td, c, "ftrace", count))
		return -1;
	c->what = "event formats";
	if (get32(c, &systems))
		return -1;
	for (i = 0; i < systems; i++) {
		if (get_str(c, 256, &system) || get32(c, &count))
			return -1;
		if (!*system)
			return errmsg(td->err, sizeof(td->err),
				    "an event system without a name");
		if (read_formats(td, c, system, count))
			return -1;
	}
	return 0;
}

static int cmp_events(const void *a, const void *b)
{
	const struct fmt_event *x = *(const struct fmt_event *const *)a;
	const struct fmt_event *y = *(const struct fmt_event *const *)b;

	return (int)x->ev.id - (int)y->ev.id;
}

static int sort_events(struct td_file *td)
{
	unsigned int i;

	if (td->nr_events > 1)
		qsort(td->events, td->nr_events, sizeof(*td->events),
		      cmp_events);
	for (i = 1; i < td->nr_events; i++) {
		if (td->events[i]->ev.id == td->events[i - 1]->ev.id)
			return errmsg(td->err, sizeof(td->err),
				    "events %s and %s share ID %u",
				    td->events[i - 1]->ev.name,
				    td->events[i]->ev.name,
				    td->events[i]->ev.id);
	}
	return 0;
}

/* kallsyms, printk formats and saved cmdlines: not needed, skipped */
static int skip_texts(struct cur *c)
{
	const uint8_t *p;
	uint32_t len32;
	uint64_t len;

	c->what = "kallsyms";
	if (get32(c, &len32) || take(c, len32, &p))
		return -1;
	c->what = "printk formats";
	if (get32(c, &len32) || take(c, len32, &p))
		return -1;
	c->what = "saved cmdlines";
	if (get64(c, &len) || take(c, len, &p))
		return -1;
	return 0;
}

/*
 * The clock text as the trace_clock file shows it: the name in brackets
 * is the clock in use ("local [boot] mono" gives "boot"); NULL if empty.
 */
static int set_clock(struct td_file *td, const uint8_t *p, uint64_t len)
{
	const char *open, *close;

	if (len > 4096 || memchr(p, '\0', len))
		return errmsg(td->err, sizeof(td->err), "bad trace clock text");
	free(td->clock);
	td->clock = strndup((const char *)p, len);
	if (!td->clock)
		return errmsg(td->err, sizeof(td->err), "out of memory");
	open = strchr(td->clock, '[');
	close = open ? strchr(open, ']') : NULL;
	if (open && close) {
		memmove(td->clock, open + 1, close - open - 1);
		td->clock[close - open - 1] = '\0';
	}
	/* no brackets: the text itself, without the newline */
	td->clock[strcspn(td->clock, "\n")] = '\0';
	if (!*td->clock) {
		free(td->clock);
		td->clock = NULL;
	}
	return 0;
}

/*
 * A TRACECLOCK option with text (ours: the recorder's own trace_clock)
 * names the clock. trace-cmd writes the option empty and the text after
 * the flyrecord table; and `trace-cmd listen` writes its own machine's
 * clock there when it assembles a file that came over the network, so
 * the option's text, when there is one, is the one to believe.
 */
static int read_clock_option(struct td_file *td, const uint8_t *p,
			     uint32_t size)
{
	while (size && !p[size - 1])
		size--;
	return size ? set_clock(td, p, size) : 0;
}

/*
 * OFFSET (ns) and DATE (us, written by trace-cmd record --date): numbers
 * in text that trace-cmd report adds to every timestamp; so do we.
 */
static int read_offset_option(struct td_file *td, uint16_t id,
			      const uint8_t *p, uint32_t size)
{
	char text[32], *end;
	long long v;

	while (size && !p[size - 1])
		size--;
	if (!size || size >= sizeof(text))
		return errmsg(td->err, sizeof(td->err),
			    "option %s: %u bytes, no number",
			    id == TD_OPT_OFFSET ? "OFFSET" : "DATE", size);
	memcpy(text, p, size);
	text[size] = '\0';
	errno = 0;
	v = strtoll(text, &end, 0);
	if (errno || end == text || *end ||
	    (id == TD_OPT_DATE && (v > INT64_MAX / 1000 ||
				   v < INT64_MIN / 1000)))
		return errmsg(td->err, sizeof(td->err),
			    "option %s: '%s' is not a time offset",
			    id == TD_OPT_OFFSET ? "OFFSET" : "DATE", text);
	/* several options add up, and a file may hold any number */
	if (__builtin_add_overflow(td->ts_offset,
				   id == TD_OPT_DATE ? v * 1000 : v,
				   &td->ts_offset))
		return errmsg(td->err, sizeof(td->err),
			    "options OFFSET and DATE add up to more than 64 bits of ns");
	return 0;
}

/* The options; *@clock set if one is TRACECLOCK */
static int read_options(struct td_file *td, struct cur *c, int *clock)
{
	const uint8_t *p;
	uint16_t id;
	uint32_t size;

	c->what = "options";
	for (;;) {
		if (get16(c, &id))
			return -1;
		if (id == TD_OPT_DONE)
			return 0;
		if (get32(c, &size) || take(c, size, &p))
			return -1;
		if (id == TD_OPT_BUFFER || id == TD_OPT_BUFFER_TEXT)
			return errmsg(td->err, sizeof(td->err),
				    "the file has instance buffers (trace-cmd record -B): only the top buffer is supported");
		if (id == TD_OPT_TRACECLOCK && read_clock_option(td, p, size))
			return -1;
		if (id == TD_OPT_TRACECLOCK)
			*clock = 1;
		if ((id == TD_OPT_OFFSET || id == TD_OPT_DATE) &&
		    read_offset_option(td, id, p, size))
			return -1;
		/* applied as trace-cmd does: mult and shift, not offset */
		if (id == TD_OPT_TSC2NSEC && size >= 16) {
			memcpy(&td->tsc_mult, p, 4);
			memcpy(&td->tsc_shift, p + 4, 4);
			if (td->tsc_shift > 63)
				return errmsg(td->err, sizeof(td->err),
					    "TSC2NSEC shift %u is impossible",
					    td->tsc_shift);
		}
	}
}

/* The clock text after the flyrecord table, unless an option named it */
static int read_clock(struct td_file *td, struct cur *c)
{
	const uint8_t *p;
	uint64_t len;

	if (td->clock)
		return 0;
	c->what = "trace clock";
	if (get64(c, &len) || take(c, len, &p))
		return -1;
	return set_clock(td, p, len);
}

static int read_cpus(struct td_file *td, struct cur *c)
{
	unsigned int i;

	c->what = "flyrecord CPU table";
	td->cpus = calloc(td->nr_cpus ? td->nr_cpus : 1, sizeof(*td->cpus));
	if (!td->cpus)
		return errmsg(td->err, sizeof(td->err), "out of memory");
	for (i = 0; i < td->nr_cpus; i++) {
		struct td_cpu *cpu = &td->cpus[i];

		if (get64(c, &cpu->off) || get64(c, &cpu->size))
			return -1;
		if (!cpu->size)
			continue;
		if (cpu->off > td->size || cpu->size > td->size - cpu->off)
			return errmsg(td->err, sizeof(td->err),
				    "truncated: CPU %u's data ends at byte %llu, the file at %zu",
				    i, (unsigned long long)(cpu->off +
							    cpu->size),
				    td->size);
		if (cpu->size % td->page_size)
			return errmsg(td->err, sizeof(td->err),
				    "CPU %u's data is not whole %u-byte pages",
				    i, td->page_size);
	}
	return 0;
}

static int read_start(struct td_file *td, struct cur *c)
{
	const uint8_t *p;
	const char *version;
	uint32_t page_size;

	c->what = "file header";
	if (c->len < TD_MAGIC_LEN || memcmp(c->p, TD_MAGIC, TD_MAGIC_LEN))
		return errmsg(td->err, sizeof(td->err),
			    "not a trace.dat (no trace-cmd magic)");
	c->pos = TD_MAGIC_LEN;
	if (get_str(c, 16, &version))
		return -1;
	if (strcmp(version, TD_VERSION))
		return errmsg(td->err, sizeof(td->err),
			    "trace.dat version %s is not supported, only 6 (trace-cmd convert --file-version 6 converts)",
			    version);
	if (take(c, 2, &p))
		return -1;
	if (p[0])
		return errmsg(td->err, sizeof(td->err),
			    "big-endian trace.dat files are not supported");
	if (get32(c, &page_size))
		return -1;
	if (page_size < TD_MIN_PAGE_SIZE || page_size > TD_MAX_PAGE_SIZE ||
	    (page_size & (page_size - 1)))
		return errmsg(td->err, sizeof(td->err),
			    "page size %u is not supported", page_size);
	td->page_size = page_size;
	return 0;
}

static int read_headers(struct td_file *td, struct cur *c)
{
	const uint8_t *p;
	uint64_t len;

	c->what = "header_page";
	if (expect_tag(c, TD_TAG_HEADER_PAGE) || get64(c, &len) ||
	    take(c, len, &p) ||
	    check_header_page(p, len, td->err, sizeof(td->err)))
		return -1;
	c->what = "header_event";
	if (expect_tag(c, TD_TAG_HEADER_EVENT) || get64(c, &len) ||
	    take(c, len, &p))
		return -1;
	return 0;
}

static int td_parse(struct td_file *td)
{
	struct cur c = {
		.p = td->data, .len = td->size,
		.err = td->err, .errlen = sizeof(td->err),
	};
	const uint8_t *tag;
	uint32_t nr_cpus;
	int clock = 0;

	if (read_start(td, &c) || read_headers(td, &c) ||
	    read_events(td, &c) || sort_events(td) || skip_texts(&c))
		return -1;
	c.what = "CPU count";
	if (get32(&c, &nr_cpus))
		return -1;
	if (nr_cpus > TD_MAX_CPUS)
		return errmsg(td->err, sizeof(td->err),
			    "%u CPUs is not supported", nr_cpus);
	td->nr_cpus = nr_cpus;
	if (take(&c, TD_TAG_LEN, &tag))
		return -1;
	if (!memcmp(tag, TD_TAG_OPTIONS, TD_TAG_LEN)) {
		if (read_options(td, &c, &clock))
			return -1;
		c.what = "data type";
		if (take(&c, TD_TAG_LEN, &tag))
			return -1;
	}
	if (!memcmp(tag, TD_TAG_LATENCY, TD_TAG_LEN))
		return errmsg(td->err, sizeof(td->err),
			    "a latency (text) trace.dat: no ring-buffer data");
	if (memcmp(tag, TD_TAG_FLYRECORD, TD_TAG_LEN))
		return errmsg(td->err, sizeof(td->err),
			    "no flyrecord data at byte %zu", c.pos - TD_TAG_LEN);
	if (read_cpus(td, &c))
		return -1;
	return clock ? read_clock(td, &c) : 0;
}

static struct td_file *td_new(const void *buf, size_t len)
{
	struct td_file *td = calloc(1, sizeof(*td));

	if (td) {
		td->data = buf;
		td->size = len;
	}
	return td;
}

static struct td_file *td_finish(struct td_file *td, const char *path,
				 char *err, size_t errlen)
{
	if (!td_parse(td))
		return td;
	errmsg(err, errlen, "%s%s%s", path ? path : "", path ? ": " : "",
	     td->err);
	tracedat_close(td);
	return NULL;
}

struct td_file *tracedat_open_mem(const void *buf, size_t len, char *err,
			    size_t errlen)
{
	struct td_file *td = td_new(buf, len);

	if (!td) {
		errmsg(err, errlen, "out of memory");
		return NULL;
	}
	if (!len) {
		errmsg(err, errlen, "empty file: not a trace.dat");
		tracedat_close(td);
		return NULL;
	}
	return td_finish(td, NULL, err, errlen);
}

struct td_file *tracedat_open(const char *path, char *err, size_t errlen)
{
	struct td_file *td;
	struct stat st;
	void *map;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		errmsg(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st)) {
		errmsg(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		errmsg(err, errlen, "%s: %s", path,
		     S_ISDIR(st.st_mode) ? strerror(EISDIR) :
		     "not a regular file");
		close(fd);
		return NULL;
	}
	if (!st.st_size) {
		errmsg(err, errlen, "%s: empty file, not a trace.dat", path);
		close(fd);
		return NULL;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		errmsg(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	td = td_new(map, st.st_size);
	if (!td) {
		munmap(map, st.st_size);
		errmsg(err, errlen, "out of memory");
		return NULL;
	}
	td->mapped = 1;
	td->map_page = (size_t)sysconf(_SC_PAGESIZE);
	return td_finish(td, path, err, errlen);
}

void tracedat_close(struct td_file *td)
{
	unsigned int i;

	if (!td)
		return;
	for (i = 0; i < td->nr_events; i++)
		format_free(td->events[i]);
	free(td->events);
	free(td->cpus);
	free(td->clock);
	if (td->mapped)
		munmap((void *)td->data, td->size);
	free(td);
}

unsigned int tracedat_nr_cpus(const struct td_file *td)
{
	return td->nr_cpus;
}

unsigned int tracedat_page_size(const struct td_file *td)
{
	return td->page_size;
}

const char *tracedat_trace_clock(const struct td_file *td)
{
	return td->clock;
}

const char *tracedat_error(const struct td_file *td)
{
	return td->failed ? td->err : NULL;
}

const struct td_event *tracedat_event_by_id(const struct td_file *td, uint16_t id)
{
	unsigned int lo = 0, hi = td->nr_events;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		uint16_t got = td->events[mid]->ev.id;

		if (got == id)
			return &td->events[mid]->ev;
		if (got < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct td_event *tracedat_event_by_name(const struct td_file *td,
					const char *system, const char *name)
{
	unsigned int i;

	for (i = 0; i < td->nr_events; i++) {
		const struct td_event *ev = &td->events[i]->ev;

		if ((!system || !strcmp(ev->system, system)) &&
		    !strcmp(ev->name, name))
			return ev;
	}
	return NULL;
}
