// SPDX-License-Identifier: GPL-2.0
/*
 * `hyptrace perfetto`'s conversion: a trace.dat into a Perfetto protobuf
 * trace, so that ui.perfetto.dev and trace_processor show the hypervisor
 * as they show Android's pKVM.
 *
 * Perfetto has no trace.dat importer, but it reads the ftrace data its own
 * recorder writes: Trace { TracePacket { FtraceEventBundle { cpu, lost_events,
 * FtraceEvent { timestamp, pid, <one event> }... } }... }. So:
 *
 *  - hyp_enter and hyp_exit become Perfetto's typed hypervisor events, which
 *    trace_processor's PkvmHypervisorCpuTracker turns into slices named
 *    "hyp" on "pKVM Hypervisor CPU N" tracks (the UI's Hypervisor group).
 *    It keys on either group, "hyp" (Android) or "hypervisor" (mainline);
 *    the command picks one. Those typed events carry no fields, so each
 *    is followed by a generic copy holding them. Inside each slice, just
 *    before its end, the typed host_smc (an SMC: id, and forwarded when
 *    the slice ends in firmware or began on firmware's return) or
 *    host_hcall (an HVC: id, invalid for a NOT_SUPPORTED answer), which
 *    the tracker makes arguments of the slice: the UI shows the service
 *    on each. Pairing, per CPU, as
 *    `hyptrace stats` does it (perfetto_pair.c): an enter whose exit never
 *    comes (another enter first, a loss, time running backwards) is closed
 *    where it starts, a zero-length slice, and an exit with no enter gets
 *    no typed event. An enter open at the end stays open (Perfetto shows
 *    it "did not end").
 *  - sched_switch becomes Perfetto's typed sched_switch, every other event
 *    a GenericFtraceEvent with all its fields (perfetto_event.c).
 *  - a loss sets lost_events on the bundle that follows it, and the counts
 *    go out as ring-buffer overruns in FtraceStats packets at both ends.
 *
 * Timestamps are CLOCK_BOOTTIME ns, the clock the hypervisor stamps with;
 * that is what Perfetto assumes for ftrace when FtraceEventBundle has no
 * ftrace_clock, and what the other packets say with timestamp_clock_id.
 *
 * Two passes over the file: the first pairs enters with exits and counts,
 * the second writes, filling one bundle per CPU and writing it out when
 * it is full, when its CPU loses events, and at the end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyp_events.h"
#include "hyptrace/cmdline.h"
#include "perfetto.h"
#include "hyptrace/pftrace.h"

/* Close a bundle at this many bytes of events; write out at this many */
#define BUNDLE_BYTES		(32 * 1024)
#define OUT_BYTES		(1024 * 1024)

/* What a record becomes, by event id */
enum pf_kind {
	KIND_UNSEEN = 0,
	KIND_GENERIC,
	KIND_HYP_ENTER,
	KIND_HYP_EXIT,
	KIND_SCHED_SWITCH,
	KIND_HOST_ABORT,
	KIND_UNKNOWN,		/* no format for its id */
};

static enum pf_kind classify(struct pf *p, uint16_t id)
{
	const struct td_event *ev;

	if (p->kind[id] != KIND_UNSEEN)
		return p->kind[id];
	ev = tracedat_event_by_id(p->td, id);
	if (!ev)
		p->kind[id] = KIND_UNKNOWN;
	else if (!strcmp(ev->name, "hyp_enter"))
		p->kind[id] = KIND_HYP_ENTER;
	else if (!strcmp(ev->name, "hyp_exit"))
		p->kind[id] = KIND_HYP_EXIT;
	else if (!strcmp(ev->name, "sched_switch"))
		p->kind[id] = KIND_SCHED_SWITCH;
	else if (!strcmp(ev->name, "host_abort"))
		p->kind[id] = KIND_HOST_ABORT;
	else
		p->kind[id] = KIND_GENERIC;
	return p->kind[id];
}

/* ---- pass 1: pair and count ---- */

static void scan_record(struct pf *p, const struct td_record *rec)
{
	struct pf_cpu *c = &p->cpu[rec->cpu];
	int ret = 0;

	if (rec->lost_before) {
		c->lost_gaps++;
		if (rec->lost_before == TD_LOST_UNKNOWN)
			c->lost_unknown = 1;
		else
			c->lost += rec->lost_before;
		ret |= perfetto_pair_lost(&c->pair);
	}
	if (!p->nr_events)
		p->first_ts = rec->ts;
	p->last_ts = rec->ts;
	p->nr_events++;
	c->nr_events++;

	switch (classify(p, rec->id)) {
	case KIND_HYP_ENTER:
		ret |= perfetto_pair_enter(&c->pair, rec->ts);
		break;
	case KIND_HYP_EXIT:
		ret |= perfetto_pair_exit(&c->pair, rec->ts);
		break;
	default:
		break;
	}
	if (ret)
		p->oom = 1;
}

