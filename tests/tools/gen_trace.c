// SPDX-License-Identifier: GPL-2.0
/*
 * gen_trace: write a trace.dat holding a known set of hypervisor events,
 * for the hyptrace tool's tests (report, stats, perfetto).
 *
 *   gen_trace [OPTIONS] OUT.dat
 *
 *   --cpus N          CPUs (default 2)
 *   --pairs N         hyp_enter/hyp_exit pairs per CPU (default 500)
 *   --selftests N     selftest events per CPU, spread among the pairs
 *                     (default 2)
 *   --pages N         ring-buffer pages per CPU, the reader page included
 *                     (default 64; at least 3). Few pages and few drains
 *                     lose events: the writer overwrites its oldest page.
 *   --drain-every N   take the full pages out of the ring after every N
 *                     events of a CPU, as a reader polling would (default
 *                     0: only once, after the last event)
 *   --gaps N          one gap in N between events is 0.2 to 2 s, longer
 *                     than 2^27 ns, so that the writer needs a time extend
 *                     (default 20; 0 for none)
 *   --idle-cpu N      CPU N writes nothing: no data for it in the file
 *   --start NS        the first timestamp, ns (default 5000000000); every
 *                     CPU's first event has it, so CPUs tie there
 *   --seed N          random seed (default 1)
 *   --clock TEXT      the TRACECLOCK text (default "[boot]"), "" for none
 *   --events-dir DIR  take header_page, header_event and <event>.format
 *                     from DIR (e.g. fixtures captured in a guest) instead
 *                     of generating them from shared/hyp_events.h
 *   --dump-events DIR write the generated ones to DIR, and nothing else
 *   --expect FILE     write the exact output 'hyptrace report' must give
 *   --expect-ns FILE  the same with the full timestamps: "   5.000007265:"
 *   --summary FILE    write the counts described below
 *   --send HOST:PORT  also send the trace to `trace-cmd listen -p PORT`
 *                     with lib/tcnet.c, as `hyptrace record -N` would
 *   --send-pace MS    wait MS ms between rounds of pages sent (default 0)
 *   -h, --help
 *
 * Events are written with the real writer (shared/ring_buffer.c), pages
 * taken out with rb_swap_reader() as the kernel's reader does, given the
 * lost-event marks the kernel's reader puts on a page it hands out
 * (commit bit 31, and bit 30 with the count after the data when it fits),
 * and written with tracedat_write(). What the file holds is then decoded again
 * with libtraceevent's kbuffer (trace-cmd's own page reader), and checked
 * against what was written: every event decoded is one written, with its
 * timestamp and payload, in order, and the events missing between two
 * decoded ones are exactly those the page marks say were lost. The
 * expected output and counts come from that decoding.
 *
 * Event model, per CPU: a hyp_enter at t, its hyp_exit 100 ns to 5 us
 * later with the same reason and func_id, then a gap of 1 to 200 us (or a
 * long one, --gaps) to the next pair. Reasons are mostly hvc, then smc,
 * psci, firmware, trap, and now and then 9, which has no name (printed
 * 0x9). ret is 0, -1 or a large value. selftest ids are 1000 * cpu + n.
 *
 * The summary file has one "key value" per line:
 *   cpus N
 *   cpu C written N      events the writer took on CPU C
 *   cpu C events N       events of CPU C in the file
 *   cpu C lost N         events lost on CPU C, as the pages say (counted
 *                        from the written events where a page says only
 *                        that some were lost)
 *   cpu C lost_marks N   "CPU:C [LOST ...]" lines report will print
 *   cpu C hyp_enter N    and hyp_exit, selftest: events in the file
 *   cpu C el2_ns N       sum of exit.ts - enter.ts over the pairs whose
 *                        hyp_enter and hyp_exit are both in the file
 *   cpu C pairs N        how many such pairs
 *   cpu C extends N      gaps longer than 2^27 ns between events in the
 *                        file (each needed a time extend)
 *   cpu C first_ts N     and last_ts: of the events in the file
 *   reason R pairs N     over all CPUs, by the hyp_enter's reason name
 *   reason R el2_ns N
 *   total events N, total lost N, total pairs N, total el2_ns N
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <traceevent/kbuffer.h>
#include <unistd.h>

#include "gen_formats.h"
#include "gen_trace.h"
#include "hyp_events.h"
#include "ring_buffer.h"
#include "hyptrace/tcnet.h"
#include "hyptrace/tracedat.h"

struct cpu_gen cpus[MAX_CPUS];


void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "gen_trace: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *xalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

static u64 rng_state;

static u64 rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* ---- the events ---- */

