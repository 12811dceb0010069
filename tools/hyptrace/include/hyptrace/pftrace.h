/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Perfetto's trace format, the part that carries ftrace data, written with
 * the protobuf encoder of pbenc.h: the field numbers, and one function per
 * message hyptrace writes. Nothing here knows trace.dat; `hyptrace
 * perfetto` (perfetto*.c) turns records into these messages.
 *
 * A trace is a Trace message, whose only field is the repeated
 * TracePacket; since protobuf concatenates repeated fields, a file is
 * simply packets one after another, each appended with its field tag.
 * The packets written here:
 *
 *   Trace.packet {
 *     ftrace_events { cpu, lost_events, event { timestamp, pid, <one> }... }
 *     trusted_packet_sequence_id
 *   }
 *   Trace.packet {
 *     timestamp, timestamp_clock_id,
 *     ftrace_stats { phase, cpu_stats { cpu, overrun, read_events }... }
 *     trusted_packet_sequence_id
 *   }
 *
 * Field numbers come from google/perfetto commit
 * ec5d16b14b743ba6063d720956d6d6af6610fd72 (main of 2026-08-22, past the
 * v58 branch point), files under protos/perfetto/; each is named
 * PFT_<MESSAGE>_<FIELD> after its message and field (tests/tools/
 * perfetto_subset.proto copies the same from there, for the test). The
 * pKVM events of the "hypervisor" group need Perfetto v52 or later, those
 * of the "hyp" group v34 or later.
 */
#ifndef HYPTRACE_TOOLS_PFTRACE_H
#define HYPTRACE_TOOLS_PFTRACE_H

#include <stddef.h>
#include <stdint.h>

#include "hyptrace/pbenc.h"

/* trace/trace.proto, message Trace */
#define PFT_TRACE_PACKET			1	/* repeated TracePacket */

/* trace/trace_packet.proto, message TracePacket */
#define PFT_PACKET_FTRACE_EVENTS		1	/* FtraceEventBundle */
#define PFT_PACKET_TIMESTAMP			8
#define PFT_PACKET_TRUSTED_PACKET_SEQUENCE_ID	10
#define PFT_PACKET_FTRACE_STATS			34	/* FtraceStats */
#define PFT_PACKET_TIMESTAMP_CLOCK_ID		58

/* common/builtin_clock.proto, enum BuiltinClock */
#define PFT_BUILTIN_CLOCK_BOOTTIME		6

/* trace/ftrace/ftrace_event_bundle.proto, message FtraceEventBundle */
#define PFT_BUNDLE_CPU				1
#define PFT_BUNDLE_EVENT			2	/* repeated FtraceEvent */
#define PFT_BUNDLE_LOST_EVENTS			3	/* bool */

/* trace/ftrace/ftrace_event.proto, message FtraceEvent: its oneof event */
#define PFT_EVENT_TIMESTAMP			1
#define PFT_EVENT_PID				2
#define PFT_EVENT_SCHED_SWITCH			4	/* sched.proto */
#define PFT_EVENT_GENERIC			327	/* generic.proto */
#define PFT_EVENT_HYP_ENTER			476	/* hyp.proto */
#define PFT_EVENT_HYP_EXIT			477
#define PFT_EVENT_HOST_MEM_ABORT		480	/* hyp.proto */
#define PFT_EVENT_HYPERVISOR_HYP_EXIT		584	/* hypervisor.proto */
#define PFT_EVENT_HYPERVISOR_HYP_ENTER		588
#define PFT_EVENT_HOST_HCALL			478	/* hyp.proto */
#define PFT_EVENT_HOST_SMC			479

/* trace/ftrace/hyp.proto, HostHcallFtraceEvent and HostSmcFtraceEvent */
#define PFT_HOST_HCALL_ID			1
#define PFT_HOST_HCALL_INVALID			2
#define PFT_HOST_SMC_ID				1
#define PFT_HOST_SMC_FORWARDED			2

/* trace/ftrace/hyp.proto, message HostMemAbortFtraceEvent */
#define PFT_HOST_MEM_ABORT_ESR			1	/* uint64 */
#define PFT_HOST_MEM_ABORT_ADDR			2	/* uint64 */