/* ---- pass 2: encode ---- */

/* A field of @rec, or @dflt when the format lacks it or the record is short */
static uint64_t field_or(const struct td_record *rec, const struct td_field *f,
			 uint64_t dflt)
{
	uint64_t v;

	return f && !format_print_read_field(rec, f, &v) ? v : dflt;
}

/*
 * The open slice's call, typed, as the exit @rec closes it: host_smc for
 * an SMC (forwarded: it leaves for firmware, or it is the part after
 * firmware's answer), host_hcall for an HVC or the hypervisor's own PSCI.
 */
static void put_call(struct pf *p, struct pf_cpu *c,
		     const struct td_record *rec, uint32_t pid)
{
	uint64_t reason = field_or(rec, p->exit_reason, 0);
	int64_t ret = (int64_t)field_or(rec, p->exit_ret, 0);
	struct pb_buf *b = &c->events;
	size_t ev, msg;

	switch (c->open_reason) {
	case HYP_REASON_SMC:
	case HYP_REASON_FIRMWARE:
		ev = pftrace_event_begin(b, rec->ts, pid);
		msg = pbenc_begin(b, PFT_EVENT_HOST_SMC);
		pbenc_uint(b, PFT_HOST_SMC_ID, c->open_func_id);
		pbenc_uint(b, PFT_HOST_SMC_FORWARDED,
			c->open_reason == HYP_REASON_FIRMWARE ||
			reason == HYP_REASON_FIRMWARE);
		break;
	case HYP_REASON_HVC:
	case HYP_REASON_PSCI_LOCAL:
		ev = pftrace_event_begin(b, rec->ts, pid);
		msg = pbenc_begin(b, PFT_EVENT_HOST_HCALL);
		pbenc_uint(b, PFT_HOST_HCALL_ID, c->open_func_id);
		pbenc_uint(b, PFT_HOST_HCALL_INVALID, ret == -1);
		break;
	default:
		return;
	}
	pbenc_end(b, msg);
	pftrace_event_end(b, ev);
}

static void put_hyp(struct pf *p, struct pf_cpu *c,
		    const struct td_record *rec, const struct td_event *ev,
		    uint32_t pid, int enter)
{
	struct pb_buf *b = &c->events;

	/* found in this pass's file: the first pass's is closed */
	if (enter && !p->enter_reason) {
		p->enter_reason = format_print_find_field(ev, "reason");
		p->enter_func_id = format_print_find_field(ev, "func_id");
	} else if (!enter && !p->exit_reason) {
		p->exit_reason = format_print_find_field(ev, "reason");
		p->exit_ret = format_print_find_field(ev, "ret");
	}
	if (enter) {
		pftrace_event_empty(b, rec->ts, pid, p->enter_field);
		p->nr_slices++;
		c->open = 1;
		c->open_reason = (uint16_t)field_or(rec, p->enter_reason, 0);
		c->open_func_id = (uint32_t)field_or(rec, p->enter_func_id, 0);
		/* no exit will come: close the slice where it starts */
		if (perfetto_pair_enter_cut(&c->pair)) {
			pftrace_event_empty(b, rec->ts, pid, p->exit_field);
			p->nr_unpaired++;
			c->open = 0;
		}
	} else if (perfetto_pair_exit_orphan(&c->pair)) {
		p->nr_unpaired++;
	} else {
		if (c->open)
			put_call(p, c, rec, pid);
		c->open = 0;
		pftrace_event_empty(b, rec->ts, pid, p->exit_field);
	}
}

static void flush_bundle(struct pf *p, unsigned int cpu)
{
	struct pf_cpu *c = &p->cpu[cpu];

	if (!c->events.len)
		return;
	if (pbenc_failed(&c->events))
		p->oom = 1;
	pftrace_bundle(&p->out, cpu, c->lost_pending, &c->events);
	pbenc_clear(&c->events);
	c->lost_pending = 0;
}

static void put_stats(struct pf *p, int end)
{
	const uint64_t *ts = NULL;	/* none in an empty trace */
	struct pft_stats_mark m;
	unsigned int i;

	if (p->nr_events)
		ts = end ? &p->last_ts : &p->first_ts;
	pftrace_stats_begin(&p->out, &m,
			end ? PFT_STATS_END_OF_TRACE : PFT_STATS_START_OF_TRACE,
			ts);
	for (i = 0; i < p->nr_cpus; i++)
		pftrace_stats_cpu(&p->out, i, end ? p->cpu[i].lost : 0,
			      end ? p->cpu[i].nr_events : 0);
	pftrace_stats_end(&p->out, &m);
}