static const u32 func_ids[] = {
	0x84000000, 0x84000002, 0xc4000003, 0x84000008, 0xc6000001,
	0x86000010, 0x8400000c,
};

static u16 pick_reason(void)
{
	u64 r = rng() % 100;

	if (r < 60)
		return HYP_REASON_HVC;
	if (r < 75)
		return HYP_REASON_SMC;
	if (r < 83)
		return HYP_REASON_PSCI;
	if (r < 90)
		return HYP_REASON_FIRMWARE;
	if (r < 98)
		return HYP_REASON_TRAP;
	return 9;	/* not in HYP_REASONS */
}

static s64 pick_ret(void)
{
	u64 r = rng() % 10;

	return r < 7 ? 0 : r < 9 ? -1 : (s64)(rng() >> 4);
}

static void plan_cpu(const struct opts *o, unsigned int c)
{
	struct cpu_gen *g = &cpus[c];
	u64 n = 2ULL * o->pairs + o->selftests, i, ts = o->start;
	unsigned int st = 0;

	g->written = xalloc(n * sizeof(*g->written));
	if ((int)c == o->idle_cpu)
		return;
	for (i = 0; i < o->pairs; i++) {
		struct ev *e = &g->written[g->nr_written];

		/* selftests spread evenly among the pairs */
		if (st < o->selftests &&
		    i * o->selftests >= (u64)st * o->pairs) {
			e->ts = ts;
			e->id = HYP_EVENT_selftest;
			e->sid = 1000ULL * c + st++;
			e++;
			g->nr_written++;
			ts += 1000 + rng() % 9000;
		}
		e[0].ts = ts;
		e[0].id = HYP_EVENT_hyp_enter;
		e[0].reason = pick_reason();
		e[0].func_id = func_ids[rng() % (sizeof(func_ids) /
						  sizeof(func_ids[0]))];
		e[1] = e[0];
		e[1].id = HYP_EVENT_hyp_exit;
		e[1].ts = ts + 100 + rng() % 4900;
		e[1].ret = pick_ret();
		g->nr_written += 2;
		ts = e[1].ts;
		if (o->gaps && !(rng() % o->gaps))
			ts += 200000000ULL + rng() % 1800000000ULL;
		else
			ts += 1000 + rng() % 199000;
	}
	while (st < o->selftests) {
		struct ev *e = &g->written[g->nr_written++];

		e->ts = ts;
		e->id = HYP_EVENT_selftest;
		e->sid = 1000ULL * c + st++;
		ts += 1000;
	}
}

/* The payload the hypervisor would write for @e; returns its size */
static u32 payload(const struct ev *e, void *buf)
{
	struct hyp_event_hyp_enter *en = buf;
	struct hyp_event_hyp_exit *ex = buf;
	struct hyp_event_selftest *st = buf;

	switch (e->id) {
	case HYP_EVENT_hyp_enter:
		memset(en, 0, sizeof(*en));
		en->hdr.id = e->id;
		en->reason = e->reason;
		en->func_id = e->func_id;
		return sizeof(*en);
	case HYP_EVENT_hyp_exit:
		memset(ex, 0, sizeof(*ex));
		ex->hdr.id = e->id;
		ex->reason = e->reason;
		ex->func_id = e->func_id;
		ex->ret = e->ret;
		return sizeof(*ex);
	default:
		memset(st, 0, sizeof(*st));
		st->hdr.id = e->id;
		st->id = e->sid;
		return sizeof(*st);
	}
}

/* ---- the writer and the reader's swaps ---- */

static void *page_alloc(void)
{
	void *p = aligned_alloc(RB_PAGE_SIZE, RB_PAGE_SIZE);

	if (!p)
		die("out of memory");
	memset(p, 0xa5, RB_PAGE_SIZE);	/* whatever the kernel left there */
	return p;
}

