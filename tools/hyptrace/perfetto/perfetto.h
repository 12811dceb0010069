/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `hyptrace perfetto`, a trace.dat into a Perfetto protobuf trace, in
 * layers, each file one of them:
 *
 *   perfetto.c          the subcommand: options, --help, the output file,
 *                       the summary line
 *   perfetto_convert.c  the two passes over the trace.dat: per CPU, the
 *                       records into bundles, losses and FtraceStats
 *   perfetto_event.c    one record as one FtraceEvent: generic (every
 *                       field) or Perfetto's typed sched_switch
 *   perfetto_pair.c     which hyp_enter and hyp_exit become slices, by the
 *                       pairing rules of `hyptrace stats` (hyptrace/el2stats.h)
 *   lib/pftrace.c       Perfetto's messages and field numbers
 *
 * What the output says, and why, is at the top of perfetto_convert.c.
 */
#ifndef HYPTRACE_TOOLS_PERFETTO_H
#define HYPTRACE_TOOLS_PERFETTO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hyptrace/el2stats.h"
#include "hyptrace/pbenc.h"
#include "hyptrace/tracedat.h"

#define PF_SUB			"perfetto"

/* ---- perfetto_pair.c ---- */

/* Ordinals (per CPU, per kind) of the enters or exits left unpaired */
struct pf_ordlist {
	uint64_t *v;
	size_t nr, cap, next;
};

/*
 * One CPU's hyp_enter and hyp_exit records, numbered in their order. The
 * first pass feeds them all through the pairing and notes the ones that
 * pair with nothing; the second, fed the same records, asks about each.
 */
struct pf_pair {
	struct el2_pairing pairing;	/* first pass */
	uint64_t nr_enter, nr_exit;	/* ordinals so far in this pass */
	struct pf_ordlist bad_enter, bad_exit;
};

/* First pass: 0, or -1 when out of memory. */
int perfetto_pair_lost(struct pf_pair *pp);
int perfetto_pair_enter(struct pf_pair *pp, uint64_t ts);
int perfetto_pair_exit(struct pf_pair *pp, uint64_t ts);

/* Between the passes: the next record is the first again. */
void perfetto_pair_rewind(struct pf_pair *pp);

/*
 * Second pass: whether this enter will never see its exit (another enter,
 * a loss or time running backwards came first; an enter still open at the
 * end is not one of them), or whether this exit closes no enter.
 */
int perfetto_pair_enter_cut(struct pf_pair *pp);
int perfetto_pair_exit_orphan(struct pf_pair *pp);

void perfetto_pair_free(struct pf_pair *pp);

/* ---- perfetto_event.c ---- */

/* The record's common_pid, 0 without one */
uint32_t perfetto_event_record_pid(const struct td_event *ev,
		       const struct td_record *rec);

/*
 * Append to @b a FtraceEventBundle.event for @rec: a GenericFtraceEvent
 * with every field (@ev NULL: no format, the id and the bytes), or
 * Perfetto's typed sched_switch (-1, nothing written, when @ev's fields
 * are not the kernel's).
 */
void perfetto_event_generic(struct pb_buf *b, const struct td_record *rec,
		    const struct td_event *ev, uint32_t pid);
int perfetto_event_sched_switch(struct pb_buf *b, const struct td_record *rec,
			const struct td_event *ev, uint32_t pid);
/*
 * Perfetto's typed host_mem_abort {esr, addr} for a host_abort record
 * (addr: its ipa), which the UI shows on the open hyp slice; -1, nothing
 * written, when @ev lacks the fields
 */
int perfetto_event_host_mem_abort(struct pb_buf *b, const struct td_record *rec,
			  const struct td_event *ev, uint32_t pid);

/* ---- perfetto_convert.c ---- */

struct pf_cpu {
	uint64_t nr_events;
	uint64_t lost;			/* the known counts, summed */
	uint64_t lost_gaps;		/* records that followed a loss */
	int lost_unknown;		/* some gap had no count */
	struct pf_pair pair;
	/* writing */
	int open;			/* a slice is open: its enter's */
	uint16_t open_reason;
	uint32_t open_func_id;
	struct pb_buf events;		/* encoded FtraceEventBundle.event */
	int lost_pending;		/* the next bundle follows a loss */
};

struct pf {
	/* the command's */
	const char *in;
	uint32_t enter_field, exit_field;	/* PFT_EVENT_*HYP_ENTER, _EXIT */
	FILE *f;
	const char *out_name;		/* for messages */
	/* the conversion's */
	struct td_file *td;
	unsigned int nr_cpus;
	struct pf_cpu *cpu;
	uint8_t kind[UINT16_MAX + 1];	/* enum pf_kind by event id */
	/* hyp_enter's reason and func_id, hyp_exit's reason and ret (pass 2) */
	const struct td_field *enter_reason, *enter_func_id;
	const struct td_field *exit_reason, *exit_ret;
	uint64_t nr_events, first_ts, last_ts;		/* pass 1 */
	uint64_t nr_written, nr_slices, nr_unpaired;	/* pass 2 */
	struct pb_buf out;
	int oom;			/* out of memory: stop */
};

/*
 * Convert p->in and write it to p->f. 0, or -1 after saying why on
 * stderr. Then perfetto_convert_free(), whatever it returned.
 */
int perfetto_convert(struct pf *p);
void perfetto_convert_free(struct pf *p);

#endif /* HYPTRACE_TOOLS_PERFETTO_H */
