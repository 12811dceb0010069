// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace perfetto: convert a trace.dat into a Perfetto protobuf trace, so
 * that ui.perfetto.dev and trace_processor show the hypervisor as they show
 * Android's pKVM.
 *
 * Perfetto has no trace.dat importer, but it reads the ftrace data its own
 * recorder writes: Trace { TracePacket { FtraceEventBundle { cpu, lost_events,
 * FtraceEvent { timestamp, pid, <one event> }... } }... }. So:
 *
 *  - hyp_enter and hyp_exit become Perfetto's typed hypervisor events, which
 *    trace_processor's PkvmHypervisorCpuTracker turns into slices named
 *    "hyp" on "pKVM Hypervisor CPU N" tracks (the UI's Hypervisor group).
 *    It keys on either group, "hyp" (Android) or "hypervisor" (mainline);
 *    we write "hypervisor" unless told otherwise. Those typed events carry
 *    no fields, so each is followed by a generic copy holding them.
 *    Pairing, per CPU, as `hyptrace stats` does it: an enter whose exit
 *    never comes (another enter first, a loss, time running backwards) is
 *    closed where it starts, a zero-length slice, and an exit with no
 *    enter gets no typed event. An enter open at the end stays open
 *    (Perfetto shows it "did not end").
 *  - sched_switch becomes Perfetto's typed sched_switch (CPU tracks), so
 *    a trace.dat with the host's events shows its scheduling too.
 *  - every other event becomes a GenericFtraceEvent: name and all fields
 *    (numbers as numbers, char arrays and __data_loc strings as text, other
 *    bytes in hex; the kinds come from the format parser, format.h).
 *  - a loss sets lost_events on the bundle that follows it, and the counts
 *    go out as ring-buffer overruns in FtraceStats packets at both ends.
 *
 * Timestamps are CLOCK_BOOTTIME ns, the clock the hypervisor stamps with;
 * that is what Perfetto assumes for ftrace when FtraceEventBundle has no
 * ftrace_clock, and what the other packets say with timestamp_clock_id.
 *
 * Two passes over the file: the first pairs enters with exits and counts,
 * the second writes. Field numbers below come from google/perfetto commit
 * ec5d16b14b743ba6063d720956d6d6af6610fd72 (main of 2026-08-22, past the
 * v58 branch point); the "hypervisor" group needs Perfetto v52 or later,
 * "hyp" v34 or later.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format.h"
#include "hyptrace.h"
#include "pbenc.h"
#include "tracedat.h"

/* protos/perfetto/trace/trace.proto */
enum {
	TRACE_PACKET = 1,			/* Trace.packet */
};

/* protos/perfetto/trace/trace_packet.proto, message TracePacket */
enum {
	TRACE_PACKET_FTRACE_EVENTS = 1,		/* FtraceEventBundle */
	TRACE_PACKET_TIMESTAMP = 8,
	TRACE_PACKET_TRUSTED_PACKET_SEQUENCE_ID = 10,
	TRACE_PACKET_FTRACE_STATS = 34,		/* FtraceStats */
	TRACE_PACKET_TIMESTAMP_CLOCK_ID = 58,
};

/* protos/perfetto/common/builtin_clock.proto, enum BuiltinClock */
#define BUILTIN_CLOCK_BOOTTIME		6

/* protos/perfetto/trace/ftrace/ftrace_event_bundle.proto */
enum {
	FTRACE_EVENT_BUNDLE_CPU = 1,
	FTRACE_EVENT_BUNDLE_EVENT = 2,		/* repeated FtraceEvent */
	FTRACE_EVENT_BUNDLE_LOST_EVENTS = 3,	/* bool */
};

/* protos/perfetto/trace/ftrace/ftrace_event.proto, message FtraceEvent */
enum {
	FTRACE_EVENT_TIMESTAMP = 1,
	FTRACE_EVENT_PID = 2,
	FTRACE_EVENT_SCHED_SWITCH = 4,
	FTRACE_EVENT_GENERIC = 327,
	FTRACE_EVENT_HYP_ENTER = 476,		/* hyp.proto */
	FTRACE_EVENT_HYP_EXIT = 477,
	FTRACE_EVENT_HYPERVISOR_HYP_EXIT = 584,	/* hypervisor.proto */
	FTRACE_EVENT_HYPERVISOR_HYP_ENTER = 588,
};

/* protos/perfetto/trace/ftrace/generic.proto, message GenericFtraceEvent */
enum {
	GENERIC_FTRACE_EVENT_EVENT_NAME = 1,
	GENERIC_FTRACE_EVENT_FIELD = 2,
};

/* ... its nested message GenericFtraceEvent.Field */
enum {
	GENERIC_FIELD_NAME = 1,
	GENERIC_FIELD_STR_VALUE = 3,
	GENERIC_FIELD_INT_VALUE = 4,
	GENERIC_FIELD_UINT_VALUE = 5,
};

/* protos/perfetto/trace/ftrace/sched.proto, message SchedSwitchFtraceEvent */
enum {
	SCHED_SWITCH_PREV_COMM = 1,
	SCHED_SWITCH_PREV_PID = 2,
	SCHED_SWITCH_PREV_PRIO = 3,
	SCHED_SWITCH_PREV_STATE = 4,
	SCHED_SWITCH_NEXT_COMM = 5,
	SCHED_SWITCH_NEXT_PID = 6,
	SCHED_SWITCH_NEXT_PRIO = 7,
	SCHED_SWITCH_NR_FIELDS = 7,
};

/* protos/perfetto/trace/ftrace/ftrace_stats.proto */
enum {
	FTRACE_STATS_PHASE = 1,			/* FtraceStats.phase */
	FTRACE_STATS_CPU_STATS = 2,		/* repeated FtraceCpuStats */
};

enum {						/* enum FtraceStats.Phase */
	FTRACE_STATS_START_OF_TRACE = 1,
	FTRACE_STATS_END_OF_TRACE = 2,
};

enum {						/* message FtraceCpuStats */
	FTRACE_CPU_STATS_CPU = 1,
	FTRACE_CPU_STATS_OVERRUN = 3,
	FTRACE_CPU_STATS_READ_EVENTS = 9,
};

/* Every packet is ours, on one writer sequence */
#define SEQUENCE_ID		1

/* Close a bundle at this many bytes of events; write out at this many */
#define BUNDLE_BYTES		(32 * 1024)
#define OUT_BYTES		(1024 * 1024)

#define SUB			"perfetto"

/* What a record becomes, by event id */
enum ev_kind {
	KIND_UNSEEN = 0,
	KIND_GENERIC,
	KIND_HYP_ENTER,
	KIND_HYP_EXIT,
	KIND_SCHED_SWITCH,
	KIND_UNKNOWN,		/* no format for its id */
};

/* Ordinals (per CPU, per kind) of the enters or exits left unpaired */
struct ordlist {
	uint64_t *v;
	size_t nr, cap, next;
};

struct pf_cpu {
	uint64_t nr_events;
	uint64_t lost;			/* the known counts, summed */
	uint64_t lost_gaps;		/* records that followed a loss */
	int lost_unknown;		/* some gap had no count */
	/* pairing */
	int open;
	uint64_t open_ts, open_ord;
	uint64_t nr_enter, nr_exit;	/* ordinals so far in this pass */
	struct ordlist bad_enter, bad_exit;
	/* writing */
	struct pb_buf events;		/* encoded FtraceEventBundle.event */
	int lost_pending;		/* the next bundle follows a loss */
};

struct pf {
	const char *in;
	uint32_t enter_field, exit_field;
	struct td_file *td;
	unsigned int nr_cpus;
	struct pf_cpu *cpu;
	uint8_t kind[UINT16_MAX + 1];
	uint64_t nr_events, first_ts, last_ts;	/* pass 1 */
	uint64_t nr_written, nr_slices, nr_unpaired;	/* pass 2 */
	struct pb_buf out;
	const char *out_name;
	FILE *f;
	int oom;
};

static int ordlist_push(struct ordlist *l, uint64_t ord)
{
	uint64_t *v;

	if (l->nr == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		v = realloc(l->v, l->cap * sizeof(*v));
		if (!v)
			return -1;
		l->v = v;
	}
	l->v[l->nr++] = ord;
	return 0;
}

/* Whether @ord is the next unpaired one; the lists are in ordinal order. */
static int ordlist_take(struct ordlist *l, uint64_t ord)
{
	if (l->next < l->nr && l->v[l->next] == ord) {
		l->next++;
		return 1;
	}
	return 0;
}

static enum ev_kind classify(struct pf *p, uint16_t id)
{
	const struct td_event *ev;

	if (p->kind[id] != KIND_UNSEEN)
		return p->kind[id];
	ev = td_event_by_id(p->td, id);
	if (!ev)
		p->kind[id] = KIND_UNKNOWN;
	else if (!strcmp(ev->name, "hyp_enter"))
		p->kind[id] = KIND_HYP_ENTER;
	else if (!strcmp(ev->name, "hyp_exit"))
		p->kind[id] = KIND_HYP_EXIT;
	else if (!strcmp(ev->name, "sched_switch"))
		p->kind[id] = KIND_SCHED_SWITCH;
	else
		p->kind[id] = KIND_GENERIC;
	return p->kind[id];
}

/* ---- pass 1: pair and count ---- */

static void cut_open(struct pf *p, struct pf_cpu *c)
{
	if (c->open && ordlist_push(&c->bad_enter, c->open_ord))
		p->oom = 1;
	c->open = 0;
}

static void scan_record(struct pf *p, const struct td_record *rec)
{
	struct pf_cpu *c = &p->cpu[rec->cpu];
	uint64_t ord;

	if (rec->lost_before) {
		c->lost_gaps++;
		if (rec->lost_before == TD_LOST_UNKNOWN)
			c->lost_unknown = 1;
		else
			c->lost += rec->lost_before;
		cut_open(p, c);
	}
	if (!p->nr_events)
		p->first_ts = rec->ts;
	p->last_ts = rec->ts;
	p->nr_events++;
	c->nr_events++;

	switch (classify(p, rec->id)) {
	case KIND_HYP_ENTER:
		cut_open(p, c);
		c->open = 1;
		c->open_ts = rec->ts;
		c->open_ord = c->nr_enter++;
		break;
	case KIND_HYP_EXIT:
		ord = c->nr_exit++;
		if (c->open && rec->ts < c->open_ts)
			cut_open(p, c);
		if (!c->open && ordlist_push(&c->bad_exit, ord))
			p->oom = 1;
		c->open = 0;
		break;
	default:
		break;
	}
}

/* ---- pass 2: encode ---- */

static uint32_t record_pid(const struct td_event *ev,
			   const struct td_record *rec)
{
	const struct td_field *f = ev ? td_find_field(ev, "common_pid") : NULL;
	uint64_t v = 0;

	if (f)
		td_read_field(rec, f, &v);
	return (uint32_t)v;
}

/* An FtraceEventBundle.event: timestamp and pid; the caller adds the rest. */
static size_t event_begin(struct pb_buf *b, const struct td_record *rec,
			  uint32_t pid)
{
	size_t mark = pb_begin(b, FTRACE_EVENT_BUNDLE_EVENT);

	pb_uint(b, FTRACE_EVENT_TIMESTAMP, rec->ts);
	pb_uint(b, FTRACE_EVENT_PID, pid);
	return mark;
}

static void typed_empty(struct pb_buf *b, const struct td_record *rec,
			uint32_t pid, uint32_t field)
{
	size_t mark = event_begin(b, rec, pid);

	pb_bytes(b, field, NULL, 0);
	pb_end(b, mark);
}

/*
 * Where the bytes of field @i lie in @rec: for __data_loc and __rel_loc
 * fields, where the u32 in the payload points; for a char buf[] of size 0,
 * the rest of the record. 0, or -1 when that is outside the record.
 */
static int field_bytes(const struct td_record *rec, const struct td_event *ev,
		       unsigned int i, const uint8_t **p, uint32_t *n)
{
	const struct fmt_event *fe = fmt_of(ev);
	const struct td_field *f = &ev->fields[i];
	uint32_t off = f->offset, len = f->size, loc;

	if (off > rec->size || len > rec->size - off)
		return -1;
	if (fe->kinds[i] == FMT_DYN_STR || fe->kinds[i] == FMT_DYN_BYTES) {
		if (len != sizeof(loc))
			return -1;
		memcpy(&loc, rec->data + off, sizeof(loc));
		len = loc >> 16;
		off = (loc & 0xffff) + (fe->rel[i] ? off + sizeof(loc) : 0);
		if (off > rec->size || len > rec->size - off)
			return -1;
	} else if (!len) {
		len = rec->size - off;
	}
	*p = rec->data + off;
	*n = len;
	return 0;
}

/* Text up to the first NUL, control characters shown as '.' */
static void put_text(struct pb_buf *b, uint32_t field, const uint8_t *p,
		     uint32_t n)
{
	char *s;
	uint32_t i;

	for (i = 0; i < n && p[i]; i++)
		;
	n = i;
	s = malloc(n + 1);
	if (!s) {
		b->failed = 1;
		return;
	}
	for (i = 0; i < n; i++)
		s[i] = p[i] < 0x20 || p[i] == 0x7f ? '.' : (char)p[i];
	pb_bytes(b, field, s, n);
	free(s);
}

/* Bytes in hex, as `hyptrace report` prints them */
static void put_hex(struct pb_buf *b, uint32_t field, const uint8_t *p,
		    uint32_t n)
{
	static const char hex[] = "0123456789abcdef";
	char *s = malloc(2 * (size_t)n + 1);
	uint32_t i;

	if (!s) {
		b->failed = 1;
		return;
	}
	for (i = 0; i < n; i++) {
		s[2 * i] = hex[p[i] >> 4];
		s[2 * i + 1] = hex[p[i] & 0xf];
	}
	pb_bytes(b, field, s, 2 * (size_t)n);
	free(s);
}

/*
 * Field @i's value as protobuf field @str (text and bytes), @sint (signed
 * numbers) or @uint (unsigned ones); nothing when it is outside the record.
 */
static void put_value(struct pb_buf *b, const struct td_record *rec,
		      const struct td_event *ev, unsigned int i,
		      uint32_t str, uint32_t sint, uint32_t uint)
{
	const struct td_field *f = &ev->fields[i];
	const uint8_t *p;
	uint32_t n;
	uint64_t v;

	switch (fmt_of(ev)->kinds[i]) {
	case FMT_NUM:
		if (td_read_field(rec, f, &v))
			break;
		if (f->is_signed)
			pb_int(b, sint, (int64_t)v);
		else
			pb_uint(b, uint, v);
		break;
	case FMT_STR:
	case FMT_DYN_STR:
		if (!field_bytes(rec, ev, i, &p, &n))
			put_text(b, str, p, n);
		break;
	default:
		if (!field_bytes(rec, ev, i, &p, &n))
			put_hex(b, str, p, n);
		break;
	}
}

static void put_generic(struct pb_buf *b, const struct td_record *rec,
			const struct td_event *ev, uint32_t pid)
{
	size_t mark = event_begin(b, rec, pid), gen, fld;
	char name[32];
	unsigned int i;

	gen = pb_begin(b, FTRACE_EVENT_GENERIC);
	if (ev) {
		pb_string(b, GENERIC_FTRACE_EVENT_EVENT_NAME, ev->name);
		for (i = 0; i < ev->nr_fields; i++) {
			if (!strncmp(ev->fields[i].name, "common_", 7))
				continue;
			fld = pb_begin(b, GENERIC_FTRACE_EVENT_FIELD);
			pb_string(b, GENERIC_FIELD_NAME, ev->fields[i].name);
			put_value(b, rec, ev, i, GENERIC_FIELD_STR_VALUE,
				  GENERIC_FIELD_INT_VALUE,
				  GENERIC_FIELD_UINT_VALUE);
			pb_end(b, fld);
		}
	} else {
		/* no format for its id: the id and the bytes */
		snprintf(name, sizeof(name), "unknown_event_%u", rec->id);
		pb_string(b, GENERIC_FTRACE_EVENT_EVENT_NAME, name);
		fld = pb_begin(b, GENERIC_FTRACE_EVENT_FIELD);
		pb_string(b, GENERIC_FIELD_NAME, "data");
		put_hex(b, GENERIC_FIELD_STR_VALUE, rec->data, rec->size);
		pb_end(b, fld);
	}
	pb_end(b, gen);
	pb_end(b, mark);
}

/* Perfetto's typed sched_switch; 0, or -1 if the format is not the usual. */
static int put_sched_switch(struct pb_buf *b, const struct td_record *rec,
			    const struct td_event *ev, uint32_t pid)
{
	static const char *const names[SCHED_SWITCH_NR_FIELDS] = {
		"prev_comm", "prev_pid", "prev_prio", "prev_state",
		"next_comm", "next_pid", "next_prio",
	};
	unsigned int idx[SCHED_SWITCH_NR_FIELDS], i, j;
	size_t mark, ss;

	for (i = 0; i < SCHED_SWITCH_NR_FIELDS; i++) {
		for (j = 0; j < ev->nr_fields; j++)
			if (!strcmp(ev->fields[j].name, names[i]))
				break;
		/* the comms are text, the rest numbers */
		if (j == ev->nr_fields ||
		    (fmt_of(ev)->kinds[j] == FMT_NUM) == (i == 0 || i == 4))
			return -1;
		idx[i] = j;
	}
	mark = event_begin(b, rec, pid);
	ss = pb_begin(b, FTRACE_EVENT_SCHED_SWITCH);
	/* SCHED_SWITCH_* are 1..7 in the order of names[]; all int or string */
	for (i = 0; i < SCHED_SWITCH_NR_FIELDS; i++)
		put_value(b, rec, ev, idx[i], SCHED_SWITCH_PREV_COMM + i,
			  SCHED_SWITCH_PREV_COMM + i, SCHED_SWITCH_PREV_COMM + i);
	pb_end(b, ss);
	pb_end(b, mark);
	return 0;
}

static void put_hyp(struct pf *p, struct pf_cpu *c,
		    const struct td_record *rec, uint32_t pid, int enter)
{
	struct pb_buf *b = &c->events;

	if (enter) {
		typed_empty(b, rec, pid, p->enter_field);
		p->nr_slices++;
		/* no exit will come: close the slice where it starts */
		if (ordlist_take(&c->bad_enter, c->nr_enter++)) {
			typed_empty(b, rec, pid, p->exit_field);
			p->nr_unpaired++;
		}
	} else if (ordlist_take(&c->bad_exit, c->nr_exit++)) {
		p->nr_unpaired++;
	} else {
		typed_empty(b, rec, pid, p->exit_field);
	}
}

/* What is encoded so far, to the output; 0, or -1 after saying why. */
static int write_out(struct pf *p)
{
	if (pb_failed(&p->out)) {
		ht_err(SUB, "out of memory");
		return -1;
	}
	if (p->out.len && fwrite(p->out.data, p->out.len, 1, p->f) != 1) {
		ht_err(SUB, "%s: %s", p->out_name, strerror(errno));
		return -1;
	}
	pb_clear(&p->out);
	return 0;
}

static void flush_bundle(struct pf *p, unsigned int cpu)
{
	struct pf_cpu *c = &p->cpu[cpu];
	size_t pkt, bundle;

	if (!c->events.len)
		return;
	if (pb_failed(&c->events))
		p->oom = 1;
	pkt = pb_begin(&p->out, TRACE_PACKET);
	bundle = pb_begin(&p->out, TRACE_PACKET_FTRACE_EVENTS);
	pb_uint(&p->out, FTRACE_EVENT_BUNDLE_CPU, cpu);
	if (c->lost_pending)
		pb_uint(&p->out, FTRACE_EVENT_BUNDLE_LOST_EVENTS, 1);
	pb_raw(&p->out, c->events.data, c->events.len);
	pb_end(&p->out, bundle);
	pb_uint(&p->out, TRACE_PACKET_TRUSTED_PACKET_SEQUENCE_ID, SEQUENCE_ID);
	pb_end(&p->out, pkt);
	pb_clear(&c->events);
	c->lost_pending = 0;
}

static void put_stats(struct pf *p, int end)
{
	size_t pkt, st, cs;
	unsigned int i;

	pkt = pb_begin(&p->out, TRACE_PACKET);
	if (p->nr_events) {
		pb_uint(&p->out, TRACE_PACKET_TIMESTAMP,
			end ? p->last_ts : p->first_ts);
		pb_uint(&p->out, TRACE_PACKET_TIMESTAMP_CLOCK_ID,
			BUILTIN_CLOCK_BOOTTIME);
	}
	st = pb_begin(&p->out, TRACE_PACKET_FTRACE_STATS);
	pb_uint(&p->out, FTRACE_STATS_PHASE,
		end ? FTRACE_STATS_END_OF_TRACE : FTRACE_STATS_START_OF_TRACE);
	for (i = 0; i < p->nr_cpus; i++) {
		cs = pb_begin(&p->out, FTRACE_STATS_CPU_STATS);
		pb_uint(&p->out, FTRACE_CPU_STATS_CPU, i);
		pb_uint(&p->out, FTRACE_CPU_STATS_OVERRUN,
			end ? p->cpu[i].lost : 0);
		pb_uint(&p->out, FTRACE_CPU_STATS_READ_EVENTS,
			end ? p->cpu[i].nr_events : 0);
		pb_end(&p->out, cs);
	}
	pb_end(&p->out, st);
	pb_uint(&p->out, TRACE_PACKET_TRUSTED_PACKET_SEQUENCE_ID, SEQUENCE_ID);
	pb_end(&p->out, pkt);
}

static void put_record(struct pf *p, const struct td_record *rec)
{
	struct pf_cpu *c = &p->cpu[rec->cpu];
	enum ev_kind kind = classify(p, rec->id);
	const struct td_event *ev = td_event_by_id(p->td, rec->id);
	uint32_t pid = record_pid(ev, rec);

	p->nr_written++;
	if (rec->lost_before) {
		flush_bundle(p, rec->cpu);
		c->lost_pending = 1;
	}
	switch (kind) {
	case KIND_HYP_ENTER:
	case KIND_HYP_EXIT:
		put_hyp(p, c, rec, pid, kind == KIND_HYP_ENTER);
		put_generic(&c->events, rec, ev, pid);
		break;
	case KIND_SCHED_SWITCH:
		if (!put_sched_switch(&c->events, rec, ev, pid))
			break;
		/* fall through */
	default:
		put_generic(&c->events, rec, ev, pid);
		break;
	}
	if (c->events.len >= BUNDLE_BYTES)
		flush_bundle(p, rec->cpu);
}

/* ---- the two passes ---- */

static int open_input(struct pf *p)
{
	char err[256];

	p->td = td_open(p->in, err, sizeof(err));
	if (!p->td) {
		ht_err(SUB, "%s", err);
		return -1;
	}
	return 0;
}

/* Run @fn over every record; 0, or -1 after saying why. */
static int each_record(struct pf *p,
		       void (*fn)(struct pf *p, const struct td_record *rec))
{
	struct td_record rec;
	int ret;

	while ((ret = td_next(p->td, &rec)) > 0) {
		if (rec.cpu >= p->nr_cpus) {
			ht_err(SUB, "%s: a record on CPU %u, but the file has %u CPUs",
			       p->in, rec.cpu, p->nr_cpus);
			return -1;
		}
		fn(p, &rec);
		if (p->oom) {
			ht_err(SUB, "out of memory");
			return -1;
		}
		if (p->out.len >= OUT_BYTES && write_out(p))
			return -1;
	}
	if (ret < 0) {
		ht_err(SUB, "%s: %s", p->in, td_error(p->td));
		return -1;
	}
	return 0;
}

static void warn_clock(struct pf *p)
{
	const char *clock = td_trace_clock(p->td);
	const char *sel, *end;

	if (!clock)
		return;
	/* "local [boot] global" lists them all; the selected one is in [] */
	sel = strchr(clock, '[');
	sel = sel ? sel + 1 : clock + strspn(clock, " \t");
	end = sel + strcspn(sel, "] \t\n");
	if (end - sel == 4 && !strncmp(sel, "boot", 4))
		return;
	fprintf(stderr,
		"hyptrace %s: warning: %s: trace clock '%.*s', not boot; Perfetto will read the timestamps as CLOCK_BOOTTIME\n",
		SUB, p->in, (int)(end - sel), sel);
}

static int convert(struct pf *p)
{
	unsigned int i;

	if (open_input(p))
		return -1;
	p->nr_cpus = td_nr_cpus(p->td);
	p->cpu = calloc(p->nr_cpus ? p->nr_cpus : 1, sizeof(*p->cpu));
	if (!p->cpu) {
		ht_err(SUB, "out of memory");
		return -1;
	}
	warn_clock(p);
	if (each_record(p, scan_record))
		return -1;
	for (i = 0; i < p->nr_cpus; i++) {
		p->cpu[i].nr_enter = 0;
		p->cpu[i].nr_exit = 0;
	}

	/* the second pass, from the start */
	td_close(p->td);
	if (open_input(p))
		return -1;
	if (td_nr_cpus(p->td) == p->nr_cpus) {
		put_stats(p, 0);
		if (each_record(p, put_record))
			return -1;
	}
	if (p->nr_written != p->nr_events) {
		ht_err(SUB, "%s changed while being read", p->in);
		return -1;
	}
	for (i = 0; i < p->nr_cpus; i++)
		flush_bundle(p, i);
	put_stats(p, 1);
	if (p->oom) {
		ht_err(SUB, "out of memory");
		return -1;
	}
	return write_out(p);
}

static void summary(const struct pf *p)
{
	uint64_t lost = 0, gaps = 0;
	unsigned int i, cpus = 0;
	int unknown = 0;

	for (i = 0; i < p->nr_cpus; i++) {
		cpus += !!p->cpu[i].nr_events;
		lost += p->cpu[i].lost;
		gaps += p->cpu[i].lost_gaps;
		unknown |= p->cpu[i].lost_unknown;
	}
	fprintf(stderr, "hyptrace %s: %s: %" PRIu64 " events from %u of %u CPUs, %" PRIu64 " hyp slices (%" PRIu64 " unpaired enter/exit), ",
		SUB, p->out_name, p->nr_written, cpus, p->nr_cpus,
		p->nr_slices, p->nr_unpaired);
	if (!gaps)
		fprintf(stderr, "no events lost\n");
	else if (!unknown)
		fprintf(stderr, "%" PRIu64 " events lost in %" PRIu64 " gaps\n",
			lost, gaps);
	else
		fprintf(stderr, "events lost in %" PRIu64 " gaps (%" PRIu64 " counted, the rest unknown)\n",
			gaps, lost);
}

static void pf_free(struct pf *p)
{
	unsigned int i;

	if (p->td)
		td_close(p->td);
	for (i = 0; p->cpu && i < p->nr_cpus; i++) {
		free(p->cpu[i].bad_enter.v);
		free(p->cpu[i].bad_exit.v);
		pb_free(&p->cpu[i].events);
	}
	free(p->cpu);
	pb_free(&p->out);
}

/* ---- the command ---- */

static void print_help(FILE *f)
{
	fprintf(f,
"usage: hyptrace perfetto [-o OUT] [--hyp-group GROUP] FILE\n"
"\n"
"Convert the trace.dat FILE into a Perfetto trace (protobuf) for\n"
"ui.perfetto.dev and trace_processor.\n"
"\n"
"hyp_enter and hyp_exit become Perfetto's typed pKVM hypervisor events:\n"
"slices named \"hyp\" on \"pKVM Hypervisor CPU N\" tracks. Those carry no\n"
"fields, so each is also written as a generic ftrace event with all its\n"
"fields, as every other event is (table ftrace_event, the UI's Ftrace\n"
"Events tracks). An enter whose exit never comes is a zero-length slice.\n"
"sched_switch becomes Perfetto's own (CPU scheduling tracks). Losses mark\n"
"the next bundle of their CPU and count as ring-buffer overruns in the\n"
"trace's stats. Timestamps are taken as CLOCK_BOOTTIME.\n"
"\n"
"  -o, --output OUT    write OUT; - for standard output (default: FILE\n"
"                      without .dat, plus .perfetto-trace)\n"
"      --hyp-group G   hypervisor: the mainline group's typed events,\n"
"                      Perfetto v52 or later (default); hyp: Android's,\n"
"                      for older trace_processor builds (v34 or later)\n"
"  -h, --help          this text\n");
}

static char *default_output(const char *in)
{
	static const char ext[] = ".perfetto-trace";
	size_t n = strlen(in);
	char *out;

	if (n > 4 && !strcmp(in + n - 4, ".dat"))
		n -= 4;
	out = malloc(n + sizeof(ext));
	if (out) {
		memcpy(out, in, n);
		memcpy(out + n, ext, sizeof(ext));
	}
	return out;
}

/* A temporary file beside @out, renamed over it once complete */
static int open_output(struct pf *p, const char *out, char **tmp)
{
	mode_t mask;
	int fd;

	*tmp = NULL;
	if (!strcmp(out, "-")) {
		p->f = stdout;
		p->out_name = "standard output";
		return 0;
	}
	p->out_name = out;
	if (asprintf(tmp, "%s.XXXXXX", out) < 0) {
		*tmp = NULL;
		ht_err(SUB, "out of memory");
		return -1;
	}
	fd = mkstemp(*tmp);
	if (fd < 0) {
		ht_err(SUB, "%s: %s", out, strerror(errno));
		free(*tmp);
		*tmp = NULL;
		return -1;
	}
	mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	p->f = fdopen(fd, "w");
	if (!p->f) {
		ht_err(SUB, "%s: %s", out, strerror(errno));
		close(fd);
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
		return -1;
	}
	return 0;
}

static int close_output(struct pf *p, const char *out, const char *tmp,
			int ok)
{
	if (!tmp) {
		if (ok && fflush(p->f)) {
			ht_err(SUB, "%s: %s", p->out_name, strerror(errno));
			return -1;
		}
		return ok ? 0 : -1;
	}
	if (p->f && fclose(p->f) && ok) {
		ht_err(SUB, "%s: %s", out, strerror(errno));
		ok = 0;
	}
	p->f = NULL;
	if (ok && rename(tmp, out)) {
		ht_err(SUB, "%s: %s", out, strerror(errno));
		ok = 0;
	}
	if (!ok)
		unlink(tmp);
	return ok ? 0 : -1;
}

int cmd_perfetto(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "hyp-group", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct pf p;	/* kind[] is 64 KiB: not on the stack */
	char *out = NULL, *def = NULL, *tmp = NULL;
	int c, ret;

	memset(&p, 0, sizeof(p));
	p.enter_field = FTRACE_EVENT_HYPERVISOR_HYP_ENTER;
	p.exit_field = FTRACE_EVENT_HYPERVISOR_HYP_EXIT;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			print_help(stdout);
			return HT_EXIT_OK;
		case 'o':
			out = optarg;
			break;
		case 'g':
			if (!strcmp(optarg, "hyp")) {
				p.enter_field = FTRACE_EVENT_HYP_ENTER;
				p.exit_field = FTRACE_EVENT_HYP_EXIT;
			} else if (strcmp(optarg, "hypervisor")) {
				ht_err(SUB, "--hyp-group takes hyp or hypervisor, not '%s'",
				       optarg);
				return HT_EXIT_USAGE;
			}
			break;
		case ':':
			ht_err(SUB, "%s needs an argument; see 'hyptrace perfetto --help'",
			       argv[optind - 1]);
			return HT_EXIT_USAGE;
		default:
			ht_err(SUB, "unknown option '%s'; see 'hyptrace perfetto --help'",
			       argv[optind - 1]);
			return HT_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		ht_err(SUB, "%s; see 'hyptrace perfetto --help'",
		       optind == argc ? "which trace.dat?" :
		       "one trace.dat at a time");
		return HT_EXIT_USAGE;
	}
	p.in = argv[optind];
	if (!out) {
		out = def = default_output(p.in);
		if (!out) {
			ht_err(SUB, "out of memory");
			return HT_EXIT_FAIL;
		}
	}
	if (!strcmp(out, "-") && isatty(STDOUT_FILENO)) {
		ht_err(SUB, "not writing a binary trace to a terminal; use -o FILE");
		free(def);
		return HT_EXIT_USAGE;
	}

	ret = HT_EXIT_FAIL;
	if (!open_output(&p, out, &tmp)) {
		if (!close_output(&p, out, tmp, !convert(&p))) {
			summary(&p);
			ret = HT_EXIT_OK;
		}
	}
	pf_free(&p);
	free(tmp);
	free(def);
	return ret;
}
