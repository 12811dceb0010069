// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace agent: the answer to the host's "clock" order, the board's
 * trace clock read now (hyptrace/vtproto.h). The listener times the exchange
 * to line the trace up with a clock of its own (hyptrace/clksync.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agent.h"
#include "hyptrace/clksync.h"
#include "hyptrace/errmsg.h"
#include "hyptrace/cmdline.h"
#include "hyptrace/tracefs.h"

#define SUB		"agent"

int agent_clock_now(struct agent *a, int ctl)
{
	char name[32] = "unknown", msg[64], err[256];
	struct tfs_text t;
	clockid_t id;
	bool readable = false;

	/*
	 * The hypervisor stamps its events with the clock trace_clock
	 * selects ("[boot]", kept on CLOCK_BOOTTIME by hyptrace.ko); read
	 * the same clock here, after the file, as close to the send as can be
	 */
	if (!tracefs_read(a->dir, "trace_clock", &t, err, sizeof(err))) {
		readable = !clksync_selected_clock(t.text, name, sizeof(name)) &&
			   strcmp(name, "realtime") && !clksync_clockid(name, &id);
		free(t.text);
	}
	if (readable)
		snprintf(msg, sizeof(msg), "%s %lld", name,
			 (long long)clksync_now(id));
	else
		snprintf(msg, sizeof(msg), "%s -", name);
	if (a->tp->send(a, ctl, "clock_now", msg, strlen(msg), err,
			sizeof(err))) {
		cmdline_err(SUB, "%s: %s", a->tp->ctl_name, err);
		return -1;
	}
	return 0;
}