static void ring_init(const struct opts *o, unsigned int c)
{
	struct cpu_gen *g = &cpus[c];
	unsigned int i;

	g->meta = page_alloc();
	g->data = xalloc(o->pages * sizeof(*g->data));
	g->info = xalloc(o->pages * sizeof(*g->info));
	for (i = 0; i < o->pages; i++)
		g->data[i] = page_alloc();
	if (rb_init(&g->rb, c, g->meta, g->data, o->pages, g->info,
		    RB_MODE_OVERWRITE))
		die("rb_init failed");
	rb_enable(&g->rb);
	g->pages = tmpfile();
	if (!g->pages)
		die("tmpfile: %s", strerror(errno));
}

/*
 * One swap: the page the kernel's reader gets, marked as its
 * ring_buffer_read_page() marks a page after lost events.
 */
static int take_page(struct cpu_gen *g)
{
	struct rb_meta *meta = g->meta;
	u8 page[RB_PAGE_SIZE];
	struct rb_data_page *p = (struct rb_data_page *)page;
	u64 lost;

	if (rb_swap_reader(&g->rb))
		return 0;
	memcpy(page, g->data[meta->reader.id], RB_PAGE_SIZE);
	lost = meta->reader.lost_events;
	if (lost) {
		u64 commit = p->commit;

		p->commit |= 1ULL << 31;
		if (RB_PAGE_CAPACITY - commit >= sizeof(lost)) {
			memcpy(p->data + commit, &lost, sizeof(lost));
			p->commit |= 1ULL << 30;
		}
	}
	if (fwrite(page, RB_PAGE_SIZE, 1, g->pages) != 1)
		die("writing pages: %s", strerror(errno));
	return 1;
}

/*
 * Take out the pages the writer has left. While it may still write, only
 * the ones before its own page: the kernel's reader would go on reading
 * the writer's page as it fills, a copy would not.
 */
static void drain(struct cpu_gen *g, int final)
{
	if (final)
		rb_disable(&g->rb);
	while (final || g->rb.used > 1) {
		if (!take_page(g))
			break;
	}
}

static void write_cpu(const struct opts *o, unsigned int c)
{
	struct cpu_gen *g = &cpus[c];
	u8 buf[64];
	u64 i;

	for (i = 0; i < g->nr_written; i++) {
		const struct ev *e = &g->written[i];

		if (!rb_write(&g->rb, e->ts, buf, payload(e, buf)))
			die("CPU %u: the writer refused event %llu", c,
			    (unsigned long long)i);
		if (o->drain_every && !((i + 1) % o->drain_every))
			drain(g, 0);
	}
	drain(g, 1);
	fflush(g->pages);
}

/* ---- decoding the pages again with kbuffer, and checking them ---- */

static u64 find_written(const struct cpu_gen *g, u64 from, u64 ts)
{
	u64 i;

	for (i = from; i < g->nr_written; i++) {
		if (g->written[i].ts == ts)
			return i;
	}
	return UINT64_MAX;
}

static void decode_cpu(unsigned int c)
{
	struct cpu_gen *g = &cpus[c];
	struct kbuffer *kb = kbuffer_alloc(KBUFFER_LSIZE_8,
					   KBUFFER_ENDIAN_LITTLE);
	u8 page[RB_PAGE_SIZE], want[64];
	unsigned long long ts;
	u64 next = 0, idx;
	void *data;

	g->got = xalloc(g->nr_written * sizeof(*g->got));
	rewind(g->pages);
	while (fread(page, RB_PAGE_SIZE, 1, g->pages) == 1) {
		long long missed;
		u64 lost;

		kbuffer_load_subbuffer(kb, page);
		missed = kbuffer_missed_events(kb);
		lost = missed < 0 ? UINT64_MAX : (u64)missed;
		for (data = kbuffer_read_event(kb, &ts); data;
		     data = kbuffer_next_event(kb, &ts)) {
			struct ev *e;

			idx = find_written(g, next, ts);
			if (idx == UINT64_MAX)
				die("CPU %u: decoded an event at %llu that was not written",
				    c, ts);
			e = &g->written[idx];
			if ((u32)kbuffer_event_size(kb) != payload(e, want) ||
			    memcmp(data, want, payload(e, want)))
				die("CPU %u: event at %llu decoded wrong", c,
				    ts);
			if (lost != UINT64_MAX && idx - next != lost)
				die("CPU %u: %llu events missing before %llu, the page says %llu lost",
				    c, (unsigned long long)(idx - next), ts,
				    (unsigned long long)lost);
			if (lost == UINT64_MAX && idx == next)
				die("CPU %u: a page says events were lost before %llu, none were",
				    c, ts);
			g->got[g->nr_got] = *e;
			g->got[g->nr_got].lost = lost;
			g->got[g->nr_got].written = idx;
			g->nr_got++;
			next = idx + 1;
			lost = 0;
		}
	}
	if (next != g->nr_written)
		die("CPU %u: the last %llu events written are not in the pages",
		    c, (unsigned long long)(g->nr_written - next));
	kbuffer_free(kb);
}