static void put_record(struct pf *p, const struct td_record *rec)
{
	struct pf_cpu *c = &p->cpu[rec->cpu];
	enum pf_kind kind = classify(p, rec->id);
	const struct td_event *ev = tracedat_event_by_id(p->td, rec->id);
	uint32_t pid = perfetto_event_record_pid(ev, rec);

	p->nr_written++;
	if (rec->lost_before) {
		flush_bundle(p, rec->cpu);
		c->lost_pending = 1;
	}
	switch (kind) {
	case KIND_HYP_ENTER:
	case KIND_HYP_EXIT:
		put_hyp(p, c, rec, ev, pid, kind == KIND_HYP_ENTER);
		perfetto_event_generic(&c->events, rec, ev, pid);
		break;
	case KIND_HOST_ABORT:
		/* typed for the slice, and generic for the va it lacks */
		perfetto_event_host_mem_abort(&c->events, rec, ev, pid);
		perfetto_event_generic(&c->events, rec, ev, pid);
		break;
	case KIND_SCHED_SWITCH:
		/* a format not the kernel's goes out as any other event */
		if (perfetto_event_sched_switch(&c->events, rec, ev, pid))
			perfetto_event_generic(&c->events, rec, ev, pid);
		break;
	default:
		perfetto_event_generic(&c->events, rec, ev, pid);
		break;
	}
	if (c->events.len >= BUNDLE_BYTES)
		flush_bundle(p, rec->cpu);
}

/* ---- the two passes ---- */

/* What is encoded so far, to the output; 0, or -1 after saying why. */
static int write_out(struct pf *p)
{
	if (pbenc_failed(&p->out)) {
		cmdline_err(PF_SUB, "out of memory");
		return -1;
	}
	if (p->out.len && fwrite(p->out.data, p->out.len, 1, p->f) != 1) {
		cmdline_err(PF_SUB, "%s: %s", p->out_name, strerror(errno));
		return -1;
	}
	pbenc_clear(&p->out);
	return 0;
}

static int open_input(struct pf *p)
{
	char err[256];

	p->td = tracedat_open(p->in, err, sizeof(err));
	if (!p->td) {
		cmdline_err(PF_SUB, "%s", err);
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

	while ((ret = tracedat_next(p->td, &rec)) > 0) {
		if (rec.cpu >= p->nr_cpus) {
			cmdline_err(PF_SUB, "%s: a record on CPU %u, but the file has %u CPUs",
			       p->in, rec.cpu, p->nr_cpus);
			return -1;
		}
		fn(p, &rec);
		if (p->oom) {
			cmdline_err(PF_SUB, "out of memory");
			return -1;
		}
		if (p->out.len >= OUT_BYTES && write_out(p))
			return -1;
	}
	if (ret < 0) {
		cmdline_err(PF_SUB, "%s: %s", p->in, tracedat_error(p->td));
		return -1;
	}
	return 0;
}

static void warn_clock(struct pf *p)
{
	const char *clock = tracedat_trace_clock(p->td);
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
		PF_SUB, p->in, (int)(end - sel), sel);
}

int perfetto_convert(struct pf *p)
{
	unsigned int i;

	if (open_input(p))
		return -1;
	p->nr_cpus = tracedat_nr_cpus(p->td);
	p->cpu = calloc(p->nr_cpus ? p->nr_cpus : 1, sizeof(*p->cpu));
	if (!p->cpu) {
		cmdline_err(PF_SUB, "out of memory");
		return -1;
	}
	warn_clock(p);
	if (each_record(p, scan_record))
		return -1;
	for (i = 0; i < p->nr_cpus; i++)
		perfetto_pair_rewind(&p->cpu[i].pair);

	/* the second pass, from the start */
	tracedat_close(p->td);
	if (open_input(p))
		return -1;
	if (tracedat_nr_cpus(p->td) == p->nr_cpus) {
		put_stats(p, 0);
		if (each_record(p, put_record))
			return -1;
	}
	if (p->nr_written != p->nr_events) {
		cmdline_err(PF_SUB, "%s changed while being read", p->in);
		return -1;
	}
	for (i = 0; i < p->nr_cpus; i++)
		flush_bundle(p, i);
	put_stats(p, 1);
	if (p->oom) {
		cmdline_err(PF_SUB, "out of memory");
		return -1;
	}
	return write_out(p);
}

void perfetto_convert_free(struct pf *p)
{
	unsigned int i;

	if (p->td)
		tracedat_close(p->td);
	p->td = NULL;
	for (i = 0; p->cpu && i < p->nr_cpus; i++) {
		perfetto_pair_free(&p->cpu[i].pair);
		pbenc_free(&p->cpu[i].events);
	}
	free(p->cpu);
	p->cpu = NULL;
	pbenc_free(&p->out);
}
