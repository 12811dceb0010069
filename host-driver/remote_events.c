// SPDX-License-Identifier: GPL-2.0
/*
 * events.c's table as trace_remote takes it, for both remotes: the live
 * buffer's (remote.c) and the last boot's (last_boot_remote.c).
 */
#include <linux/bits.h>
#include <linux/string.h>
#include <linux/trace_remote_event.h>

#include "hyptrace.h"
#include "hyp_events.h"
#include "remote.h"

/**
 * hyptrace_remote_events_fill() - the events, as trace_remote takes them
 * @events:	HYP_NR_EVENTS of them, each remote its own (trace_remote
 *		writes .remote and .enabled)
 * @enabled:	those shown on (bit n = id n)
 */
void hyptrace_remote_events_fill(struct remote_event *events, u64 enabled)
{
	size_t i;

	for (i = 0; i < HYP_NR_EVENTS; i++) {
		const struct hyptrace_event *ev = &hyptrace_events[i];

		strscpy(events[i].name, ev->name);
		events[i].id = ev->id;
		events[i].fields = ev->fields;
		/* trace_remote only reads the format through its char * */
		events[i].print_fmt = (char *)ev->print_fmt;
		events[i].print = ev->print;
		events[i].enabled = !!(enabled & BIT_ULL(ev->id));
	}
}
