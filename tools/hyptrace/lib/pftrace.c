// SPDX-License-Identifier: GPL-2.0
/*
 * Perfetto's ftrace messages (see pftrace.h): each function writes one
 * message, or its opening, with the field numbers named there, so that
 * the layout of a trace is in one place and the converter above speaks
 * only of events and CPUs.
 */
#include "hyptrace/pftrace.h"

size_t pftrace_event_begin(struct pb_buf *b, uint64_t ts, uint32_t pid)
{
	size_t mark = pbenc_begin(b, PFT_BUNDLE_EVENT);

	pbenc_uint(b, PFT_EVENT_TIMESTAMP, ts);
	pbenc_uint(b, PFT_EVENT_PID, pid);
	return mark;
}

void pftrace_event_empty(struct pb_buf *b, uint64_t ts, uint32_t pid,
		     uint32_t event_field)
{
	size_t mark = pftrace_event_begin(b, ts, pid);

	pbenc_bytes(b, event_field, NULL, 0);
	pftrace_event_end(b, mark);
}

size_t pftrace_generic_begin(struct pb_buf *b, const char *name)
{
	size_t mark = pbenc_begin(b, PFT_EVENT_GENERIC);

	pbenc_string(b, PFT_GENERIC_EVENT_NAME, name);
	return mark;
}

size_t pftrace_generic_field_begin(struct pb_buf *b, const char *name)
{
	size_t mark = pbenc_begin(b, PFT_GENERIC_FIELD);

	pbenc_string(b, PFT_GENERIC_FIELD_NAME, name);
	return mark;
}

void pftrace_bundle(struct pb_buf *out, unsigned int cpu, int lost,
		const struct pb_buf *events)
{
	size_t pkt, bundle;

	pkt = pbenc_begin(out, PFT_TRACE_PACKET);
	bundle = pbenc_begin(out, PFT_PACKET_FTRACE_EVENTS);
	pbenc_uint(out, PFT_BUNDLE_CPU, cpu);
	if (lost)
		pbenc_uint(out, PFT_BUNDLE_LOST_EVENTS, 1);
	pbenc_raw(out, events->data, events->len);
	pbenc_end(out, bundle);
	pbenc_uint(out, PFT_PACKET_TRUSTED_PACKET_SEQUENCE_ID, PFT_SEQUENCE_ID);
	pbenc_end(out, pkt);
}

void pftrace_stats_begin(struct pb_buf *out, struct pft_stats_mark *m,
		     uint32_t phase, const uint64_t *ts)
{
	m->packet = pbenc_begin(out, PFT_TRACE_PACKET);
	if (ts) {
		pbenc_uint(out, PFT_PACKET_TIMESTAMP, *ts);
		pbenc_uint(out, PFT_PACKET_TIMESTAMP_CLOCK_ID,
			PFT_BUILTIN_CLOCK_BOOTTIME);
	}
	m->stats = pbenc_begin(out, PFT_PACKET_FTRACE_STATS);
	pbenc_uint(out, PFT_STATS_PHASE, phase);
}

void pftrace_stats_cpu(struct pb_buf *out, unsigned int cpu, uint64_t overrun,
		   uint64_t read_events)
{
	size_t mark = pbenc_begin(out, PFT_STATS_CPU_STATS);

	pbenc_uint(out, PFT_CPU_STATS_CPU, cpu);
	pbenc_uint(out, PFT_CPU_STATS_OVERRUN, overrun);
	pbenc_uint(out, PFT_CPU_STATS_READ_EVENTS, read_events);
	pbenc_end(out, mark);
}

void pftrace_stats_end(struct pb_buf *out, const struct pft_stats_mark *m)
{
	pbenc_end(out, m->stats);
	pbenc_uint(out, PFT_PACKET_TRUSTED_PACKET_SEQUENCE_ID, PFT_SEQUENCE_ID);
	pbenc_end(out, m->packet);
}
