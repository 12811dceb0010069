// SPDX-License-Identifier: GPL-2.0
/*
 * Perfetto's ftrace messages (see pftrace.h): each function writes one
 * message, or its opening, with the field numbers named there, so that
 * the layout of a trace is in one place and the converter above speaks
 * only of events and CPUs.
 */
#include "pftrace.h"

size_t pft_event_begin(struct pb_buf *b, uint64_t ts, uint32_t pid)
{
	size_t mark = pb_begin(b, PFT_BUNDLE_EVENT);

	pb_uint(b, PFT_EVENT_TIMESTAMP, ts);
	pb_uint(b, PFT_EVENT_PID, pid);
	return mark;
}

void pft_event_empty(struct pb_buf *b, uint64_t ts, uint32_t pid,
		     uint32_t event_field)
{
	size_t mark = pft_event_begin(b, ts, pid);

	pb_bytes(b, event_field, NULL, 0);
	pft_event_end(b, mark);
}

size_t pft_generic_begin(struct pb_buf *b, const char *name)
{
	size_t mark = pb_begin(b, PFT_EVENT_GENERIC);

	pb_string(b, PFT_GENERIC_EVENT_NAME, name);
	return mark;
}

size_t pft_generic_field_begin(struct pb_buf *b, const char *name)
{
	size_t mark = pb_begin(b, PFT_GENERIC_FIELD);

	pb_string(b, PFT_GENERIC_FIELD_NAME, name);
	return mark;
}

void pft_bundle(struct pb_buf *out, unsigned int cpu, int lost,
		const struct pb_buf *events)
{
	size_t pkt, bundle;

	pkt = pb_begin(out, PFT_TRACE_PACKET);
	bundle = pb_begin(out, PFT_PACKET_FTRACE_EVENTS);
	pb_uint(out, PFT_BUNDLE_CPU, cpu);
	if (lost)
		pb_uint(out, PFT_BUNDLE_LOST_EVENTS, 1);
	pb_raw(out, events->data, events->len);
	pb_end(out, bundle);
	pb_uint(out, PFT_PACKET_TRUSTED_PACKET_SEQUENCE_ID, PFT_SEQUENCE_ID);
	pb_end(out, pkt);
}

void pft_stats_begin(struct pb_buf *out, struct pft_stats_mark *m,
		     uint32_t phase, const uint64_t *ts)
{
	m->packet = pb_begin(out, PFT_TRACE_PACKET);
	if (ts) {
		pb_uint(out, PFT_PACKET_TIMESTAMP, *ts);
		pb_uint(out, PFT_PACKET_TIMESTAMP_CLOCK_ID,
			PFT_BUILTIN_CLOCK_BOOTTIME);
	}
	m->stats = pb_begin(out, PFT_PACKET_FTRACE_STATS);
	pb_uint(out, PFT_STATS_PHASE, phase);
}

void pft_stats_cpu(struct pb_buf *out, unsigned int cpu, uint64_t overrun,
		   uint64_t read_events)
{
	size_t mark = pb_begin(out, PFT_STATS_CPU_STATS);

	pb_uint(out, PFT_CPU_STATS_CPU, cpu);
	pb_uint(out, PFT_CPU_STATS_OVERRUN, overrun);
	pb_uint(out, PFT_CPU_STATS_READ_EVENTS, read_events);
	pb_end(out, mark);
}

void pft_stats_end(struct pb_buf *out, const struct pft_stats_mark *m)
{
	pb_end(out, m->stats);
	pb_uint(out, PFT_PACKET_TRUSTED_PACKET_SEQUENCE_ID, PFT_SEQUENCE_ID);
	pb_end(out, m->packet);
}
