/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every subcommand's --help text, in one place (lib/help.c) so that the
 * man pages are checked against one list (scripts/check-doc.sh).
 */
#ifndef HYPTRACE_HELP_H
#define HYPTRACE_HELP_H

#include <stdio.h>

/*
 * @sub's --help (synopsis, options, a pointer to its man page) on @f, and
 * its one-line summary for hyptrace's own list
 */
void help_usage(FILE *f, const char *sub);
const char *help_summary(const char *sub);

#endif /* HYPTRACE_HELP_H */
