// SPDX-License-Identifier: GPL-2.0
/*
 * Getting the hypervisor's buffer ready for a reader (buffer_setup.h):
 * the control files of its tracefs (or debugfs) directory, in the order
 * that leaves nothing recorded with the old settings.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "buffer_setup.h"
#include "errmsg.h"
#include "hyptrace.h"
#include "tracefs.h"

int hb_set(const char *sub, const char *dir, const char *file,
	   const char *val)
{
	char err[512];

	if (!tfs_write(dir, file, val, err, sizeof(err)))
		return 0;
	ht_err(sub, "%s", err);
	return -1;
}

int hb_prepare(const char *sub, const char *dir, const struct hb_setup *s)
{
	char file[PATH_MAX], kb[32];
	unsigned int i;

	snprintf(kb, sizeof(kb), "%lu", s->buffer_kb);
	/* A write to trace empties and unloads: a fresh start */
	if (!s->keep &&
	    (hb_set(sub, dir, "tracing_on", "0") ||
	     hb_set(sub, dir, "trace", "0") ||
	     (s->buffer_kb && hb_set(sub, dir, "buffer_size_kb", kb)) ||
	     hb_set(sub, dir, "overwrite", s->no_overwrite ? "0" : "1") ||
	     hb_set(sub, dir, "events/enable", s->nr_events ? "0" : "1")))
		return -1;
	for (i = 0; i < s->nr_events; i++) {
		snprintf(file, sizeof(file), "events/hypervisor/%s/enable",
			 s->events[i]);
		if (strchr(s->events[i], '/') || !tfs_exists(dir, file)) {
			ht_err(sub, "unknown hypervisor event '%s' (see %s/events/hypervisor/)",
			       s->events[i], dir);
			return -1;
		}
		if (hb_set(sub, dir, file, "1"))
			return -1;
	}
	return 0;
}
