/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hyptrace, the command-line tool: one function per subcommand, each taking
 * its own argc/argv (argv[0] is the subcommand's name) and returning the
 * process exit status. main.c dispatches; lib/ holds the file formats.
 */
#ifndef HYPTRACE_TOOLS_HYPTRACE_H
#define HYPTRACE_TOOLS_HYPTRACE_H

#include <stdbool.h>
#include <stdio.h>

#include "compiler.h"

/* Exit statuses every subcommand uses */
#define HT_EXIT_OK		0
#define HT_EXIT_FAIL		1	/* the work failed: bad file, I/O, ... */
#define HT_EXIT_USAGE		2	/* bad command line */

int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_perfetto(int argc, char **argv);
int cmd_agent(int argc, char **argv);
int cmd_listen(int argc, char **argv);
int cmd_keygen(int argc, char **argv);

/* "hyptrace SUBCOMMAND: " then the message and a newline, on stderr */
/* @arg as a plain decimal in [@min, @max] into *@out, or false */
bool ht_parse_ulong(const char *arg, unsigned long min, unsigned long max,
		    unsigned long *out);
/*
 * @arg as a size in bytes, plain decimal with an optional K, M or G
 * (KiB, MiB, GiB), into *@out, or false
 */
bool ht_parse_size(const char *arg, unsigned long long *out);
void ht_err(const char *sub, const char *fmt, ...)
	__printf(2, 3);

/*
 * help.c: @sub's --help (synopsis, options, a pointer to its man page)
 * on @f, and its one-line summary for hyptrace's own list
 */
void ht_usage(FILE *f, const char *sub);
const char *ht_summary(const char *sub);

#endif /* HYPTRACE_TOOLS_HYPTRACE_H */
