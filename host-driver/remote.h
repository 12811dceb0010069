/* SPDX-License-Identifier: GPL-2.0 */
/* What the trace_remote front end's files offer each other */
#ifndef HYPTRACE_HOST_REMOTE_H
#define HYPTRACE_HOST_REMOTE_H

#include <linux/types.h>

struct hyptrace_source;
struct remote_event;

/* remote_events.c: events.c's table as trace_remote takes it */
void hyptrace_remote_events_fill(struct remote_event *events, u64 enabled);

/* last_boot_remote.c: the front end's show_last_boot */
int remote_show_last_boot(struct hyptrace_source *src);

#endif /* HYPTRACE_HOST_REMOTE_H */
