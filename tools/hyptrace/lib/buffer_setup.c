// SPDX-License-Identifier: GPL-2.0
/*
 * Getting the hypervisor's buffer ready for a reader (buffer_setup.h):
 * the control files of its tracefs (or debugfs) directory, in the order
 * that leaves nothing recorded with the old settings.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyptrace/buffer_setup.h"
#include "hyptrace/errmsg.h"
#include "hyptrace/cmdline.h"
#include "hyptrace/tracefs.h"

int buffer_setup_init(struct hb_setup *s, int argc)
{
	memset(s, 0, sizeof(*s));
	/* every word of the command line could be an -e */
	s->events = calloc(argc, sizeof(*s->events));
	return s->events ? 0 : -1;
}

int buffer_setup_getopt(int argc, char **argv, const char *shortopts,
			const struct option *longopts, const char *sub,
			struct hb_setup *s)
{
	int c;

	for (;;) {
		c = getopt_long(argc, argv, shortopts, longopts, NULL);
		switch (c) {
		case 'e':
			s->events[s->nr_events++] = optarg;
			break;
		case 'b':
			if (!cmdline_parse_ulong(optarg, 1, ULONG_MAX,
						 &s->buffer_kb)) {
				cmdline_err(sub, "-b wants a size in KiB, not '%s'",
					    optarg);
				return BUFFER_SETUP_BAD_ARG;
			}
			break;
		case BUFFER_SETUP_NO_OVERWRITE:
			s->no_overwrite = true;
			break;
		default:
			return c;
		}
	}
}

int buffer_setup_set(const char *sub, const char *dir, const char *file,
	   const char *val)
{
	char err[512];

	if (!tracefs_write(dir, file, val, err, sizeof(err)))
		return 0;
	cmdline_err(sub, "%s", err);
	return -1;
}

int buffer_setup_prepare(const char *sub, const char *dir, const struct hb_setup *s)
{
	char file[PATH_MAX], kb[32];
	unsigned int i;

	snprintf(kb, sizeof(kb), "%lu", s->buffer_kb);
	/* A write to trace empties and unloads: a fresh start */
	if (!s->keep &&
	    (buffer_setup_set(sub, dir, "tracing_on", "0") ||
	     buffer_setup_set(sub, dir, "trace", "0") ||
	     (s->buffer_kb && buffer_setup_set(sub, dir, "buffer_size_kb", kb)) ||
	     buffer_setup_set(sub, dir, "overwrite", s->no_overwrite ? "0" : "1") ||
	     buffer_setup_set(sub, dir, "events/enable", s->nr_events ? "0" : "1")))
		return -1;
	for (i = 0; i < s->nr_events; i++) {
		snprintf(file, sizeof(file), "events/hypervisor/%s/enable",
			 s->events[i]);
		if (strchr(s->events[i], '/') || !tracefs_exists(dir, file)) {
			cmdline_err(sub, "unknown hypervisor event '%s' (see %s/events/hypervisor/)",
			       s->events[i], dir);
			return -1;
		}
		if (buffer_setup_set(sub, dir, file, "1"))
			return -1;
	}
	return 0;
}