/* ---- the trace.dat ---- */

static char *slurp(const char *dir, const char *name, size_t *len)
{
	char path[4096];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		die("%s: %s", path, strerror(errno));
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = xalloc(n + 1);
	if (n && fread(buf, n, 1, f) != 1)
		die("%s: short read", path);
	fclose(f);
	*len = n;
	return buf;
}

struct texts {
	struct gen_text hpage, hevent;
	struct gen_text *formats;
	unsigned int nr_formats;
};

static void get_texts(const struct opts *o, struct texts *t)
{
	char name[256];
	unsigned int i;

	t->hpage = gen_header_page(RB_PAGE_SIZE);
	t->hevent = gen_header_event();
	t->nr_formats = gen_event_formats(&t->formats);
	if (!o->events_dir)
		return;
	free(t->hpage.text);
	t->hpage.text = slurp(o->events_dir, "header_page", &t->hpage.len);
	free(t->hevent.text);
	t->hevent.text = slurp(o->events_dir, "header_event", &t->hevent.len);
	for (i = 0; i < t->nr_formats; i++) {
		snprintf(name, sizeof(name), "%s.format", t->formats[i].name);
		free(t->formats[i].text);
		t->formats[i].text = slurp(o->events_dir, name,
					   &t->formats[i].len);
	}
}

static void dump_texts(const char *dir, const struct texts *t)
{
	const struct gen_text *all[2 + HYP_NR_EVENTS];
	char path[4096];
	unsigned int i, n = 0;
	FILE *f;

	all[n++] = &t->hpage;
	all[n++] = &t->hevent;
	for (i = 0; i < t->nr_formats; i++)
		all[n++] = &t->formats[i];
	mkdir(dir, 0755);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s%s", dir, all[i]->name,
			 i < 2 ? "" : ".format");
		f = fopen(path, "w");
		if (!f || fwrite(all[i]->text, 1, all[i]->len, f) !=
			  all[i]->len || fclose(f))
			die("%s: %s", path, strerror(errno));
	}
}

/* The trace as tracedat_write() and tracedat_meta() take it */
static void describe(const struct opts *o, const struct texts *t,
		     struct td_out *out, struct td_out_format *fmts, int *fds)
{
	unsigned int i;

	*out = (struct td_out) {
		.header_page = t->hpage.text,
		.header_page_len = t->hpage.len,
		.header_event = t->hevent.text,
		.header_event_len = t->hevent.len,
		.formats = fmts,
		.nr_formats = t->nr_formats,
		.page_size = RB_PAGE_SIZE,
		.nr_cpus = o->cpus,
		.cpu_fd = fds,
		.trace_clock = *o->clock ? o->clock : NULL,
		.uname = "Linux hyptrace-gen 7.3.0 #1 SMP aarch64",
	};
	for (i = 0; i < t->nr_formats; i++) {
		fmts[i].system = "hypervisor";
		fmts[i].text = t->formats[i].text;
		fmts[i].len = t->formats[i].len;
	}
	for (i = 0; i < o->cpus; i++)
		fds[i] = (int)i == o->idle_cpu ? -1 : fileno(cpus[i].pages);
}

