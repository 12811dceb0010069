/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hyptrace's subcommands, one folder each: one function per subcommand,
 * taking its own argc/argv (argv[0] is the subcommand's name) and
 * returning the process exit status (HT_EXIT_*, hyptrace/cmdline.h).
 * main.c dispatches; libhyptrace.a (lib/, include/hyptrace/) holds what
 * they share.
 */
#ifndef HYPTRACE_SUBCOMMANDS_H
#define HYPTRACE_SUBCOMMANDS_H

int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_perfetto(int argc, char **argv);
int cmd_agent(int argc, char **argv);
int cmd_listen(int argc, char **argv);
int cmd_keygen(int argc, char **argv);

#endif /* HYPTRACE_SUBCOMMANDS_H */
