/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hypervisor's buffer made ready the same way by every subcommand that
 * reads it (record, agent).
 */
#ifndef HYPTRACE_TOOLS_BUFFER_SETUP_H
#define HYPTRACE_TOOLS_BUFFER_SETUP_H

#include <stdbool.h>

struct hb_setup {
	char **events;		/* hypervisor events to enable; none: all */
	unsigned int nr_events;
	unsigned long buffer_kb;	/* per CPU; 0: leave as it is */
	bool no_overwrite;
	bool keep;		/* leave the buffer, its size and events alone */
};

/* Write @val into @dir/@file; -1 after one line (from @sub) saying why */
int buffer_setup_set(const char *sub, const char *dir, const char *file,
	   const char *val);

/*
 * Unless @s->keep: tracing off, the buffer emptied and unloaded, sized and
 * set to overwrite or not, every event off; then the events @s names on.
 * Tracing is left off (on, with @s->keep, if it was). 0, or -1 after one
 * line.
 */
int buffer_setup_prepare(const char *sub, const char *dir, const struct hb_setup *s);

#endif /* HYPTRACE_TOOLS_BUFFER_SETUP_H */
