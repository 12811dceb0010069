/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hypervisor's buffer made ready the same way by every subcommand that
 * reads it (record, agent).
 */
#ifndef HYPTRACE_TOOLS_BUFFER_SETUP_H
#define HYPTRACE_TOOLS_BUFFER_SETUP_H

#include <getopt.h>
#include <stdbool.h>

struct hb_setup {
	char **events;		/* hypervisor events to enable; none: all */
	unsigned int nr_events;
	unsigned long buffer_kb;	/* per CPU; 0: leave as it is */
	bool no_overwrite;
	bool keep;		/* leave the buffer, its size and events alone */
};

/*
 * The command-line options of the buffer, the same in every subcommand
 * that sets it up: -e EVENT (any number), -b KB and --no-overwrite, whose
 * getopt value is BUFFER_SETUP_NO_OVERWRITE. Put BUFFER_SETUP_SHORTOPTS
 * in the short options and BUFFER_SETUP_LONGOPT in the long ones.
 */
#define BUFFER_SETUP_SHORTOPTS		"e:b:"
#define BUFFER_SETUP_NO_OVERWRITE	'W'
#define BUFFER_SETUP_LONGOPT \
	{ "no-overwrite", no_argument, NULL, BUFFER_SETUP_NO_OVERWRITE }

/*
 * @s cleared, with room for the -e options of a command line of @argc
 * words (free @s->events after); -1 if out of memory
 */
int buffer_setup_init(struct hb_setup *s, int argc);

/* What buffer_setup_getopt() returns for a buffer option's bad argument */
#define BUFFER_SETUP_BAD_ARG	(-2)

/*
 * getopt_long() over @argc/@argv with @shortopts (which must hold
 * BUFFER_SETUP_SHORTOPTS) and @longopts (BUFFER_SETUP_LONGOPT), the
 * buffer's options taken into @s on the way: the next other option, -1
 * at the end, or BUFFER_SETUP_BAD_ARG after one line (from @sub)
 */
int buffer_setup_getopt(int argc, char **argv, const char *shortopts,
			const struct option *longopts, const char *sub,
			struct hb_setup *s);

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