static void write_dat(const struct opts *o, const struct texts *t)
{
	struct td_out_format fmts[HYP_NR_EVENTS];
	int fds[MAX_CPUS];
	struct td_out out;
	char err[256];
	int fd;

	describe(o, t, &out, fmts, fds);
	fd = open(o->out, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die("%s: %s", o->out, strerror(errno));
	if (tracedat_write(fd, &out, err, sizeof(err)))
		die("tracedat_write: %s", err);
	if (close(fd))
		die("%s: %s", o->out, strerror(errno));
}

/*
 * --send: the same trace to `trace-cmd listen` through lib/tcnet.c, as
 * `hyptrace record -N` sends it: the metadata, then the CPUs' pages taken
 * in turns (one page of each CPU that has one left), --send-pace ms apart.
 */
static void send_dat(const struct opts *o, const struct texts *t)
{
	struct td_out_format fmts[HYP_NR_EVENTS];
	int fds[MAX_CPUS];
	struct td_out out;
	struct tcn_session *s;
	struct timespec t0, t1;
	u8 page[RB_PAGE_SIZE];
	u64 pages = 0, bytes = 0, off;
	char err[256], *meta;
	size_t meta_len;
	unsigned int i;
	int more = 1;

	describe(o, t, &out, fmts, fds);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (tracedat_meta(&out, &meta, &meta_len, err, sizeof(err)))
		die("tracedat_meta: %s", err);
	s = tcnet_open(o->send, out.nr_cpus, out.page_size, err, sizeof(err));
	if (!s || tcnet_send_meta(s, meta, meta_len, err, sizeof(err)) ||
	    tcnet_connect_cpus(s, err, sizeof(err)))
		die("%s", err);
	for (off = 0; more; off += RB_PAGE_SIZE) {
		more = 0;
		for (i = 0; i < o->cpus; i++) {
			if (fds[i] < 0 ||
			    pread(fds[i], page, RB_PAGE_SIZE, off) !=
			    RB_PAGE_SIZE)
				continue;
			if (tcnet_send_cpu(s, i, page, RB_PAGE_SIZE, err,
					 sizeof(err)))
				die("%s", err);
			pages++;
			bytes += RB_PAGE_SIZE;
			more = 1;
		}
		if (more && o->send_pace)
			usleep(o->send_pace * 1000);
		if (tcnet_check(s, err, sizeof(err)))
			die("%s", err);
	}
	if (tcnet_finish(s, err, sizeof(err)))
		die("%s", err);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fprintf(stderr, "gen_trace: sent %llu pages (%llu bytes) and %zu bytes of metadata to %s in %.3f s\n",
		(unsigned long long)pages, (unsigned long long)bytes,
		meta_len, o->send, (t1.tv_sec - t0.tv_sec) +
		(t1.tv_nsec - t0.tv_nsec) / 1e9);
	tcnet_free(s);
	free(meta);
}

/* ---- the command line ---- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: gen_trace [OPTIONS] OUT.dat\n"
		"Write a trace.dat of known hypervisor events with the real ring-buffer\n"
		"writer; see the top of tests/tools/gen_trace.c for the event model.\n"
		"  --cpus N           CPUs (2)\n"
		"  --pairs N          hyp_enter/hyp_exit pairs per CPU (500)\n"
		"  --selftests N      selftest events per CPU (2)\n"
		"  --pages N          ring pages per CPU, reader included (64, >= 3)\n"
		"  --drain-every N    take full pages out every N events (0: at the end)\n"
		"  --gaps N           1 gap in N is 0.2-2 s, a time extend (20, 0: none)\n"
		"  --idle-cpu N       CPU N writes nothing\n"
		"  --start NS         first timestamp in ns (5000000000)\n"
		"  --seed N           random seed (1)\n"
		"  --clock TEXT       TRACECLOCK text (\"[boot]\"; \"\" for none)\n"
		"  --events-dir DIR   header_page, header_event, <event>.format from DIR\n"
		"  --dump-events DIR  write the generated ones to DIR and stop\n"
		"  --expect FILE      the exact output of 'hyptrace report'\n"
		"  --expect-ns FILE   the same with nanosecond timestamps\n"
		"  --summary FILE     counts: cpu C events/lost/hyp_enter/el2_ns..., reason R ...\n"
		"  --send HOST:PORT   also send the trace to `trace-cmd listen -p PORT`\n"
		"  --send-pace MS     wait MS ms between rounds of pages (0)\n"
		"  -h, --help         this text\n");
}

static u64 number(const char *opt, const char *s)
{
	char *end;
	u64 v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-')
		die("%s wants a number, not '%s'", opt, s);
	return v;
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "cpus", required_argument, NULL, 'c' },
		{ "pairs", required_argument, NULL, 'p' },
		{ "selftests", required_argument, NULL, 't' },
		{ "pages", required_argument, NULL, 'P' },
		{ "drain-every", required_argument, NULL, 'd' },
		{ "gaps", required_argument, NULL, 'g' },
		{ "idle-cpu", required_argument, NULL, 'i' },
		{ "start", required_argument, NULL, 's' },
		{ "seed", required_argument, NULL, 'S' },
		{ "clock", required_argument, NULL, 'k' },
		{ "events-dir", required_argument, NULL, 'e' },
		{ "dump-events", required_argument, NULL, 'D' },
		{ "expect", required_argument, NULL, 'x' },
		{ "expect-ns", required_argument, NULL, 'n' },
		{ "summary", required_argument, NULL, 'm' },
		{ "send", required_argument, NULL, 'N' },
		{ "send-pace", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *name;
	int c;

	*o = (struct opts) {
		.cpus = 2, .pairs = 500, .selftests = 2, .pages = 64,
		.gaps = 20, .idle_cpu = -1, .start = 5000000000ULL,
		.seed = 1, .clock = "[boot]",
	};
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		name = c == '?' || c == 'h' ? "" : argv[optind - 1];
		switch (c) {
		case 'c':
			o->cpus = number(name, optarg);
			break;
		case 'p':
			o->pairs = number(name, optarg);
			break;
		case 't':
			o->selftests = number(name, optarg);
			break;
		case 'P':
			o->pages = number(name, optarg);
			break;
		case 'd':
			o->drain_every = number(name, optarg);
			break;
		case 'g':
			o->gaps = number(name, optarg);
			break;
		case 'i':
			o->idle_cpu = number(name, optarg);
			break;
		case 's':
			o->start = number(name, optarg);
			break;
		case 'S':
			o->seed = number(name, optarg);
			break;
		case 'k':
			o->clock = optarg;
			break;
		case 'e':
			o->events_dir = optarg;
			break;
		case 'D':
			o->dump_dir = optarg;
			break;
		case 'x':
			o->expect = optarg;
			break;
		case 'n':
			o->expect_ns = optarg;
			break;
		case 'm':
			o->summary = optarg;
			break;
		case 'N':
			o->send = optarg;
			break;
		case 'w':
			o->send_pace = number(name, optarg);
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(2);
		}
	}
	if (!o->dump_dir && optind != argc - 1) {
		usage(stderr);
		exit(2);
	}
	o->out = argv[optind];
	if (!o->cpus || o->cpus > MAX_CPUS)
		die("--cpus: 1 to %d", MAX_CPUS);
	if (o->pages < RB_MIN_PAGES || o->pages > 65536)
		die("--pages: %u to 65536", RB_MIN_PAGES);
	if (o->pairs > 10000000 || o->selftests > o->pairs + 1000)
		die("--pairs up to 10000000, --selftests up to pairs + 1000");
}

int main(int argc, char **argv)
{
	struct texts t;
	struct opts o;
	unsigned int c;

	parse_args(argc, argv, &o);
	get_texts(&o, &t);
	if (o.dump_dir) {
		dump_texts(o.dump_dir, &t);
		return 0;
	}
	rng_state = o.seed * 0x9e3779b97f4a7c15ULL + 1;
	for (c = 0; c < o.cpus; c++) {
		plan_cpu(&o, c);
		ring_init(&o, c);
		write_cpu(&o, c);
		decode_cpu(c);
	}
	write_dat(&o, &t);
	if (o.send)
		send_dat(&o, &t);
	if (o.expect)
		write_expect(o.expect, 0, &o);
	if (o.expect_ns)
		write_expect(o.expect_ns, 1, &o);
	if (o.summary)
		write_summary(&o);
	return 0;
}
