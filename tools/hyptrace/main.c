// SPDX-License-Identifier: GPL-2.0
/*
 * hyptrace: record the hyptrace hypervisor's trace to a trace.dat and work
 * with the file. The subcommands live in files of their own; this only
 * finds the one asked for.
 */
#include <stdio.h>
#include <string.h>

#include "compiler.h"
#include "hyptrace.h"

static const struct subcommand {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} subcommands[] = {
	{ "record", cmd_record, "trace the hypervisor into a trace.dat" },
	{ "report", cmd_report, "print a trace.dat's events as text" },
	{ "stats", cmd_stats, "time spent in EL2, per CPU and per reason" },
	{ "perfetto", cmd_perfetto, "convert a trace.dat for ui.perfetto.dev" },
	{ "agent", cmd_agent, "board: send the trace over virtio-serial" },
	{ "listen", cmd_listen, "workstation: take an agent's trace, write a trace.dat" },
	{ "keygen", cmd_keygen, "a new key for agent -N and listen -N" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: hyptrace SUBCOMMAND [OPTIONS] [ARGS]\n\n");
	for (i = 0; i < ARRAY_SIZE(subcommands); i++)
		fprintf(f, "  %-10s %s\n", subcommands[i].name,
			subcommands[i].summary);
	fprintf(f, "\n'hyptrace SUBCOMMAND --help' describes each one.\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return HT_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return HT_EXIT_OK;
	}
	for (i = 0; i < ARRAY_SIZE(subcommands); i++) {
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].fn(argc - 1, argv + 1);
	}
	fprintf(stderr, "hyptrace: unknown subcommand '%s'\n", argv[1]);
	usage(stderr);
	return HT_EXIT_USAGE;
}