/* trace/ftrace/generic.proto, message GenericFtraceEvent */
#define PFT_GENERIC_EVENT_NAME			1
#define PFT_GENERIC_FIELD			2	/* repeated Field */

/* ... and its nested message GenericFtraceEvent.Field */
#define PFT_GENERIC_FIELD_NAME			1
#define PFT_GENERIC_FIELD_STR_VALUE		3
#define PFT_GENERIC_FIELD_INT_VALUE		4
#define PFT_GENERIC_FIELD_UINT_VALUE		5

/*
 * trace/ftrace/sched.proto, message SchedSwitchFtraceEvent: 1 to 7 in the
 * order of the kernel's sched_switch format; the comms are strings, the
 * rest int32 (prev_state int64).
 */
#define PFT_SCHED_SWITCH_PREV_COMM		1
#define PFT_SCHED_SWITCH_PREV_PID		2
#define PFT_SCHED_SWITCH_PREV_PRIO		3
#define PFT_SCHED_SWITCH_PREV_STATE		4
#define PFT_SCHED_SWITCH_NEXT_COMM		5
#define PFT_SCHED_SWITCH_NEXT_PID		6
#define PFT_SCHED_SWITCH_NEXT_PRIO		7
#define PFT_SCHED_SWITCH_NR_FIELDS		7

/* trace/ftrace/ftrace_stats.proto, message FtraceStats */
#define PFT_STATS_PHASE				1	/* enum Phase */
#define PFT_STATS_CPU_STATS			2	/* repeated FtraceCpuStats */

/* ... its enum FtraceStats.Phase */
#define PFT_STATS_START_OF_TRACE		1
#define PFT_STATS_END_OF_TRACE			2

/* ... and message FtraceCpuStats */
#define PFT_CPU_STATS_CPU			1
#define PFT_CPU_STATS_OVERRUN			3
#define PFT_CPU_STATS_READ_EVENTS		9

/* Every packet is ours, on one writer sequence */
#define PFT_SEQUENCE_ID				1

/*
 * An FtraceEvent, appended to @b as a FtraceEventBundle.event field: its
 * timestamp and pid here, then the caller's one event field (a message
 * whose field number is one of PFT_EVENT_*), then pftrace_event_end().
 */
size_t pftrace_event_begin(struct pb_buf *b, uint64_t ts, uint32_t pid);

static inline void pftrace_event_end(struct pb_buf *b, size_t mark)
{
	pbenc_end(b, mark);
}

/* A whole FtraceEvent whose event message has no fields (hyp_enter, ...) */
void pftrace_event_empty(struct pb_buf *b, uint64_t ts, uint32_t pid,
		     uint32_t event_field);

/*
 * Inside an FtraceEvent: a GenericFtraceEvent named @name, to close with
 * pbenc_end(); and in it each Field, named here, given its value with one of
 * PFT_GENERIC_FIELD_*_VALUE, then closed with pbenc_end().
 */
size_t pftrace_generic_begin(struct pb_buf *b, const char *name);
size_t pftrace_generic_field_begin(struct pb_buf *b, const char *name);

/*
 * A TracePacket appended to @out holding the FtraceEventBundle of @cpu:
 * @events is its FtraceEventBundle.event fields, already encoded; @lost
 * sets lost_events, saying that events were lost before the first one.
 */
void pftrace_bundle(struct pb_buf *out, unsigned int cpu, int lost,
		const struct pb_buf *events);

/*
 * A TracePacket with FtraceStats: pftrace_stats_begin() with the phase
 * (PFT_STATS_*_OF_TRACE) and the packet's timestamp (CLOCK_BOOTTIME ns;
 * NULL for none), pftrace_stats_cpu() for each CPU, then pftrace_stats_end().
 */
struct pft_stats_mark {
	size_t packet, stats;
};

void pftrace_stats_begin(struct pb_buf *out, struct pft_stats_mark *m,
		     uint32_t phase, const uint64_t *ts);
void pftrace_stats_cpu(struct pb_buf *out, unsigned int cpu, uint64_t overrun,
		   uint64_t read_events);
void pftrace_stats_end(struct pb_buf *out, const struct pft_stats_mark *m);

#endif /* HYPTRACE_TOOLS_PFTRACE_H */
